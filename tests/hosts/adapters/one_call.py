"""The Python host's test adapter: one real chat-completions call, with urllib, to the base URL
it was handed, and the reply's text as the answer. Honest by construction: no tools, no loop, and
usage as the gateway served it (the harness counts calls and tokens from its own records anyway).
"""
import json
import time
import urllib.request

name = "one_call_py"
lib_version = "stdlib urllib"


class Runner:
    def __init__(self, arena, config):
        self.arena, self.config = arena, config

    def chat(self, messages):
        """One chat-completions call: the reply's message and usage."""
        body = {"model": self.config["model"], "messages": messages, "temperature": self.config["temperature"]}
        request = urllib.request.Request(
            self.config["baseUrl"].rstrip("/") + "/chat/completions",
            data=json.dumps(body).encode("utf-8"),
            headers={"Content-Type": "application/json", "Authorization": f"Bearer {self.config['apiKey']}"},
        )
        with urllib.request.urlopen(request, timeout=self.config["requestTimeoutS"]) as response:
            reply = json.load(response)
        return reply["choices"][0]["message"], reply.get("usage") or {}

    def run(self, item):
        started = time.perf_counter()
        messages = [{"role": "system", "content": self.arena["systemPrompt"]}, {"role": "user", "content": item["input"]}]
        message, usage = self.chat(messages)
        return {
            "output_text": message.get("content") or "",
            "prompt_tokens": usage.get("prompt_tokens", 0),
            "completion_tokens": usage.get("completion_tokens", 0),
            "llm_calls": 1,
            "latency_s": time.perf_counter() - started,
            "raw": {"messages": [*messages, {"role": "assistant", "content": message.get("content") or ""}]},
        }


def build(arena, config, ctx):
    return Runner(arena, config)
