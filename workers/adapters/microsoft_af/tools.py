"""The canonical tools as the framework's `FunctionTool`s, and the one place a call is answered.

Each tool is declared with its canonical name, full description and parameter schema (a dict the
client sends verbatim), and `approval_mode="always_require"` for a pause tool, so the framework's
own approval gate stops the run before it runs.

The framework hands a tool body the arguments it parsed and checked against the schema, never the
text the model sent, and answers a call that fails its own check with "Error: Argument parsing
failed." before any body runs (measured on 1.23). So the answer comes from a function middleware
that runs before that check and never calls on: it takes the served argument text by the call's
id (kept from the served replies, and from the session's history after a restart) and gives the
model `ctx.tools.dispatch(name, text)`, unmodified.
"""
from agent_framework import FunctionMiddleware, FunctionTool

from arena_tools.definitions import is_suspend_tool, names_for, spec
from arena_tools.texts import PAUSED_SIBLING_TEXT, decision_text


def _unreachable(name):
    def body(**_arguments):
        # The middleware answers every call; reaching this would mean a re-serialised dict was about to be dispatched.
        raise RuntimeError(f"{name} ran outside the dispatch middleware")

    return body


def function_tools(arena):
    """The arena's tools in registry order, as `FunctionTool`s carrying the canonical declaration."""
    tools = []
    for tool_name in names_for(arena["tools"]):
        declared = spec(tool_name)["function"]
        tools.append(FunctionTool(
            name=tool_name,
            description=declared["description"],
            func=_unreachable(tool_name),
            input_model=declared["parameters"],
            approval_mode="always_require" if is_suspend_tool(tool_name) else "never_require",
        ))
    return tools


class Dispatch(FunctionMiddleware):
    """Answers each call of one leg: the shared dispatch on the served text; on a resume the pause
    call gets the decision text and the calls batched after it the paused-sibling text."""

    def __init__(self, toolbox, served_arguments, decision=None, paused_siblings=()):
        self.toolbox = toolbox
        self.served_arguments = served_arguments
        self.decision = decision
        self.paused_siblings = set(paused_siblings)
        self.tool_calls = []

    async def process(self, context, call_next):
        name = context.function.name
        call_id = context.metadata.get("call_id")
        if is_suspend_tool(name) and self.decision is not None and call_id not in self.paused_siblings:
            context.result = decision_text(self.decision)
            self.decision = None
            return
        if call_id in self.paused_siblings:
            context.result = PAUSED_SIBLING_TEXT
            return
        text = self.served_arguments.get(call_id)
        if text is None:
            raise RuntimeError(f"no served arguments for call {call_id!r} of {name}")
        self.tool_calls.append({"name": name, "arguments": text})
        context.result = self.toolbox.dispatch(name, text)
