"""One leg of a Python adapter in its own OS process, for the restart tests across two processes:
the Python twin of leg-child.ts, driving the adapter module the way the worker host loads it
(arena_host.loader) with the host's own build context, and nothing shared with the other leg's
process but a JSON file and the checkpoint directory.

    python py_leg.py <module> run|resume <job.json> <state.json>

job.json: {"arena", "config", "item", "corpusPath"} as the protocol's dicts. Prints one JSON line:
the leg's result, the size of the resume state it wrote (compact JSON bytes; 0 on a resume), and
the checkpoint directory's files with their sizes.
"""
import asyncio
import inspect
import json
import os
import sys

from arena_host import loader
from arena_host.host import BuildContext, load_corpus


async def main(module_path, mode, job_file, state_file):
    with open(job_file, encoding="utf-8") as f:
        job = json.load(f)
    module, _version = loader.load(module_path)
    ctx = BuildContext(job["corpusPath"], load_corpus(job["corpusPath"]))
    runner = module.build(job["arena"], job["config"], ctx)
    if mode == "run":
        result = runner.run(job["item"])
    else:
        with open(state_file, encoding="utf-8") as f:
            state = json.load(f)
        result = runner.resume(job["item"], state, "approve")
    result = await result if inspect.isawaitable(result) else result
    state_bytes = 0
    if mode == "run":
        with open(state_file, "w", encoding="utf-8") as f:
            json.dump(result.get("resume_state"), f)
        state_bytes = len(json.dumps(result.get("resume_state"), separators=(",", ":")).encode())
    folder = job["item"]["checkpointDir"]
    files = {name: os.path.getsize(os.path.join(folder, name)) for name in sorted(os.listdir(folder))}
    sys.stdout.write(json.dumps({"result": result, "stateBytes": state_bytes, "files": files}) + "\n")


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:5]))
