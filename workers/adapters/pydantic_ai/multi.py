"""`pydantic_ai-multi`: the researcher → writer → editor pipeline (harness.md section 8) as three
pydantic_ai agents run one after another over one message history: pydantic_ai's "programmatic
hand-off", the framework's own pattern for a fixed sequence of agents (it has no handoff or
delegation primitive; agent-as-tool would add a tool call and a second conversation per stage,
which the baseline pipeline does not have). See README.md, "pydantic_ai-multi".

- Each stage is an `Agent` whose `instructions` are `stage_prompt(<arena prompt>, <role text>)`:
  pydantic_ai sends an agent's instructions as the system message of each of its requests and
  keeps them out of the history, so the next stage reads the same history under its own system
  message, as the baseline's stages do.
- Only the researcher has the arena's tools; the writer and the editor are run with the history
  ending in the previous stage's reply and no new prompt, so their request is exactly
  `[<their system message>] + history`.
- One budget for the item: every stage's run gets the same `RunUsage` (pydantic_ai's way to share
  usage between agents) and `UsageLimits(request_limit=maxToolIterations)`, so the limit counts
  the calls of the whole pipeline; a stage starts only while calls remain.
"""
from __future__ import annotations

from typing import Any

from arena_tools.texts import MAX_ITERATIONS_ERROR, PIPELINE_ROLES, stage_prompt
from pydantic_ai import Agent
from pydantic_ai.exceptions import UsageLimitExceeded
from pydantic_ai.usage import RunUsage, UsageLimits

# Only what the parent's index.py exports, as a variant must (workers/adapters/README.md).
from .index import LegLog, arena_tools, chat_model, describe, last_text, lib_version, model_settings, usage_of

__all__ = ["build", "lib_version", "name"]

name = "pydantic_ai-multi"


def _stage(arena: dict, config: dict, role: str, tools: list) -> Agent:
    agent = Agent(
        chat_model(config),
        instructions=stage_prompt(arena["systemPrompt"], PIPELINE_ROLES[role]),
        deps_type=LegLog,
        model_settings=model_settings(config),
        tools=tools,
    )
    agent.instrument = False
    return agent


class Pipeline:
    def __init__(self, arena: dict, config: dict, ctx: Any) -> None:
        self.config = config
        self.stages = [
            _stage(arena, config, "researcher", arena_tools(arena, ctx.tools)),
            _stage(arena, config, "writer", []),
            _stage(arena, config, "editor", []),
        ]

    async def run(self, item: dict) -> dict:
        usage, log, history = RunUsage(), LegLog(), []
        limits = UsageLimits(request_limit=self.config["maxToolIterations"])
        for index, agent in enumerate(self.stages):
            if index > 0 and usage.requests >= limits.request_limit:
                break  # the baseline's rule: writer and editor run only while calls remain
            prompt = item["input"] if index == 0 else None
            async with agent.iter(prompt, message_history=history, usage=usage, usage_limits=limits, deps=log) as run:
                try:
                    async for _node in run:
                        pass
                except UsageLimitExceeded:
                    return self.result(run.all_messages(), log, usage, MAX_ITERATIONS_ERROR)
                except Exception as err:  # noqa: BLE001  (a framework failure is the item's error, with its usage)
                    return self.result(run.all_messages(), log, usage, describe(err))
                history = run.all_messages()
        return self.result(history, log, usage, None)

    @staticmethod
    def result(messages: list, log: LegLog, usage: RunUsage, error: str | None) -> dict:
        out = {"output_text": last_text(messages), "tool_calls": log.tool_calls(), **usage_of(usage)}
        return {**out, "error": error} if error else out


def build(arena, config, ctx):
    return Pipeline(arena, config, ctx)
