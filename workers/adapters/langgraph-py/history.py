"""One leg's result, read off the graph's message history (harness.md §3), as the TS twin reads it.

LangGraph does not sum usage: each AIMessage carries its own call's `usage_metadata`, so a leg's
usage is the sum over the AI messages that appeared during this leg — found by message id against
the history the leg started from, never by position. (Python ChatOpenAI replies get the run's id,
`lc_run--<uuid>-0`, never the completion id, so the TS edition's fresh-id repair is not needed:
a server repeating completion ids cannot make the reducer overwrite a reply.)
"""
import json

from langchain_core.messages import AIMessage, ToolMessage

from arena_tools.definitions import is_suspend_tool

from .tools import served_arguments


def message_text(message):
    content = message.content
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(p.get("text", "") for p in content if isinstance(p, dict) and p.get("type") == "text")
    return ""


def reply_usage(message):
    usage = getattr(message, "usage_metadata", None) or {}
    return int(usage.get("input_tokens") or 0), int(usage.get("output_tokens") or 0)


def summarise_leg(messages, before, executed=()):
    """Usage, answered tool calls and the newest reply text of the messages not in `before` (ids).

    `tool_calls` lists every call this leg answered — executed, or refused by the ToolNode before
    it ran (unknown name) — plus any execution whose answer never reached the history: the
    ToolNode runs a turn's calls together, and when one interrupts the whole step is discarded
    and re-run on resume, so a sibling of the suspend call really runs twice.
    """
    fresh = [m for m in messages if m.id is None or m.id not in before]
    calls_by_id = {}
    for m in messages:
        if isinstance(m, AIMessage):
            for c in m.tool_calls or ():
                if c.get("id"):
                    calls_by_id[c["id"]] = c
    prompt = completion = calls = 0
    last = ""
    tool_calls, invalid = [], []
    for m in fresh:
        if isinstance(m, AIMessage):
            p, c = reply_usage(m)
            calls += 1
            prompt += p
            completion += c
            last = message_text(m) or last
            for bad in m.invalid_tool_calls or ():
                invalid.append({"name": bad.get("name") or "", "arguments": bad.get("args") or "", "error": bad.get("error") or ""})
        elif isinstance(m, ToolMessage):
            call = calls_by_id.get(m.tool_call_id) or {}
            name = call.get("name") or m.name or ""
            if is_suspend_tool(name):
                continue
            text = served_arguments(messages, m.tool_call_id)
            tool_calls.append({"name": name, "arguments": text if text is not None else json.dumps(call.get("args") or {})})
    answered = {m.tool_call_id for m in fresh if isinstance(m, ToolMessage)}
    # The sync ToolNode runs a turn's calls on a thread pool, so the log's order is the threads';
    # report the unanswered executions in the order the model asked for them.
    position = {call_id: n for n, call_id in enumerate(calls_by_id)}
    unanswered = [e for e in executed if e["id"] is None or e["id"] not in answered]
    for e in sorted(unanswered, key=lambda e: position.get(e["id"], len(position))):
        tool_calls.append({"name": e["name"], "arguments": e["arguments"]})
    return {"tool_calls": tool_calls, "prompt_tokens": prompt, "completion_tokens": completion,
            "llm_calls": calls, "last_content": last, "invalid_tool_calls": invalid}
