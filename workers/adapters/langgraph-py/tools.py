"""The arena's canonical tools as LangChain `StructuredTool`s for LangGraph's prebuilt `ToolNode`.

Each tool carries the canonical name, full description and parameter schema; the schema is a
dict, which langchain-core 1.8 sends verbatim (`convert_to_openai_tool`) and does not validate
arguments against (`BaseTool._parse_input` returns a dict input unchanged for a dict schema; the
TS edition's `tool()` does validate, see README Findings). A task tool's body answers with
`ctx.tools.dispatch(name, <the arguments text the model sent>)`; a suspend tool calls
LangGraph's `interrupt()` instead.

The body finds the served text through the `ToolRuntime` the ToolNode injects (a parameter named
`runtime`, found by its annotation): the call's id, and the graph state whose replies keep their
served tool calls (model.py) — so the same lookup works in a resumed leg in a fresh process.
"""
import copy
import json

from langchain_core.messages import AIMessage
from langchain_core.tools import StructuredTool
from langgraph.prebuilt import ToolRuntime
from langgraph.types import interrupt

from arena_tools.definitions import is_suspend_tool, names_for, pause_request_of, spec
from arena_tools.texts import decision_text


def served_arguments(messages, call_id):
    """The arguments text the model sent for `call_id`, from the replies in `messages` (None if absent)."""
    for message in reversed(messages or ()):
        if not isinstance(message, AIMessage):
            continue
        for call in message.additional_kwargs.get("tool_calls") or ():
            if call.get("id") == call_id and isinstance((call.get("function") or {}).get("arguments"), str):
                return call["function"]["arguments"]
    return None


def _text_of(runtime, parsed):
    text = served_arguments((runtime.state or {}).get("messages"), runtime.tool_call_id)
    # Unreachable on a ChatOpenAI reply (model.py keeps every served call); the parsed dict is the fallback.
    return text if text is not None else json.dumps(parsed, ensure_ascii=False)


def _task_body(name, toolbox, executed):
    def body(runtime: ToolRuntime, **parsed):
        text = _text_of(runtime, parsed)
        executed.append({"id": runtime.tool_call_id, "name": name, "arguments": text})
        return toolbox.dispatch(name, text)

    return body


def _pause_body(name):
    def body(runtime: ToolRuntime, **parsed):
        # First pass: interrupt() raises GraphInterrupt and the graph stops with its checkpoint saved.
        # On Command(resume=decision) the tools step re-runs, interrupt() returns the decision, and
        # the model reads it worded as the baseline words it.
        decision = interrupt({"tool": name, "summary": pause_request_of(_text_of(runtime, parsed))})
        return decision_text(decision)

    return body


def canonical_tools(arena, toolbox, executed):
    """One StructuredTool per advertised name, in registry order; `executed` logs every task-tool run."""
    tools = []
    for tool_name in names_for(arena["tools"]):
        declared = spec(tool_name)["function"]
        body = _pause_body(tool_name) if is_suspend_tool(tool_name) else _task_body(tool_name, toolbox, executed)
        tools.append(StructuredTool(
            name=tool_name,
            description=declared["description"],
            # A private copy: the canonical definitions are shared by every leg of the worker.
            args_schema=copy.deepcopy(declared["parameters"]),
            func=body,
        ))
    return tools
