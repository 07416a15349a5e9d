"""Run and resume on ADK's own `Runner`, as the TS twin's runner.ts: one invocation per leg over an
in-memory session, the cap as `RunConfig(max_llm_calls=maxToolIterations)` (counted per
invocation, so every leg gets the full budget, as the baseline's does), and the pause as a tool
confirmation answered with a function response. At a pause the session's events go to the item's
checkpoint directory (store.py); a resume in any process rebuilds the session from them.
"""
from __future__ import annotations

import re
import uuid

from google.adk.agents.run_config import RunConfig
from google.adk.runners import Runner as AdkRunner
from google.adk.sessions import InMemorySessionService
from google.genai import types

from .leg import CONFIRMATION_CALL, is_error_event, summarise
from .store import load_session, parse_handle, save_session

APP = "agentic-arena"
USER = "arena"


def session_id_for(item_id: str) -> str:
    return f"{re.sub(r'[^A-Za-z0-9_.-]', '_', item_id)[:64]}-{uuid.uuid4()}"


class Runner:
    def __init__(self, config, root, resumable=False):
        self.config, self.root, self.resumable = config, root, resumable

    def _adk_runner(self, sessions):
        if not self.resumable:
            return AdkRunner(app_name=APP, agent=self.root, session_service=sessions)
        from google.adk.apps import App, ResumabilityConfig

        app = App(name=APP, root_agent=self.root, resumability_config=ResumabilityConfig(is_resumable=True))
        return AdkRunner(app=app, session_service=sessions)

    async def _leg(self, item, session_id, restored, message):
        sessions = InMemorySessionService()
        session = await sessions.create_session(app_name=APP, user_id=USER, session_id=session_id)
        for event in restored:
            await sessions.append_event(session, event)
        runner = self._adk_runner(sessions)
        run_config = RunConfig(max_llm_calls=self.config["maxToolIterations"])
        events, failure = [], None
        try:
            async for event in runner.run_async(user_id=USER, session_id=session_id, new_message=message, run_config=run_config):
                events.append(event)
                # An error event is the leg's end, as an exception would be (ADK may go on past one).
                if is_error_event(event):
                    break
        except Exception as err:  # noqa: BLE001  (ADK raises the cap and model errors; usage so far is kept)
            failure = err
        finally:
            await runner.close()
        result, pause = summarise(events, failure, self.config["maxToolIterations"])
        if pause is None:
            return result
        if not item["checkpointDir"]:
            return {**result, "suspended": False, "error": "cannot pause: this item has no checkpoint directory"}
        stored = (await sessions.get_session(app_name=APP, user_id=USER, session_id=session_id)).events
        handle = {"session_id": session_id, "session_file": save_session(item["checkpointDir"], session_id, stored),
                  "confirmation_ids": pause[0], "events": len(stored)}
        return {**result, "resume_state": handle}

    async def run(self, item):
        message = types.Content(role="user", parts=[types.Part(text=item["input"])])
        return await self._leg(item, session_id_for(item["id"]), [], message)

    async def resume(self, item, state, decision):
        handle = parse_handle(state)
        if isinstance(handle, str):
            return {"error": f"cannot resume: {handle}"}
        events = load_session(item["checkpointDir"], handle)
        if isinstance(events, str):
            return {"error": f"cannot resume: {events}"}
        # The decision is the confirmation's answer (and its payload, which the pause tool answers with).
        parts = [types.Part(function_response=types.FunctionResponse(
            id=cid, name=CONFIRMATION_CALL,
            response={"confirmed": decision == "approve", "payload": {"decision": decision}})) for cid in handle["confirmation_ids"]]
        return await self._leg(item, handle["session_id"], events, types.Content(role="user", parts=parts))
