"""The reference baseline loop in Python (harness.md §7), the twin of workers/adapters/vanilla/runner.ts:
hand-rolled, no framework, no retries, and the same request bodies. The pause is emulated: the
transcript is the resume state."""
from arena_tools.definitions import is_suspend_tool, pause_request_of
from arena_tools.texts import MAX_ITERATIONS_ERROR, PAUSED_SIBLING_TEXT, decision_text

from .model import chat_completion, request_body
from .tools import arena_tools, tool_message


class LegUsage:
    """A leg's usage: the sum of what each reply billed, and the number of replies."""

    def __init__(self):
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.calls = 0

    def add(self, reply):
        """Count one reply, and hand it back."""
        self.calls += 1
        self.prompt_tokens += reply["prompt_tokens"]
        self.completion_tokens += reply["completion_tokens"]
        return reply

    def report(self):
        return {"prompt_tokens": self.prompt_tokens, "completion_tokens": self.completion_tokens, "llm_calls": self.calls}


def assistant_turn(reply):
    """The assistant turn as the baseline replays it: `content: null` when empty, arguments exactly as received."""
    return {
        "role": "assistant",
        "content": reply["content"] or None,
        "tool_calls": [{"id": c["id"], "type": "function", "function": {"name": c["name"], "arguments": c["arguments"]}}
                       for c in reply["tool_calls"]],
    }


def run_leg(arena, config, tools, messages):
    """Run model calls until an answer, a pause, or the per-leg budget; `messages` is extended in place."""
    specs = arena_tools(arena)
    tool_calls = []
    usage = LegUsage()
    last_content = ""
    while usage.calls < config["maxToolIterations"]:
        body = request_body(config, messages, specs if specs else None)
        reply = usage.add(chat_completion(config, body))
        last_content = reply["content"] or last_content
        if not reply["tool_calls"]:
            return {"output_text": reply["content"], "tool_calls": tool_calls, **usage.report()}
        messages.append(assistant_turn(reply))
        for index, call in enumerate(reply["tool_calls"]):
            if is_suspend_tool(call["name"]):
                return {
                    "output_text": last_content,
                    "tool_calls": tool_calls,
                    **usage.report(),
                    "suspended": True,
                    "suspend_request": pause_request_of(call["arguments"]),
                    "resume_state": {
                        "messages": messages,
                        "approval_id": call["id"],
                        "pending_ids": [c["id"] for c in reply["tool_calls"][index + 1:]],
                    },
                }
            tool_calls.append({"name": call["name"], "arguments": call["arguments"]})
            messages.append(tool_message(tools, call))
    return {"output_text": last_content, "tool_calls": tool_calls, **usage.report(), "error": MAX_ITERATIONS_ERROR}


def resume_messages(state, decision):
    """The transcript from a resume state: the decision answers the pause, later siblings are declined.
    A state it cannot continue from is a string, the error (its Python type name, as the TS twin says)."""
    if not isinstance(state, dict) or not isinstance(state.get("messages"), list):
        return f"cannot resume: unusable state {type(state).__name__}"
    messages = list(state["messages"])
    messages.append({"role": "tool", "tool_call_id": state.get("approval_id"), "content": decision_text(decision)})
    pending = state.get("pending_ids")
    for call_id in pending if isinstance(pending, list) else []:
        messages.append({"role": "tool", "tool_call_id": call_id, "content": PAUSED_SIBLING_TEXT})
    return messages


class Runner:
    """A fresh transcript per item; a resume continues the one in its state with a full budget."""

    def __init__(self, arena, config, ctx):
        self.arena, self.config, self.tools = arena, config, ctx.tools

    def run(self, item):
        messages = [{"role": "system", "content": self.arena["systemPrompt"]}, {"role": "user", "content": item["input"]}]
        return run_leg(self.arena, self.config, self.tools, messages)

    def resume(self, item, state, decision):
        messages = resume_messages(state, decision)
        if isinstance(messages, str):
            return {"error": messages}
        return run_leg(self.arena, self.config, self.tools, messages)


def build_runner(arena, config, ctx):
    return Runner(arena, config, ctx)
