"""The baseline's tools: the canonical specs of the arena's tools, sent unmodified (tools.md §1–§2),
and every call run through the shared `dispatch` with its arguments exactly as received."""
from arena_tools.definitions import specs_for


def arena_tools(arena):
    return specs_for(arena["tools"])


def tool_message(tools, call):
    """Run one call; its result string, unmodified, is the tool message the transcript gets."""
    return {"role": "tool", "tool_call_id": call["id"], "content": tools.dispatch(call["name"], call["arguments"])}
