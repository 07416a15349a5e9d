"""`smolagents`: Hugging Face smolagents' ToolCallingAgent on the arena's gateway (see README.md).
Exports what the `smolagents-multi` variant (multi.py) builds on."""
from .model import build_model, lib_version
from .runner import LegLog, build_runner, run_leg, tool_calling_agent
from .tools import arena_tools

name = "smolagents"

__all__ = ["name", "lib_version", "wire_exceptions", "build", "LegLog", "arena_tools", "build_model", "run_leg", "tool_calling_agent"]

# Keys smolagents puts in every request beyond the baseline's envelope.
wire_exceptions = [
    {"key": "stop", "reason": "ToolCallingAgent sends stop: [\"Observation:\", \"Calling tools:\"] on every step, so a model that writes its call as text stops before inventing an observation."},
]


def build(arena, config, ctx):
    return build_runner(arena, config, ctx)
