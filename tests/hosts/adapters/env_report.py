"""Reports, as its answer, what of the worker's environment the telemetry rule and the channel
rule decide (tests/hosts/python-host.test.ts)."""
import json
import os

name = "env_report_py"
lib_version = "stdlib"
WATCHED = ["OTEL_SDK_DISABLED", "DO_NOT_TRACK", "OPENAI_AGENTS_DISABLE_TRACING", "LANGSMITH_API_KEY", "NODE_CHANNEL_FD", "ARENA_SANDBOX_BRIDGE"]


class Runner:
    def run(self, item):
        return {"output_text": json.dumps({k: os.environ.get(k) for k in WATCHED})}


def build(arena, config, ctx):
    return Runner()
