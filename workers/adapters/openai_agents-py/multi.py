"""`openai_agents-py-multi`: the researcher → writer → editor pipeline as real SDK handoffs (the
variant for `multi_agent`, as the TS twin's multi.ts). Each stage is its own `Agent` with the arena
prompt plus a role text; only the researcher holds the arena's tools; the SDK advertises each
handoff as a `transfer_to_<agent>` tool and carries the whole conversation across it. One run, so
one `max_turns` budget covers every stage, as in the `vanilla-multi` baseline. Built only on what
index.py exports."""
from agents import Agent

from arena_tools.texts import PIPELINE_ROLES, stage_prompt

from . import index
from .model import chat_model, model_settings
from .tools import arena_tools

name = "openai_agents-py-multi"
lib_version = index.lib_version

# The TS twin's role texts (workers/adapters/openai_agents/multi.ts `ROLES`; the test checks they
# are equal): a handoff needs each stage told whom it hands off to. The editor's is the shared one.
ROLES = {
    "researcher": "You are the researcher on this pipeline. Use the `search` tool to gather the facts the brief needs, then hand off to the writer. Do not write the brief yourself.",
    "writer": "You are the writer on this pipeline. Using only the facts already gathered above, write the brief, then hand off to the editor.",
    "editor": PIPELINE_ROLES["editor"],
}


def pipeline(arena, config, ctx):
    """`make_agent` for the pipeline: three stages on one model object (one client), like the
    baseline pipeline's one client; the researcher is where the run (and a RunState) starts."""
    def make(batches, log):
        model = chat_model(config, batches)

        def stage(role, **extra):
            return Agent(name=role, instructions=stage_prompt(arena["systemPrompt"], ROLES[role]),
                         model=model, model_settings=model_settings(config), **extra)

        editor = stage("editor")
        writer = stage("writer", handoffs=[editor])
        researcher = stage("researcher", tools=arena_tools(arena["tools"], ctx.tools, batches, log), handoffs=[writer])
        return researcher, model
    return make


def build(arena, config, ctx):
    return index.LegRunner(config, pipeline(arena, config, ctx))
