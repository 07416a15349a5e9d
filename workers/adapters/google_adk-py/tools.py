"""The arena's tools as ADK `BaseTool`s carrying the canonical declarations.

A `BaseTool` rather than a `FunctionTool`: a FunctionTool derives its declaration from a Python
signature and hands its body the arguments ADK parsed (and validated), never the text the model
sent. Here `_get_declaration` returns the canonical name, description and JSON Schema
(`parameters_json_schema`, sent as is by model.py), and the body runs the shared `dispatch` on the
arguments string the model sent, read from the function-call part ADK stored in the session
(model.py, RAW_ARGUMENTS).

A pause tool asks for ADK's own tool confirmation (`tool_context.request_confirmation`, what
FunctionTool's `require_confirmation=True` does inside): ADK answers the call with a long-running
`adk_request_confirmation` call and ends the invocation. On resume ADK runs the body again with
the `ToolConfirmation` the decision came back as; the body answers `decision_text(decision)`, the
baseline's text, for an approval and a denial alike (the canonical pause tool never runs).
"""
from __future__ import annotations

import copy
from typing import Any

from google.adk.tools.base_tool import BaseTool
from google.genai import types

from arena_tools.definitions import is_suspend_tool, names_for, spec
from arena_tools.texts import decision_text

from .model import RAW_ARGUMENTS

CONFIRMATION_HINT = "Answer with a ToolConfirmation: confirmed, and the decision in payload.decision."


def raw_arguments(tool_context) -> str | None:
    """The arguments string of the call `tool_context` is running, from the call's part in the session."""
    call_id = tool_context.function_call_id
    if not call_id:
        return None
    for event in reversed(tool_context.session.events):
        for part in (event.content.parts or []) if event.content else []:
            if part.function_call and part.function_call.id == call_id:
                raw = (part.part_metadata or {}).get(RAW_ARGUMENTS)
                if isinstance(raw, str):
                    return raw
    return None


class ArenaTool(BaseTool):
    def __init__(self, name: str, toolbox):
        declared = spec(name)["function"]
        super().__init__(name=name, description=declared["description"])
        # A private copy: ADK may lower-case schema types in place on some paths; the canonical spec stays untouched.
        self._parameters = copy.deepcopy(declared["parameters"])
        self._toolbox = toolbox

    def _get_declaration(self) -> types.FunctionDeclaration:
        return types.FunctionDeclaration(name=self.name, description=self.description, parameters_json_schema=self._parameters)

    async def run_async(self, *, args: dict[str, Any], tool_context) -> Any:
        text = raw_arguments(tool_context)
        if text is None:
            raise RuntimeError(f"no served arguments for call {tool_context.function_call_id!r} of {self.name}")
        return self._toolbox.dispatch(self.name, text)


class PauseTool(ArenaTool):
    async def run_async(self, *, args: dict[str, Any], tool_context) -> Any:
        confirmation = tool_context.tool_confirmation
        if confirmation is None:
            tool_context.request_confirmation(hint=CONFIRMATION_HINT)
            # No summarising model call after the pause: the invocation ends with the request.
            tool_context.actions.skip_summarization = True
            return {"pending": "confirmation requested"}
        payload = confirmation.payload if isinstance(confirmation.payload, dict) else {}
        decision = payload.get("decision", "approve" if confirmation.confirmed else "deny")
        return decision_text(decision)


def arena_tools(arena, toolbox) -> list[BaseTool]:
    return [(PauseTool if is_suspend_tool(n) else ArenaTool)(n, toolbox) for n in names_for(arena["tools"])]
