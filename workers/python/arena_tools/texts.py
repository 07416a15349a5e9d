"""The contract's texts an adapter puts on the wire or in a result (contract/texts.ts), read from
definitions.json like the tools, so a Python adapter and the witness that recognises them cannot
drift apart."""

from __future__ import annotations

import json

from .definitions import DEFINITIONS_FILE

TYPE_CHECKING = False  # typing is for checkers only (definitions.py says why)
if TYPE_CHECKING:
    from typing import Any

with open(DEFINITIONS_FILE, encoding="utf-8") as _f:
    _TEXTS: dict[str, Any] = json.load(_f)["texts"]

MAX_ITERATIONS_ERROR: str = _TEXTS["max_iterations_error"]
"""A leg's `error` when it spent its whole budget."""

PAUSED_SIBLING_TEXT: str = _TEXTS["paused_sibling_text"]
"""What a call batched after a pause call is answered with: it never runs."""

PIPELINE_ROLES: dict[str, str] = dict(_TEXTS["pipeline_roles"])
"""The researcher → writer → editor stage instructions, by role."""

_DECISION_TEMPLATE: str = _TEXTS["decision_template"]


def decision_text(decision: Any) -> str:
    """What the model reads as a pause call's result: `Decision: approve.` (a non-string is JSON, as JSON.stringify writes it)."""
    text = decision if isinstance(decision, str) else json.dumps(decision, separators=(",", ":"), ensure_ascii=False)
    return _DECISION_TEMPLATE.replace("{decision}", text, 1)


def stage_prompt(system_prompt: str, role: str) -> str:
    """A pipeline stage's system message: the arena prompt, a blank line, the stage's role text."""
    return f"{system_prompt}\n\n{role}"
