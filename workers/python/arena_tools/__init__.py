"""The canonical tools in Python: definitions exported from contract/tools/, bodies byte-equal to the TypeScript ones."""

from .calculator import calculator
from .definitions import (
    CONTROL_TOOLS,
    HANDOFF_PREFIX,
    ROOMS,
    SUSPEND_TOOLS,
    TOOL_NAMES,
    TOOLS,
    is_control_tool,
    is_suspend_tool,
    names_for,
    pause_request_of,
    spec,
    specs_for,
)
from .dispatch import ToolEnv, dispatch
from .rooms import book_room, search_rooms
from .search import DEFAULT_CORPUS_PATH, CorpusError, load_corpus, search

__all__ = [
    "CONTROL_TOOLS",
    "DEFAULT_CORPUS_PATH",
    "HANDOFF_PREFIX",
    "ROOMS",
    "SUSPEND_TOOLS",
    "TOOL_NAMES",
    "TOOLS",
    "CorpusError",
    "ToolEnv",
    "book_room",
    "calculator",
    "dispatch",
    "is_control_tool",
    "is_suspend_tool",
    "load_corpus",
    "names_for",
    "pause_request_of",
    "search",
    "search_rooms",
    "spec",
    "specs_for",
]
