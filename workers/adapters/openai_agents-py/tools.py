"""The arena's tools as SDK `FunctionTool`s, from the canonical specs (tools.md §1).

Non-strict, as the TS twin: `strict_json_schema=False` makes the SDK send the canonical schema
dict as is (strict mode would run `ensure_strict_json_schema` on it: `k` forced into `required`,
`additionalProperties: false` added). So the block is the canonical one plus `"strict": false`.

`on_invoke_tool` receives the model's raw argument text, which goes to the shared dispatch
unmodified; its string is the tool message. A pause tool has `needs_approval=True`: the SDK stops
the run with an interruption instead of invoking it. On resume an approval invokes the body below
(the decision text); a denial travels as `rejection_message`, also the decision text. A task call
batched after the pause call in one reply is answered the baseline's paused-sibling text and
never runs (the SDK would run it before the human decides).
"""
from agents import FunctionTool

from arena_tools.definitions import is_control_tool, is_suspend_tool, names_for, spec
from arena_tools.texts import PAUSED_SIBLING_TEXT, decision_text


def _after_pause(batches, call_id):
    """Whether `call_id` came after a pause call in the reply that asked for it."""
    seen_pause = False
    for other_id, other_name in batches.batch_of.get(call_id, ()):
        if other_id == call_id:
            return seen_pause
        if is_suspend_tool(other_name):
            seen_pause = True
    return False


class LegLog:
    """The task calls one leg ran, in order, with the model's own argument text."""

    def __init__(self):
        self.tool_calls = []


def _body(tool_name, toolbox, batches, log):
    if is_suspend_tool(tool_name):
        async def approved(_ctx, _arguments):
            # Only reached after an approval: the canonical pause tool itself never runs.
            return decision_text("approve")
        return approved

    async def invoke(ctx, arguments):
        if _after_pause(batches, ctx.tool_call_id):
            return PAUSED_SIBLING_TEXT
        if not is_control_tool(tool_name):
            log.tool_calls.append({"name": tool_name, "arguments": arguments})
        return toolbox.dispatch(tool_name, arguments)
    return invoke


def arena_tools(declared, toolbox, batches, log):
    """The arena's tools in registry order, each with its canonical name, description and schema."""
    tools = []
    for tool_name in names_for(declared):
        declared_spec = spec(tool_name)["function"]
        tools.append(FunctionTool(
            name=tool_name,
            description=declared_spec["description"],
            params_json_schema=declared_spec["parameters"],
            on_invoke_tool=_body(tool_name, toolbox, batches, log),
            strict_json_schema=False,
            needs_approval=is_suspend_tool(tool_name),
        ))
    return tools
