"""Reports, as its answer, which of the modules the host should not need were imported before this
module was loaded (the start and the build's handshake) and by the end of a plain leg
(tests/hosts/python-lazy-loop.test.ts). Its own imports are only what that takes."""
import json
import sys

name = "modules_report_py"
lib_version = "stdlib"
# What asyncio brings with it; a stdlib adapter with plain functions needs none of them.
HEAVY = ["asyncio", "ssl", "concurrent.futures", "logging"]
AT_LOAD = [m for m in HEAVY if m in sys.modules]


class Runner:
    def run(self, item):
        return {"output_text": json.dumps({"at_load": AT_LOAD, "after_build": [m for m in HEAVY if m in sys.modules]})}


def build(arena, config, ctx):
    return Runner()
