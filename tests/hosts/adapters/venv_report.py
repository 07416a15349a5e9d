"""Reports, as its answer, which environment the worker's interpreter is (sys.prefix: the project's
.venv when the install built it) and what a write into it gets (a sealed worker: EROFS, the
venv is bound read-only) (tests/hosts/python-run.test.ts)."""
import errno
import json
import os
import sys

name = "venv_report_py"
lib_version = "stdlib"


def write_outcome():
    target = os.path.join(sys.prefix, "arena-write-probe")
    try:
        with open(target, "w") as f:
            f.write("x")
    except OSError as err:
        return errno.errorcode.get(err.errno, str(err.errno))
    os.remove(target)
    return "written"


class Runner:
    def run(self, item):
        return {"output_text": json.dumps({"prefix": sys.prefix, "write": write_outcome()})}


def build(arena, config, ctx):
    return Runner()
