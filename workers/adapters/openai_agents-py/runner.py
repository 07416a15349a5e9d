"""One leg on the SDK's own loop (`Runner.run`), turned into the harness's result dict: the cap as
`max_turns`, per-leg usage, the task calls, the pause (a tool-approval interruption) and the
serialised `RunState`.

The cap. The SDK counts turns (model calls) over the whole run and raises `MaxTurnsExceeded` when
the next one would exceed `max_turns`, so `max_turns = maxToolIterations` allows exactly that many
calls on a first leg. On a resume `Runner.run` ignores its `max_turns` argument and takes both the
limit and the turn counter from the restored state (agents/run.py, 0.24.0), which would leave a
resumed leg only what leg 1 did not spend; the adapter sets the restored state's limit to its turn
counter plus the budget, so every leg gets the full budget, as the TS twin does.

Usage is the SDK's aggregate (`context_wrapper.usage`). A restored state carries the whole run's
aggregate, so a resumed leg reports it minus what the state held when it was restored.
"""
import json
import traceback

from agents import Agent, MaxTurnsExceeded, RunConfig, RunState, Runner
from agents.exceptions import AgentsException

from arena_tools.definitions import pause_request_of
from arena_tools.texts import MAX_ITERATIONS_ERROR, decision_text

from .model import BatchLog, chat_model, model_settings
from .tools import LegLog, arena_tools

# The agent's name is part of the serialised RunState: a resume must rebuild the same agent.
AGENT_NAME = "assistant"
RUN_CONFIG = RunConfig(tracing_disabled=True)


def _usage(usage):
    return [usage.input_tokens, usage.output_tokens, usage.requests] if usage is not None else [0, 0, 0]


def _leg_usage(before, after):
    prompt, completion, calls = (a - b for a, b in zip(after, before))
    return {"prompt_tokens": prompt, "completion_tokens": completion, "llm_calls": calls}


def _text_of(item):
    if getattr(item, "type", None) != "message_output_item":
        return ""
    parts = getattr(item.raw_item, "content", None) or ()
    return "".join(getattr(p, "text", "") or "" for p in parts if getattr(p, "type", None) == "output_text")


def _last_text(items):
    """The last non-empty assistant text among `items` (the baseline's last content)."""
    for item in reversed(items or ()):
        text = _text_of(item)
        if text:
            return text
    return ""


def _error_text(err):
    if isinstance(err, MaxTurnsExceeded):
        return MAX_ITERATIONS_ERROR
    return f"{type(err).__name__}: {err}"


class LegRunner:
    """The harness's runner over one starting agent (a pipeline's first stage)."""

    def __init__(self, config, make_agent):
        self.config = config
        # `make_agent(batches, log)` builds the agent graph for one leg, with its own logs.
        self.make_agent = make_agent

    async def _drive(self, agent, model, log, start, before, items_before):
        served_before = list(model.served)
        try:
            if isinstance(start, RunState):
                result = await Runner.run(agent, start, run_config=RUN_CONFIG)
            else:
                result = await Runner.run(agent, start, max_turns=self.config["maxToolIterations"], run_config=RUN_CONFIG)
        except Exception as err:  # noqa: BLE001  (the cap, an unknown tool, transport after the retries)
            data = getattr(err, "run_data", None) if isinstance(err, AgentsException) else None
            if data is not None:
                usage = _leg_usage(before, _usage(data.context_wrapper.usage))
                text = _last_text(data.new_items[items_before:])
            else:
                usage = _leg_usage(served_before, model.served)
                text = ""
            return {"output_text": text, "tool_calls": log.tool_calls, **usage, "error": _error_text(err),
                    "raw": {"error": _error_text(err), "stack": traceback.format_exc()}}
        usage = _leg_usage(before, _usage(result.context_wrapper.usage))
        if result.interruptions:
            pause = result.interruptions[0]
            return {"output_text": _last_text(result.new_items), "tool_calls": log.tool_calls, **usage,
                    "suspended": True, "suspend_request": pause_request_of(pause.raw_item.arguments),
                    # The SDK's own serialisation, a JSON object as it is.
                    "resume_state": result.to_state().to_json()}
        final = result.final_output
        text = final if isinstance(final, str) else "" if final is None else json.dumps(final)
        return {"output_text": text, "tool_calls": log.tool_calls, **usage}

    async def run(self, item):
        batches, log = BatchLog(), LegLog()
        agent, model = self.make_agent(batches, log)
        return await self._drive(agent, model, log, item["input"], [0, 0, 0], 0)

    async def resume(self, item, state, decision):
        if not isinstance(state, dict):
            return {"error": f"cannot resume: unusable state {type(state).__name__}"}
        batches, log = BatchLog(), LegLog()
        agent, model = self.make_agent(batches, log)
        restored = await RunState.from_json(agent, state)
        pending = restored.get_interruptions()
        if not pending:
            return {"error": "cannot resume: the run state has no pending approval"}
        for approval in pending:
            if decision == "approve":
                restored.approve(approval)
            else:
                restored.reject(approval, rejection_message=decision_text(decision))
        # A full budget for this leg (the SDK would count on from the state's turn counter).
        restored._max_turns = restored._current_turn + self.config["maxToolIterations"]
        before = _usage(restored._context.usage if restored._context is not None else None)
        return await self._drive(agent, model, log, restored, before, len(restored._generated_items))


def single_agent(arena, config, ctx):
    """`make_agent` for the one-agent adapter: the arena prompt verbatim, the canonical tools."""
    def make(batches, log):
        model = chat_model(config, batches)
        agent = Agent(
            name=AGENT_NAME,
            instructions=arena["systemPrompt"],
            model=model,
            model_settings=model_settings(config),
            tools=arena_tools(arena["tools"], ctx.tools, batches, log),
        )
        return agent, model
    return make


def build_runner(arena, config, ctx):
    return LegRunner(config, single_agent(arena, config, ctx))
