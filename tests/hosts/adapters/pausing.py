"""A Python adapter that pauses once per item, to prove the durable restart applies to the Python
host unchanged: run() asks the gateway once and suspends with the transcript as its resume state;
resume() refuses to go on in a process that ran the item (a process that never saw it is what
the harness promises), and otherwise continues the transcript with one more call."""
import importlib.util
import pathlib

_spec = importlib.util.spec_from_file_location("one_call", pathlib.Path(__file__).with_name("one_call.py"))
one_call = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(one_call)

name = "pausing_py"
lib_version = one_call.lib_version
# Only in this process's memory: what a durable restart must lose.
ran_here = set()


class Runner(one_call.Runner):
    def run(self, item):
        ran_here.add(item["id"])
        result = super().run(item)
        return {**result, "suspended": True, "suspend_request": result["output_text"], "resume_state": result["raw"]}

    def resume(self, item, state, decision):
        if item["id"] in ran_here:
            raise RuntimeError(f"resumed {item['id']} in the process that ran it: the durable restart did not happen")
        # The transcript so far came back as data, and goes on from where the served reply left it.
        message, usage = self.chat([*state["messages"], {"role": "user", "content": decision}])
        return {"output_text": message.get("content") or "", "llm_calls": 1,
                "prompt_tokens": usage.get("prompt_tokens", 0), "completion_tokens": usage.get("completion_tokens", 0)}


def build(arena, config, ctx):
    return Runner(arena, config)
