"""The arena's canonical tools as pydantic_ai `Tool`s.

Each tool is built from the canonical definition (`arena_tools.spec`): its name, its full
description and its exact parameters schema, handed to pydantic_ai as the tool's JSON schema with
an accept-anything validator (what `Tool.from_schema` does), and `strict=False`, so the OpenAI
model neither adds `"strict": true` nor runs its strict-schema transformer: the tools block goes on
the wire byte for byte as the baseline sends it. (`Tool.from_schema` cannot take `strict`, so the
`Tool` is built directly with the same function schema `from_schema` would make.)

A body runs `ctx.tools.dispatch(name, <arguments>)` on the arguments text exactly as the model
sent it: pydantic_ai keeps a Chat Completions call's arguments as the raw string on the call's
`ToolCallPart` (it parses a copy to validate), and the run context names the call being run, so
the body reads the raw text off that part. pydantic_ai's own parse still comes first: what it
refuses never reaches the body (README, Findings).

Pauses are pydantic_ai's deferred tools: a suspend tool's body raises `CallDeferred`, so the run
ends with `DeferredToolRequests` instead of running it; a call the model batched after the pause
call in the same response is deferred too, so it does not run before the human decides (the
baseline's rule: it is answered `PAUSED_SIBLING_TEXT` on resume).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from arena_tools import is_suspend_tool, names_for, spec
from pydantic_ai import RunContext, Tool
from pydantic_ai._function_schema import FunctionSchema
from pydantic_ai.exceptions import CallDeferred
from pydantic_ai.messages import ModelResponse, ToolCallPart
from pydantic_core import SchemaValidator, core_schema

# What a deferred call's metadata says it is, read back when the run ends paused.
PAUSE = "pause"
SIBLING = "sibling"


@dataclass
class LegLog:
    """A run's deps: the task calls its tools ran, in the order the model sent them."""

    calls: list[tuple[tuple[int, int], str, str]] = field(default_factory=list)

    def tool_calls(self) -> list[dict[str, str]]:
        return [{"name": name, "arguments": args} for _, name, args in sorted(self.calls)]


def _call_of(ctx: RunContext[Any]) -> tuple[tuple[int, int], ToolCallPart, list[ToolCallPart]]:
    """The call being run: its position in the history, its part, and the calls of its response."""
    for m_index in range(len(ctx.messages) - 1, -1, -1):
        message = ctx.messages[m_index]
        if not isinstance(message, ModelResponse):
            continue
        calls = [p for p in message.parts if isinstance(p, ToolCallPart)]
        for p_index, part in enumerate(calls):
            if part.tool_call_id == ctx.tool_call_id:
                return (m_index, p_index), part, calls
    raise LookupError(f"tool call {ctx.tool_call_id!r} is not in the run's history")


def raw_arguments(part: ToolCallPart) -> str:
    """The arguments text as the model sent it (a history loaded back from JSON keeps it a string too)."""
    if isinstance(part.args, str):
        return part.args
    return json.dumps(part.args if part.args is not None else {})


def _as_object(value: Any) -> dict[str, Any]:
    # The body reads the raw text and the canonical tool judges it, so nothing is refused here. But
    # pydantic_ai calls the function as `function(ctx, **validated)`: with `from_schema`'s
    # any-schema validator, arguments of `null` or an array reach that call and end the run
    # (AssertionError, TypeError) before any tool runs. A non-object becomes {} for that call only.
    return value if isinstance(value, dict) else {}


_ANY_OBJECT = SchemaValidator(schema=core_schema.no_info_plain_validator_function(_as_object))


def _tool(name: str, toolbox: Any) -> Tool[LegLog]:
    function = spec(name)["function"]

    async def body(ctx: RunContext[LegLog], **_validated: Any) -> str:
        position, part, calls = _call_of(ctx)
        if is_suspend_tool(name):
            raise CallDeferred(metadata={"role": PAUSE})
        before = calls[: position[1]]
        if any(is_suspend_tool(c.tool_name) for c in before):
            raise CallDeferred(metadata={"role": SIBLING})
        args = raw_arguments(part)
        ctx.deps.calls.append((position, name, args))
        return toolbox.dispatch(name, args)

    schema = FunctionSchema(
        function=body,
        name=name,
        description=function["description"],
        validator=_ANY_OBJECT,
        json_schema=function["parameters"],
        takes_ctx=True,
        is_async=True,
    )
    return Tool(body, takes_ctx=True, name=name, description=function["description"], function_schema=schema, strict=False)


def arena_tools(arena: dict, toolbox: Any) -> list[Tool[LegLog]]:
    """The arena's tools in registry order, the order the baseline advertises them in."""
    return [_tool(name, toolbox) for name in names_for(arena.get("tools"))]
