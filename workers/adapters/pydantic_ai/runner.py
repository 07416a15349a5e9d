"""One pydantic_ai `Agent` per arena, run leg by leg.

- The cap is `UsageLimits(request_limit=maxToolIterations)`: pydantic_ai checks it before every
  model request and raises `UsageLimitExceeded` instead of sending request N+1, so a leg makes at
  most N calls; it then ends with `MAX_ITERATIONS_ERROR` and the newest non-empty reply text.
  (`Agent(retries=…)` is the tool/output *validation* retry budget, not a loop cap; left at its
  default of 1.)
- Usage is `AgentRun.usage` (requests, input and output tokens) of this leg's run only: a resumed
  leg is a new run, so its `RunUsage` starts from zero. The run is driven with `Agent.iter`, so
  the figures are read off the same run when it ends by an exception (the cap, a reply pydantic_ai
  cannot use), not only off a finished result.
- A pause ends the run with `DeferredToolRequests` (tools.py); the whole history, as
  `ModelMessagesTypeAdapter` JSON, is the resume state, so a fresh process resumes from it alone
  with `DeferredToolResults`: the pause call answered `decision_text(decision)`, its batched
  siblings `PAUSED_SIBLING_TEXT`.
"""
from __future__ import annotations

import json
from typing import Any

from arena_tools import pause_request_of
from arena_tools.texts import MAX_ITERATIONS_ERROR, PAUSED_SIBLING_TEXT, decision_text
from pydantic_ai import Agent
from pydantic_ai.exceptions import UsageLimitExceeded
from pydantic_ai.messages import ModelMessage, ModelMessagesTypeAdapter, ModelResponse, TextPart
from pydantic_ai.tools import DeferredToolRequests, DeferredToolResults
from pydantic_ai.usage import RunUsage, UsageLimits

from .model import chat_model, model_settings
from .tools import PAUSE, SIBLING, LegLog, arena_tools, raw_arguments


def build_agent(arena: dict, config: dict, toolbox: Any, system_prompt: str | None = None, tools: bool = True) -> Agent:
    agent = Agent(
        chat_model(config),
        output_type=[str, DeferredToolRequests],
        system_prompt=arena["systemPrompt"] if system_prompt is None else system_prompt,
        deps_type=LegLog,
        model_settings=model_settings(config),
        tools=arena_tools(arena, toolbox) if tools else (),
    )
    # Telemetry: off by default (Agent._instrument_default is False); said here so no global
    # `Agent.instrument_all()` elsewhere in the process can turn it on for this agent.
    agent.instrument = False
    return agent


def last_text(messages: list[ModelMessage]) -> str:
    """The newest non-empty reply text among `messages` (a reply's text parts, joined)."""
    text = ""
    for message in messages:
        if isinstance(message, ModelResponse):
            content = "".join(p.content for p in message.parts if isinstance(p, TextPart))
            text = content or text
    return text


def usage_of(usage: RunUsage) -> dict[str, int]:
    return {"prompt_tokens": usage.input_tokens, "completion_tokens": usage.output_tokens, "llm_calls": usage.requests}


def describe(err: BaseException) -> str:
    return f"{type(err).__name__}: {err}"


async def run_leg(agent: Agent, config: dict, prompt: str | None, history: list[ModelMessage] | None = None,
                  results: DeferredToolResults | None = None) -> dict:
    """One leg: until an answer, a pause, the cap or an error; usage from the run in every case."""
    log = LegLog()
    limits = UsageLimits(request_limit=config["maxToolIterations"])
    error: str | None = None
    async with agent.iter(prompt, message_history=history, deferred_tool_results=results, usage_limits=limits, deps=log) as run:
        try:
            async for _node in run:
                pass
        except UsageLimitExceeded:
            error = MAX_ITERATIONS_ERROR
        except Exception as err:  # noqa: BLE001  (a framework failure is the leg's error, with its usage)
            error = describe(err)
        new = run.new_messages()
        out: dict[str, Any] = {"output_text": last_text(new), "tool_calls": log.tool_calls(), **usage_of(run.usage)}
        if error is not None:
            return {**out, "error": error}
        output = run.result.output if run.result is not None else None
        if isinstance(output, DeferredToolRequests):
            return {**out, **suspension(output, run.all_messages())}
        if isinstance(output, str):
            out["output_text"] = output
        return out


def suspension(requests: DeferredToolRequests, messages: list[ModelMessage]) -> dict:
    """The pause: what it asks, and the history plus which deferred call is which, as JSON."""
    role = lambda call: (requests.metadata.get(call.tool_call_id) or {}).get("role")  # noqa: E731
    pauses = [c for c in requests.calls if role(c) == PAUSE]
    if not pauses:
        return {"error": f"paused without a pause call: {[c.tool_name for c in requests.calls + requests.approvals]}"}
    state = {
        "messages": json.loads(ModelMessagesTypeAdapter.dump_json(messages)),
        "pause_id": pauses[0].tool_call_id,
        "sibling_ids": [c.tool_call_id for c in requests.calls if role(c) == SIBLING],
    }
    return {"suspended": True, "suspend_request": pause_request_of(raw_arguments(pauses[0])), "resume_state": state}


def resume_inputs(state: Any, decision: Any) -> tuple[list[ModelMessage], DeferredToolResults] | str:
    """The history and the deferred results a resume continues with, or why it cannot."""
    if not isinstance(state, dict) or not isinstance(state.get("messages"), list) or not isinstance(state.get("pause_id"), str):
        return f"cannot resume: unusable state {type(state).__name__}"
    history = ModelMessagesTypeAdapter.validate_python(state["messages"])
    calls: dict[str, Any] = {state["pause_id"]: decision_text(decision)}
    for sibling in state.get("sibling_ids") or []:
        calls[sibling] = PAUSED_SIBLING_TEXT
    return history, DeferredToolResults(calls=calls)


class Runner:
    def __init__(self, arena: dict, config: dict, ctx: Any) -> None:
        self.config = config
        self.agent = build_agent(arena, config, ctx.tools)

    async def run(self, item: dict) -> dict:
        return await run_leg(self.agent, self.config, item["input"])

    async def resume(self, item: dict, state: Any, decision: Any) -> dict:
        inputs = resume_inputs(state, decision)
        if isinstance(inputs, str):
            return {"error": inputs}
        history, results = inputs
        return await run_leg(self.agent, self.config, None, history, results)


def build_runner(arena: dict, config: dict, ctx: Any) -> Runner:
    return Runner(arena, config, ctx)
