"""The protocol's schemas, checked the way zod checks them on the Node side.

`protocol.schema.json` is generated from contract/protocol.ts (`scripts/protocol-schema.ts`,
zod's own JSON Schema export), so nothing about a message is declared twice by hand. This
module interprets the subset that export uses, with zod's semantics:

- an object keeps only its declared properties (zod strips unknown keys; it does not refuse
  them) and gets the declared defaults for absent ones;
- `number` is a finite int or float (an int a double can hold), never a bool; `integer` a whole number within
  `Number.MAX_SAFE_INTEGER`, as `z.number().int()` is;
- `array` is a list and `object` a dict with string keys: anything else would cross as
  something other than what the adapter handed back.
"""
import json
import math
import os

# os.path, not pathlib: pathlib would cost every start urllib.parse and ipaddress.
with open(os.path.join(os.path.dirname(__file__), "protocol.schema.json"), encoding="utf-8") as _f:
    SCHEMAS = json.load(_f)


class Invalid(Exception):
    """A value does not match: `path` names the field (`item.checkpointDir`)."""

    def __init__(self, path, problem):
        super().__init__(f"{path or '(root)'}: {problem}")
        self.path = path
        self.problem = problem


def _join(path, key):
    return f"{path}.{key}" if path else str(key)


def _kind(value):
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    if isinstance(value, dict):
        return "object"
    return type(value).__name__


def _is_number(value):
    # An int past the largest double would reach the orchestrator as Infinity, which zod refuses.
    if _kind(value) != "number":
        return False
    return abs(value) < 2**1024 if isinstance(value, int) else math.isfinite(value)


def _is_integer(value):
    return _is_number(value) and (isinstance(value, int) or value.is_integer())


TYPE_TESTS = {
    "null": lambda v: v is None,
    "boolean": lambda v: isinstance(v, bool),
    "number": _is_number,
    "integer": _is_integer,
    "string": lambda v: isinstance(v, str),
    "array": lambda v: isinstance(v, list),
    "object": lambda v: isinstance(v, dict) and all(isinstance(k, str) for k in v),
}


class Validator:
    def __init__(self, schema):
        self._defs = schema.get("$defs", {})
        self._root = schema

    def parse(self, value):
        """The value as zod would hand it on (stripped, defaults filled), or raise Invalid."""
        return self._check(self._root, value, "")

    def _check(self, schema, value, path):
        if "$ref" in schema:
            return self._check(self._defs[schema["$ref"].rsplit("/", 1)[-1]], value, path)
        if "oneOf" in schema or "anyOf" in schema:
            return self._union(schema.get("oneOf") or schema["anyOf"], value, path)
        types = schema.get("type")
        if types is not None:
            types = types if isinstance(types, list) else [types]
            if not any(TYPE_TESTS[t](value) for t in types):
                raise Invalid(path, f"expected {' or '.join(types)}, got {_kind(value)}")
        if "const" in schema and value != schema["const"]:
            raise Invalid(path, f"expected {json.dumps(schema['const'])}")
        if "enum" in schema and value not in schema["enum"]:
            raise Invalid(path, f"expected one of {', '.join(json.dumps(e) for e in schema['enum'])}")
        self._bounds(schema, value, path)
        if isinstance(value, list) and "items" in schema:
            return [self._check(schema["items"], v, f"{path}[{i}]") for i, v in enumerate(value)]
        if isinstance(value, dict):
            return self._object(schema, value, path)
        return value

    def _union(self, options, value, path):
        # A discriminated union (every option has a `type` const) names the failing option's field.
        tags = [o.get("properties", {}).get("type", {}).get("const") for o in options]
        if all(t is not None for t in tags) and isinstance(value, dict):
            if value.get("type") not in tags:
                raise Invalid(_join(path, "type"), f"expected one of {', '.join(json.dumps(t) for t in tags)}")
            return self._check(options[tags.index(value["type"])], value, path)
        for option in options:
            try:
                return self._check(option, value, path)
            except Invalid:
                continue
        raise Invalid(path, f"no variant matches a {_kind(value)}")

    def _bounds(self, schema, value, path):
        if _is_number(value):
            if "exclusiveMinimum" in schema and not value > schema["exclusiveMinimum"]:
                raise Invalid(path, f"must be greater than {schema['exclusiveMinimum']}")
            if "minimum" in schema and not value >= schema["minimum"]:
                raise Invalid(path, f"must be at least {schema['minimum']}")
            if "maximum" in schema and not value <= schema["maximum"]:
                raise Invalid(path, f"must be at most {schema['maximum']}")
        sized = len(value) if isinstance(value, (str, list)) else None
        if sized is not None:
            # zod measures a string in UTF-16 code units, as JavaScript does.
            if isinstance(value, str):
                sized = len(value.encode("utf-16-le", "surrogatepass")) // 2
            low = schema.get("minLength", schema.get("minItems"))
            high = schema.get("maxLength", schema.get("maxItems"))
            if low is not None and sized < low:
                raise Invalid(path, f"must have at least {low}")
            if high is not None and sized > high:
                raise Invalid(path, f"must have at most {high}")

    def _object(self, schema, value, path):
        props = schema.get("properties")
        if props is None:
            extra = schema.get("additionalProperties", {})
            return {k: self._check(extra, v, _join(path, k)) for k, v in value.items()}
        for key in schema.get("required", []):
            if key not in value:
                raise Invalid(_join(path, key), "required")
        out = {}
        for key, sub in props.items():
            if key in value:
                out[key] = self._check(sub, value[key], _join(path, key))
            elif "default" in sub:
                out[key] = json.loads(json.dumps(sub["default"]))
        return out


TO_WORKER = Validator(SCHEMAS["toWorker"])
AGENT_RESULT = Validator(SCHEMAS["agentResult"])
