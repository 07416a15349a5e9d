"""`langgraph-py`: LangGraph (Python) with langchain-openai's ChatOpenAI, the twin of the TS
`langgraph` adapter: the same graph, routing, cap mapping, usage accounting and pause (README.md)."""
from importlib import metadata

from .runner import build_runner

name = "langgraph-py"

# The distributions that shape the wire or the store, reported with the graph library.
DISTRIBUTIONS = ("langgraph", "langchain-openai", "langchain-core", "langgraph-checkpoint-sqlite")


def lib_version():
    """`langgraph 1.2.22 (langchain-openai 1.7.4, langchain-core 1.8.3, langgraph-checkpoint-sqlite 3.1.2)`."""
    versions = []
    for dist in DISTRIBUTIONS:
        try:
            versions.append(metadata.version(dist))
        except metadata.PackageNotFoundError:
            if dist == DISTRIBUTIONS[0]:
                return "(not installed)"
            versions.append("(not installed)")
    others = ", ".join(f"{d} {v}" for d, v in zip(DISTRIBUTIONS[1:], versions[1:]))
    return f"{DISTRIBUTIONS[0]} {versions[0]} ({others})"


def build(arena, config, ctx):
    return build_runner(arena, config, ctx)
