"""One tool call, run as the reference runs it (shared spec tools.md section 3).

Every outcome, a broken call included, is a string for the model: nothing here raises. The
bodies receive `args.get(name, fallback)` per declared parameter (the declared default, else ""
for a string and 0 for an integer); coercion is each body's own, as in the reference.
"""

from __future__ import annotations

from .calculator import calculator
from .definitions import TOOLS
from .rooms import book_room, search_rooms
from .search import Entry, search
from .values import Headroom, loads, py_int, py_str

TYPE_CHECKING = False  # typing is for checkers only (definitions.py says why)
if TYPE_CHECKING:
    from typing import Any, Callable

# Room for nested arguments: V8 parses and prints thousands of levels where CPython's default
# limit of 1,000 frames would already stop (json.loads and repr recurse once or twice a level).
_NESTING_HEADROOM = 3000


class ToolEnv:
    """What a body may need beyond its arguments: the corpus, and the boundary arena's policy fixture."""

    def __init__(self, corpus: tuple[Entry, ...], boundary: Callable[[str], str] | None = None) -> None:
        self.corpus = corpus
        self.boundary = boundary


def _boundary_action(a: dict[str, Any], env: ToolEnv) -> str:
    text = py_str(a["action"])
    return env.boundary(text) if env.boundary else "ERROR: boundary fixture is not configured"


_BODIES: dict[str, Callable[[dict[str, Any], ToolEnv], str]] = {
    "boundary_action": _boundary_action,
    "search": lambda a, env: search(env.corpus, py_str(a["query"]), py_int(a["k"])),
    "calculator": lambda a, env: calculator(py_str(a["expr"])),
    # int(args.get("capacity", 0) or 0): absent, null, 0, "" and false all mean 0.
    "search_rooms": lambda a, env: search_rooms(py_int(a["capacity"] or 0), py_str(a["day"])),
    "request_approval": lambda a, env: f"NOT APPROVED - the agent did not pause for a decision on: {py_str(a['summary'])}",
    "save_progress": lambda a, env: f"NOT CHECKPOINTED - the adapter did not suspend at: {py_str(a['note'])}",
    "book_room": lambda a, env: book_room(py_str(a["room_id"])),
}

if set(_BODIES) != set(TOOLS):  # a definition without a body, or a body without a definition
    raise ImportError(f"tool bodies {sorted(_BODIES)} do not match the definitions {sorted(TOOLS)}")


def _arguments(name: str, args: Any) -> dict[str, Any] | str:
    """Steps 1 and 2: JSON text is parsed; anything that is not an object counts as {}."""
    if isinstance(args, str):
        try:
            with Headroom(_NESTING_HEADROOM):
                args = loads(args) if args != "" else {}
        except (ValueError, RecursionError):
            return f"ERROR: tool arguments for {name!r} were not valid JSON"
    return args if isinstance(args, dict) else {}


def _fallback(parameter: dict[str, Any]) -> Any:
    if "default" in parameter:
        return parameter["default"]
    return 0 if parameter["type"] == "integer" else ""


def dispatch(name: str, args: Any, env: ToolEnv) -> str:
    """`args` is the JSON text a model sent, or an already parsed value."""
    parsed = _arguments(name, args)
    if isinstance(parsed, str):
        return parsed
    tool = TOOLS.get(name)
    if tool is None:
        return f"ERROR: unknown tool {name!r}"
    values = {p["name"]: parsed[p["name"]] if p["name"] in parsed else _fallback(p) for p in tool["parameters"]}
    try:
        with Headroom(_NESTING_HEADROOM):
            return _BODIES[name](values, env)
    except Exception as err:  # the model must be able to recover from any failing call
        return f"ERROR: tool {name!r} raised {err}"
