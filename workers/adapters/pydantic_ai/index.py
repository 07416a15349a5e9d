"""`pydantic_ai`: an `Agent` of pydantic-ai-slim over the gateway's Chat Completions (see README.md)."""
from __future__ import annotations

from importlib import metadata

# The public pieces: what `pydantic_ai-multi` (multi.py) builds on. Importing them needs the
# framework; where it is missing the host reports the adapter not installed (loader.py).
from .model import MAX_RETRIES, chat_model, client_for, model_settings
from .runner import Runner, build_agent, build_runner, describe, last_text, run_leg, usage_of
from .tools import LegLog, arena_tools

__all__ = ["MAX_RETRIES", "LegLog", "Runner", "arena_tools", "build_agent", "build_runner", "chat_model", "client_for",
           "describe", "last_text", "model_settings", "run_leg", "usage_of"]

name = "pydantic_ai"
DISTRIBUTION = "pydantic-ai-slim"


def lib_version() -> str:
    try:
        return f"{DISTRIBUTION} {metadata.version(DISTRIBUTION)}"
    except metadata.PackageNotFoundError:
        return f"{DISTRIBUTION} (not installed)"


def build(arena, config, ctx):
    return build_runner(arena, config, ctx)
