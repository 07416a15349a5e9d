"""`smolagents-multi`: smolagents' own multi-agent mechanism, `managed_agents`. The lead
ToolCallingAgent (the researcher, with the arena's tools) calls a writer and an editor, each a
ToolCallingAgent of its own that smolagents exposes to the lead as a tool taking `task` (and an
optional `additional_args`). Built only on what index.py exports."""
from arena_tools.texts import PIPELINE_ROLES, stage_prompt

from .index import LegLog, arena_tools, build_model, lib_version, run_leg, tool_calling_agent

name = "smolagents-multi"
delegates = ["writer", "editor"]

__all__ = ["name", "lib_version", "delegates", "wire_exceptions", "build"]

# The lead's role: the pipeline's researcher, who here also hands the brief on, since in smolagents
# a managed agent is only ever reached through a call its manager makes.
LEAD_ROLE = (
    "You are the researcher and the lead on this pipeline. Use the `search` tool to gather the facts the brief needs, "
    "then call the `writer` team member to have the brief drafted from them, then the `editor` team member to have "
    "the draft checked. Reply with the editor's brief and nothing else. Do not write the brief yourself."
)
DESCRIPTIONS = {
    "writer": "Writes the brief from the facts gathered so far; give it the facts and the subject.",
    "editor": "Checks a draft brief against the task and returns the final brief; give it the draft.",
}

wire_exceptions = [
    {"key": "stop", "reason": "Every ToolCallingAgent (the lead and each managed agent) sends stop: [\"Observation:\", \"Calling tools:\"] on every step."},
]


class Runner:
    def __init__(self, arena, config, ctx):
        self.arena, self.config, self.ctx = arena, config, ctx
        self.model = build_model(config)

    def run(self, item):
        log = LegLog(delegates)
        prompt = self.arena["systemPrompt"]
        # Each agent has its own max_steps (smolagents counts steps per agent), so the item's budget
        # bounds each agent's calls, not their sum: README.md, smolagents-multi.
        team = [
            tool_calling_agent(self.model, [], stage_prompt(prompt, PIPELINE_ROLES[role]), self.config, log,
                               name=role, description=DESCRIPTIONS[role])
            for role in delegates
        ]
        lead = tool_calling_agent(self.model, arena_tools(self.arena, self.ctx), stage_prompt(prompt, LEAD_ROLE),
                                  self.config, log, managed_agents=team)
        return run_leg(lead, item["input"], log)


def build(arena, config, ctx):
    return Runner(arena, config, ctx)
