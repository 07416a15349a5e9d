"""`microsoft_af`: Microsoft Agent Framework (agent-framework-core + agent-framework-openai), an
`Agent` over the Chat Completions client, pointed at the harness's gateway (see README.md)."""
from importlib import metadata

from .runner import build_runner

name = "microsoft_af"

DISTRIBUTIONS = ("agent-framework-core", "agent-framework-openai")


def lib_version():
    """`agent-framework-core 1.23.0 + agent-framework-openai 1.17.0`; the two ship apart and both shape the wire."""
    parts = []
    for dist in DISTRIBUTIONS:
        try:
            parts.append(f"{dist} {metadata.version(dist)}")
        except metadata.PackageNotFoundError:
            return "(not installed)"
    return " + ".join(parts)


def build(arena, config, ctx):
    return build_runner(arena, config, ctx)
