"""`pydantic_ai`: an `Agent` of pydantic-ai-slim over the gateway's Chat Completions (see README.md)."""
from __future__ import annotations

from importlib import metadata

name = "pydantic_ai"
DISTRIBUTION = "pydantic-ai-slim"


def lib_version() -> str:
    try:
        return f"{DISTRIBUTION} {metadata.version(DISTRIBUTION)}"
    except metadata.PackageNotFoundError:
        return f"{DISTRIBUTION} (not installed)"


def build(arena, config, ctx):
    # Imported here, so lib_version answers "(not installed)" where the framework is missing.
    from .runner import build_runner

    return build_runner(arena, config, ctx)
