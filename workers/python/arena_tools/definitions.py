"""The canonical tool definitions, read from definitions.json.

That file is written from the TypeScript definitions in contract/tools/ by
`node scripts/tool-definitions.ts`; nothing here restates a name, a description or a parameter.
The advertised spec of each tool is derived from the data the same way contract/tools/specs.ts
derives it, so `json.dumps(spec(name))` is the canonical text of shared spec tools.md section 1.
"""

from __future__ import annotations

import json
import os

from .values import parse_int_text

# Types for readers and checkers only: importing `typing` would cost every worker's start several
# milliseconds (a checker reads a module-level TYPE_CHECKING = False as typing's own).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# A path as text: pathlib would cost every start urllib.parse and ipaddress.
DEFINITIONS_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "definitions.json")

with open(DEFINITIONS_FILE, encoding="utf-8") as _f:
    _DATA: dict[str, Any] = json.load(_f)

TOOLS: dict[str, dict[str, Any]] = {tool["name"]: tool for tool in _DATA["tools"]}
"""Every canonical tool by name, in registry (= advertised) order."""

TOOL_NAMES: tuple[str, ...] = tuple(TOOLS)
SUSPEND_TOOLS: tuple[str, ...] = tuple(n for n, t in TOOLS.items() if t["pause_request"] is not None)
CONTROL_TOOLS: tuple[str, ...] = tuple(_DATA["control_tools"])
HANDOFF_PREFIX: str = _DATA["handoff_prefix"]
ROOMS: tuple[dict[str, Any], ...] = tuple(_DATA["rooms"])


def spec(name: str) -> dict[str, Any]:
    """The Chat Completions declaration of one tool, keys in the canonical order at every level."""
    tool = TOOLS[name]
    properties: dict[str, Any] = {}
    for p in tool["parameters"]:
        schema: dict[str, Any] = {"type": p["type"], "description": p["description"]}
        if "default" in p:
            schema["default"] = p["default"]
        properties[p["name"]] = schema
    required = [p["name"] for p in tool["parameters"] if p["required"]]
    return {
        "type": "function",
        "function": {
            "name": tool["name"],
            "description": tool["description"],
            "parameters": {"type": "object", "properties": properties, "required": required},
        },
    }


def names_for(declared: list[str] | None = None) -> list[str]:
    """Registry names present in `declared`, in registry order; nothing declared means every tool."""
    if not declared:
        return list(TOOL_NAMES)
    wanted = set(declared)
    return [name for name in TOOL_NAMES if name in wanted]


def specs_for(declared: list[str] | None = None) -> list[dict[str, Any]]:
    return [spec(name) for name in names_for(declared)]


def is_suspend_tool(name: str) -> bool:
    return name in SUSPEND_TOOLS


_PAUSE_REQUESTS: tuple[str, ...] = tuple(TOOLS[n]["pause_request"] for n in SUSPEND_TOOLS)


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def pause_request_of(args: Any) -> str:
    """What a pause call asks the human (the result's `suspend_request`), as contract/tools/registry.ts reads it.

    The first request argument (`summary`, then `note`) the call carries with a value that is not
    null, if that value is a string; else "". Text is read as strict JSON, the way the TypeScript
    side's `JSON.parse` reads it: `NaN` or `Infinity` in the text means it asks nothing.
    """
    parsed = args
    if isinstance(args, str):
        try:
            # Integers of any length, as JSON.parse reads them (values.py: CPython's digit limit).
            parsed = json.loads(args, parse_constant=_reject_constant, parse_int=parse_int_text)
        except (ValueError, RecursionError):
            return ""
    if not isinstance(parsed, dict):
        return ""
    for key in _PAUSE_REQUESTS:
        value = parsed.get(key)
        if value is not None:
            return value if isinstance(value, str) else ""
    return ""


def is_control_tool(name: str, delegates: tuple[str, ...] | list[str] = ()) -> bool:
    """Names that grant no task capability (tools.md section 8): a fixed list, one prefix, declared delegates."""
    return name in CONTROL_TOOLS or name.startswith(HANDOFF_PREFIX) or name in delegates
