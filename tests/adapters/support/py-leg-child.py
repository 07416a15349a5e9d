"""One leg of a Python adapter's durable item in its own OS process, for the restart test across
two processes (the Python counterpart of leg-child.ts): the adapter module is loaded through the
host's own loader and its toolbox, the gateway is the test's, and only the state file and the
checkpoint directory are shared with the other leg's process.

    python -s -B py-leg-child.py <module> run|resume <job.json> <checkpointDir> <stateFile>

job.json: {"arena": <ArenaSpec>, "config": <AdapterConfig>, "item": <WorkItem>, "corpus": <path>}.
Prints one JSON line: the leg's result, the resume state's size, the checkpoint files.
"""
import json
import os
import sys

from arena_host import loader
from arena_host.host import Toolbox
from arena_tools.search import load_corpus

module_path, mode, job_file, checkpoint_dir, state_file = sys.argv[1:6]
with open(job_file, encoding="utf-8") as f:
    job = json.load(f)
module, _version = loader.load(module_path)


class Context:
    tools = Toolbox(load_corpus(job["corpus"]))


runner = module.build(job["arena"], job["config"], Context())
item = {**job["item"], "checkpointDir": checkpoint_dir}
if mode == "run":
    result = runner.run(item)
    with open(state_file, "w", encoding="utf-8") as f:
        json.dump(result.get("resume_state"), f)
else:
    with open(state_file, encoding="utf-8") as f:
        result = runner.resume(item, json.load(f), "approve")
files = {name: os.path.getsize(os.path.join(checkpoint_dir, name)) for name in sorted(os.listdir(checkpoint_dir))}
state_bytes = len(json.dumps(result.get("resume_state"), separators=(",", ":")).encode()) if mode == "run" else 0
print(json.dumps({"result": result, "stateBytes": state_bytes, "files": files}))
