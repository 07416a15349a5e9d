"""`smolagents`: Hugging Face smolagents' ToolCallingAgent on the arena's gateway (see README.md)."""
from .model import lib_version
from .runner import build_runner

name = "smolagents"

__all__ = ["name", "lib_version", "build"]


def build(arena, config, ctx):
    return build_runner(arena, config, ctx)

# Keys smolagents puts in every request beyond the baseline's envelope.
wire_exceptions = [
    {"key": "stop", "reason": "ToolCallingAgent sends stop: [\"Observation:\", \"Calling tools:\"] on every step, so a model that writes its call as text stops before inventing an observation."},
]
