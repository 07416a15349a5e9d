"""`openai_agents-py`: one `Agent` on the OpenAI Agents SDK for Python (openai-agents), run by the
SDK's own loop over its Chat Completions model pointed at the gateway. See README.md for how each
shared control is wired and what the SDK could not do. Exports what `openai_agents-py-multi`
(multi.py) builds on."""
from importlib import metadata

from .runner import LegRunner, build_runner

name = "openai_agents-py"

DISTRIBUTION = "openai-agents"

__all__ = ["name", "lib_version", "build", "LegRunner"]


def lib_version():
    """`openai-agents 0.24.0`; `(not installed)` without it (never raises)."""
    try:
        return f"{DISTRIBUTION} {metadata.version(DISTRIBUTION)}"
    except metadata.PackageNotFoundError:
        return "(not installed)"


def build(arena, config, ctx):
    return build_runner(arena, config, ctx)
