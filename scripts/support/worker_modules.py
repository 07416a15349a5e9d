"""The modules a Python worker imports for its adapter, found by doing what the worker does, for
scripts/host-start.ts's per-adapter floor (issue 23: "python3 -c pass + its framework's import").

    python -s -B worker_modules.py ADAPTER_MODULE CORPUS_PATH [--build-only]   (PYTHONPATH=workers/python)

Imports what `python -m arena_host` imports before it loads an adapter, notes `sys.modules`, then
builds the adapter through the host's own `Host.build` on a message as the orchestrator sends it
(so lazy imports made while a framework builds its model are seen, and a variant sibling's are
not), and prints, as JSON, the modules that were new, in the order they were first imported, with
`skipped`: those that did not import in a fresh interpreter importing the list in that order.
Left out: the adapter's own files (`arena_adapter.*`: loadable only through the loader) and
`arena_host`/`arena_tools` (the harness's own, whatever imports them).

With `--build-only` it exits at once after the build, listing nothing: a worker's start without
its channel (no stdio protocol, no serve loop), the floor under what the host's channel adds.
"""
import json
import os
import runpy  # noqa: F401  (what `-m arena_host` has imported before the host runs)
import sys

from arena_host.host import Host  # everything the host imports before an adapter is loaded
from arena_host.schema import TO_WORKER

MODULE, CORPUS = sys.argv[1], sys.argv[2]
# The build message as the orchestrator sends it, parsed as serve() parses it (the check of a
# string's length imports a codec: the host's, so it is done before the modules are noted).
MESSAGE = TO_WORKER.parse({
    "type": "build", "adapter": {"name": "floor", "module": MODULE}, "seat": 0, "corpusPath": CORPUS,
    "arena": {"id": "tool_use", "tools": ["search", "calculator"], "systemPrompt": "Answer.", "durable": False},
    "config": {"model": "m", "baseUrl": "http://127.0.0.1:9/v1", "apiKey": "k", "temperature": 0, "requestTimeoutS": 5, "maxToolIterations": 8},
})
BEFORE = set(sys.modules)
HARNESS = ("arena_adapter", "arena_host", "arena_tools")


class Outbox:
    """The channel's stand-in: keeps what the host sends (its answer to the build)."""

    def __init__(self):
        self.sent = []

    def send(self, message):
        self.sent.append(message)


def main():
    out = Outbox()
    host = Host(out)
    host.build(MESSAGE)
    answer = out.sent[-1]
    if answer["type"] != "built":
        sys.stderr.write(f"{MODULE} did not build: {answer.get('reason')}\n{answer.get('traceback', '')}")
        sys.exit(1)
    if sys.argv[3:] == ["--build-only"]:
        os._exit(0)  # as a measured worker ends: killed once built, no interpreter teardown
    # sys.modules keeps insertion order, and a module is inserted before its body runs: parents
    # and importers come before what they import, so importing the list in order replays the worker's.
    new = [m for m, v in sys.modules.items() if m not in BEFORE and v is not None and m.split(".")[0] not in HARNESS]
    import subprocess  # noqa: PLC0415  (after the list is taken: it is this script's, not the worker's)

    # A module can be in sys.modules without being importable by its name on its own (an alias a
    # package assigns, a module that needs its importer's state): the floor leaves those out.
    check = "import importlib, json, sys\nbad = []\nfor m in json.loads(sys.argv[1]):\n    try: importlib.import_module(m)\n    except BaseException: bad.append(m)\nprint(json.dumps(bad))"
    probe = subprocess.run([sys.executable, "-s", "-B", "-c", check, json.dumps(new)], capture_output=True, text=True, check=True)
    skipped = json.loads(probe.stdout.strip().splitlines()[-1])
    print(json.dumps({"modules": [m for m in new if m not in skipped], "skipped": skipped}))


main()
