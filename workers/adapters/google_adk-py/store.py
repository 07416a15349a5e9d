"""The durable store, as the TS twin's store.ts: at a pause the session's events are written as one
JSON file into the item's checkpoint directory (harness-owned, the only place an adapter may
write), and a resume in a fresh process appends them to a new `InMemorySessionService` session
before it continues. `resume_state` is only the handle to that file.

`InMemorySessionService` plus one file, not ADK's `SqliteSessionService`: the same store as the
TS edition (so the two compare file for file), one atomic write per pause, and no database
schema of ADK's in the item's folder.
"""
from __future__ import annotations

import json
import os
import re

from google.adk.events.event import Event

FORMAT = "agentic-arena/google_adk-py-session/1"
FILE_PATTERN = re.compile(r"^adk-session-[A-Za-z0-9_.-]+\.json$")


def session_file(session_id: str) -> str:
    return f"adk-session-{session_id}.json"


def save_session(directory: str, session_id: str, events) -> str:
    """Write the events atomically (temp file + rename), so a kill mid-write never leaves half a session."""
    os.makedirs(directory, exist_ok=True)
    name = session_file(session_id)
    tmp = os.path.join(directory, f".{name}.tmp")
    dumped = [e.model_dump(mode="json", by_alias=True, exclude_none=True) for e in events]
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({"format": FORMAT, "session_id": session_id, "events": dumped}, f, ensure_ascii=False, separators=(",", ":"))
    os.replace(tmp, os.path.join(directory, name))
    return name


def load_session(directory: str, handle: dict):
    """The events of a paused run, or why they cannot be had (a string)."""
    if not directory:
        return "this item has no checkpoint directory"
    name = handle["session_file"]
    if not FILE_PATTERN.match(name):
        return f"not a session file name: {json.dumps(name)}"
    path = os.path.join(directory, name)
    if not os.path.isfile(path):
        return f"session file {name} is missing"
    with open(path, encoding="utf-8") as f:
        stored = json.load(f)
    if stored.get("format") != FORMAT or stored.get("session_id") != handle["session_id"] or not isinstance(stored.get("events"), list):
        return f"session file {name} does not hold session {handle['session_id']}"
    if len(stored["events"]) != handle["events"]:
        return f"session {handle['session_id']} has {len(stored['events'])} events, the pause left {handle['events']}"
    return [Event.model_validate(e) for e in stored["events"]]


def parse_handle(state):
    if not isinstance(state, dict):
        return "resume_state is not an object"
    if not isinstance(state.get("session_id"), str) or not state["session_id"]:
        return "resume_state has no session_id"
    if not isinstance(state.get("session_file"), str):
        return "resume_state has no session_file"
    ids = state.get("confirmation_ids")
    if not isinstance(ids, list) or not ids or not all(isinstance(i, str) for i in ids):
        return "resume_state has no confirmation_ids"
    if not isinstance(state.get("events"), int):
        return "resume_state has no event count"
    return state
