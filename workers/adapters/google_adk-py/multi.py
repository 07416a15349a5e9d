"""`google_adk-py-multi`: the researcher → writer → editor pipeline (harness.md §8) as ADK
sub-agents, as the TS twin's multi.ts: a `SequentialAgent` over three `LlmAgent`s, each carrying
the arena prompt plus its role text, only the researcher holding the arena's tools. One
invocation, so one `max_llm_calls` budget covers every stage. Everything else is `google_adk-py`'s."""
from arena_tools.texts import PIPELINE_ROLES, stage_prompt

from .index import chat_model, lib_version, llm_agent  # noqa: F401  (lib_version is read by the host)

name = "google_adk-py-multi"


def build(arena, config, ctx):
    from google.adk.agents import SequentialAgent

    from .runner import Runner
    from .tools import arena_tools

    # One model object (one HTTP client) for the three stages, like the baseline pipeline's one client.
    model = chat_model(config)

    def stage(role, with_tools):
        tools = arena_tools(arena, ctx.tools) if with_tools else []
        return llm_agent(role, stage_prompt(arena["systemPrompt"], PIPELINE_ROLES[role]), config, tools, model)

    root = SequentialAgent(name="pipeline", sub_agents=[stage("researcher", True), stage("writer", False), stage("editor", False)])
    return Runner(config, root, resumable=True)
