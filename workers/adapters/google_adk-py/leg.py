"""One leg's result, read off the events ADK yielded during it (harness.md §3), as the TS twin's
leg.ts. ADK does not sum usage: each model response's event carries that call's `usage_metadata`
(the model class fills it), so the leg's usage is the sum over the events of this leg — a resumed
leg's events only, never the restored session's.

As in the TS edition, a failure is an event, not an exception: ADK 2.x runs each agent as a
workflow node, and the node runner turns whatever the agent raised — the cap's
`LlmCallsLimitExceededError` (raised before the call that would exceed it), a model error — into an
error event carrying only `error_code` (the exception's class name) and `error_message`
(google/adk/workflow/_node_runner.py). The exception itself is gone; its class name and text are
the leg's error, as the TS twin's keeper plugin makes them. An exception that does escape
`run_async` is handled the same way.
"""
from __future__ import annotations

from arena_tools.definitions import is_control_tool, is_suspend_tool, pause_request_of
from arena_tools.texts import MAX_ITERATIONS_ERROR

from .model import RAW_ARGUMENTS

# The long-running call ADK raises for a tool that asks for confirmation.
CONFIRMATION_CALL = "adk_request_confirmation"


def _text_of(event) -> str:
    parts = event.content.parts if event.content else None
    return "".join(p.text for p in parts or () if isinstance(p.text, str) and not p.thought)


def replies(events):
    """The model's replies among the events: the model class puts usage on every one, nothing else has it."""
    return [e for e in events if e.usage_metadata is not None and not e.partial]


def is_error_event(event) -> bool:
    return event.error_code is not None or event.error_message is not None


def pause_of(events):
    """The confirmation requests a paused leg ends with (their ids) and what the model asked the human."""
    ids, summaries = [], []
    for event in events:
        for part in (event.content.parts or []) if event.content else []:
            call = part.function_call
            if call is None or call.name != CONFIRMATION_CALL or not call.id or call.id not in (event.long_running_tool_ids or set()):
                continue
            ids.append(call.id)
            original = (call.args or {}).get("originalFunctionCall") or {}
            summary = pause_request_of(original.get("args") or {})
            if summary:
                summaries.append(summary)
    return (ids, "\n".join(summaries)) if ids else None


def cap_message(max_calls: int) -> str:
    """ADK's text for this budget's cap (google/adk/agents/invocation_context.py)."""
    return f"Max number of llm calls limit of `{max_calls}` exceeded"


def error_text(code: str, message: str, max_calls: int) -> str:
    """The cap as the baseline's error (recognised by class name and exact text); anything else as `<class>: <text>`."""
    if code == "LlmCallsLimitExceededError" and message == cap_message(max_calls):
        return MAX_ITERATIONS_ERROR
    return f"{code}: {message}"


def summarise(events, failure: BaseException | None, max_calls: int):
    """The leg's result dict, plus the pause (ids, request) when it ended at one."""
    answers = replies(events)
    prompt = completion = 0
    last_text = ""
    tool_calls = []
    for reply in answers:
        prompt += reply.usage_metadata.prompt_token_count or 0
        completion += reply.usage_metadata.candidates_token_count or 0
        last_text = _text_of(reply) or last_text
        for part in (reply.content.parts or []) if reply.content else []:
            call = part.function_call
            if call is None or not call.name or is_suspend_tool(call.name) or is_control_tool(call.name):
                continue
            raw = (part.part_metadata or {}).get(RAW_ARGUMENTS)
            tool_calls.append({"name": call.name, "arguments": raw if isinstance(raw, str) else "{}"})
    result = {"prompt_tokens": prompt, "completion_tokens": completion, "llm_calls": len(answers),
              "tool_calls": tool_calls, "output_text": last_text}
    if failure is not None:
        return {**result, "error": error_text(type(failure).__name__, str(failure), max_calls)}, None
    failed = next((e for e in events if is_error_event(e)), None)
    if failed is not None:
        return {**result, "error": error_text(failed.error_code or "UNKNOWN_ERROR", failed.error_message or "", max_calls)}, None
    pause = pause_of(events)
    if pause is not None:
        return {**result, "suspended": True, "suspend_request": pause[1]}, pause
    return {**result, "output_text": _text_of(answers[-1]) if answers else ""}, None
