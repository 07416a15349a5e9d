"""The Python host's conformance adapter, the twin of conformance.ts: its runner returns, or
raises, what the item's input says; the markers make what JSON cannot carry, in Python's terms
(and `$tuple` / `$bigint`, which only Python has)."""
import json

name = "conformance"
lib_version = "conformance 1"
delegates = ["ask_helper"]
wire_exceptions = [{"key": "stop", "reason": "conformance: a declared exception crosses as data"}]


def decode(v):
    if isinstance(v, list):
        return [decode(x) for x in v]
    if not isinstance(v, dict):
        return v
    if "$nan" in v:
        return float("nan")
    if "$inf" in v:
        return float("inf")
    if "$set" in v:
        return set(v["$set"])
    if "$map" in v:
        return {k: x for k, x in v["$map"]}
    if "$tuple" in v:
        return tuple(v["$tuple"])
    if "$bigint" in v:
        return int(v["$bigint"])
    return {k: decode(x) for k, x in v.items()}


class Runner:
    async def run(self, item):
        asked = json.loads(item["input"])
        if "raise" in asked:
            raise RuntimeError(asked["raise"])
        return decode(asked.get("return"))

    def resume(self, item, state, decision):
        return {"output_text": decision, "raw": state}


def build(arena, config, ctx):
    if arena["systemPrompt"] == "refuse to build":
        raise RuntimeError("asked to refuse")
    return Runner()
