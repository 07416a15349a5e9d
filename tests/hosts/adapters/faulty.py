"""A Python adapter that fails the way a worker process can, on the item that asks for it:
`crash` exits the process (code 41) mid-leg, `hang` never answers; any other item is answered
as one_call.py answers it. The supervisor's crash and hang handling must apply to it unchanged."""
import importlib.util
import os
import pathlib
import sys
import time

_spec = importlib.util.spec_from_file_location("one_call", pathlib.Path(__file__).with_name("one_call.py"))
one_call = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(one_call)

name = "faulty_py"
lib_version = one_call.lib_version


class Runner(one_call.Runner):
    def run(self, item):
        if "crash" in item["input"]:
            sys.stderr.write(f"faulty_py: dying on {item['id']}\n")
            os._exit(41)
        if "hang" in item["input"]:
            time.sleep(3600)
        return super().run(item)


def build(arena, config, ctx):
    return Runner(arena, config)
