"""`microsoft_af-multi`: the researcher → writer → editor pipeline (harness.md §8) as three `Agent`s
taking turns on one `AgentSession`, the framework's own conversation state: each agent has its
stage prompt as instructions, the session's history provider replays everything said so far to
the next one, and one budget of `maxToolIterations` calls covers the whole item. Only the
researcher has tools. (agent-framework-core 1.23 ships the workflow engine; its SequentialBuilder
lives in the separate agent-framework-orchestrations package, which this adapter does not need.)"""
from agent_framework import Agent, AgentSession

from arena_tools.texts import MAX_ITERATIONS_ERROR, PIPELINE_ROLES, stage_prompt

from . import index
from .model import chat_client
from .runner import Served
from .tools import Dispatch, function_tools

name = "microsoft_af-multi"
lib_version = index.lib_version


class Pipeline:
    def __init__(self, arena, config, ctx):
        self.arena, self.config, self.ctx = arena, config, ctx

    def _agent(self, role, middleware, tools):
        client, http = chat_client(self.config, self.config["maxToolIterations"])
        agent = Agent(
            client=client,
            name=role,
            instructions=stage_prompt(self.arena["systemPrompt"], PIPELINE_ROLES[role]),
            tools=tools,
            default_options={"temperature": self.config["temperature"]},
            middleware=middleware,
        )
        return agent, http

    async def run(self, item):
        served_arguments = {}
        served = Served(self.config["maxToolIterations"], served_arguments)
        dispatch = Dispatch(self.ctx.tools, served_arguments)
        session = AgentSession()
        prompt, completion = 0, 0
        stages = [("researcher", item["input"], function_tools(self.arena)), ("writer", None, None), ("editor", None, None)]
        for role, message, tools in stages:
            # The budget is the item's: a stage that would start with nothing left never runs.
            if served.calls >= self.config["maxToolIterations"]:
                break
            agent, http = self._agent(role, [served, dispatch], tools)
            try:
                response = await agent.run(message, session=session)
            finally:
                await http.close()
            usage = response.usage_details or {}
            prompt += usage.get("input_token_count") or 0
            completion += usage.get("output_token_count") or 0
            if served.capped:
                break
        result = {"output_text": served.last_text, "tool_calls": dispatch.tool_calls,
                  "prompt_tokens": prompt, "completion_tokens": completion, "llm_calls": served.calls}
        return {**result, "error": MAX_ITERATIONS_ERROR} if served.capped else result


def build(arena, config, ctx):
    return Pipeline(arena, config, ctx)
