"""`vanilla-py-multi`: the hand-rolled researcher → writer → editor pipeline (harness.md §8), the
twin of workers/adapters/vanilla/multi.ts. One shared history, one client, one budget of
`maxToolIterations` LLM calls for the whole item. Built only on what `index.py` exports."""
from arena_tools.texts import MAX_ITERATIONS_ERROR, PIPELINE_ROLES, stage_prompt

from .index import LegUsage, arena_tools, assistant_turn, chat_completion, request_body, tool_message
from .index import lib_version  # noqa: F401  (the parent's, read by the host as this module's own)

name = "vanilla-py-multi"


class Pipeline:
    def __init__(self, arena, config, ctx):
        self.arena, self.config, self.tools = arena, config, ctx.tools
        self.specs = arena_tools(arena)

    def system(self, role):
        return {"role": "system", "content": stage_prompt(self.arena["systemPrompt"], PIPELINE_ROLES[role])}

    def run(self, item):
        config = self.config
        history = [{"role": "user", "content": item["input"]}]
        tool_calls = []
        usage = LegUsage()
        last_content = ""

        # Only the researcher gets tools; writer and editor are called without `tools`/`tool_choice`.
        def call(role, with_tools):
            body = request_body(config, [self.system(role), *history], self.specs if with_tools else None)
            return usage.add(chat_completion(config, body))

        researched = False
        while usage.calls < config["maxToolIterations"]:
            reply = call("researcher", True)
            last_content = reply["content"] or last_content
            if not reply["tool_calls"]:
                researched = True
                break
            history.append(assistant_turn(reply))
            for c in reply["tool_calls"]:
                tool_calls.append({"name": c["name"], "arguments": c["arguments"]})
                history.append(tool_message(self.tools, c))
        if not researched:
            return {"output_text": last_content, "tool_calls": tool_calls, **usage.report(), "error": MAX_ITERATIONS_ERROR}
        if last_content:
            history.append({"role": "assistant", "content": last_content})
        for role in ("writer", "editor"):
            if usage.calls >= config["maxToolIterations"]:
                break
            reply = call(role, False)
            if reply["content"]:
                last_content = reply["content"]
                history.append({"role": "assistant", "content": reply["content"]})
        return {"output_text": last_content, "tool_calls": tool_calls, **usage.report()}


def build(arena, config, ctx):
    return Pipeline(arena, config, ctx)
