"""Python's own coercions, with the one place the TypeScript tools part from stock CPython 3.11.

The TypeScript twin (packages/py-semantics) has no integer digit limit: CPython 3.11 refuses to
convert an int of more than 4,300 decimal digits to or from text (sys.get_int_max_str_digits), and
truncates the repr in `int()`'s "invalid literal" message to 200 characters. The harness's witness
recomputes every tool result with the TypeScript code, so a result here must equal that one: ints
go through `decimal` (exact, no digit limit) and the messages are built in full. Everything else
is CPython's own behaviour. The digit limit is left alone; the one interpreter setting touched is
the recursion limit, raised for the length of one call and restored (`Headroom`): V8 nests
thousands of levels where CPython's default of 1,000 frames would stop first.
"""

from __future__ import annotations

import json
import re
import sys

TYPE_CHECKING = False  # typing is for checkers only (definitions.py says why)
if TYPE_CHECKING:
    from typing import Any

# int()'s base-10 grammar once stripped: \d is any Unicode decimal digit, as int() accepts.
_INT_LITERAL = re.compile(r"[+-]?\d(?:_?\d)*\Z")
_SMALL = 4000  # comfortably under CPython's default limit of 4,300 digits
_SMALL_BOUND = 10**_SMALL


def int_text(n: int) -> str:
    """`str(n)` without the digit limit."""
    if -_SMALL_BOUND < n < _SMALL_BOUND:
        return str(n)
    return str(_decimal()(n))


def parse_int_text(digits: str) -> int:
    return int(digits) if len(digits) <= _SMALL else int(_decimal()(digits))


def _decimal() -> type:
    """`decimal.Decimal`, imported by the first integer past the digit limit: no tool call in a
    normal run has one, and importing decimal would cost every worker's start."""
    from decimal import Decimal  # noqa: PLC0415

    return Decimal


def loads(text: str) -> Any:
    """`json.loads`, reading integers of any length."""
    return json.loads(text, parse_int=parse_int_text)


def py_repr(v: Any) -> str:
    """`repr()` of a JSON value, ints of any length included."""
    if isinstance(v, bool) or v is None or isinstance(v, (float, str)):
        return repr(v)
    if isinstance(v, int):
        return int_text(v)
    if isinstance(v, list):
        return "[" + ", ".join(py_repr(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{" + ", ".join(f"{k!r}: {py_repr(x)}" for k, x in v.items()) + "}"
    return repr(v)


def py_str(v: Any) -> str:
    """`str()` of a JSON value: a string is itself, anything else its repr."""
    return v if isinstance(v, str) else py_repr(v)


def py_int(v: Any) -> int:
    """`int(v)` of a JSON value, with CPython's messages (in full) and no digit limit."""
    if isinstance(v, str):
        literal = v.strip()
        if _INT_LITERAL.match(literal):
            sign = -1 if literal[0] == "-" else 1
            body = literal.lstrip("+-").replace("_", "")
            ascii_digits = "".join(str(int(ch)) for ch in body) if not body.isascii() else body
            return sign * parse_int_text(ascii_digits)
        raise ValueError(f"invalid literal for int() with base 10: {v!r}")
    if isinstance(v, (bool, int, float)):
        return int(v)
    raise TypeError(f"int() argument must be a string, a bytes-like object or a real number, not '{type(v).__name__}'")


class Headroom:
    """Raise the recursion limit to at least `extra` frames above the caller for a block, then restore it.

    The limit is per interpreter, not per thread. A worker runs one tool call at a time; two blocks
    overlapping on different threads could restore out of order and leave the other with the
    default limit, which costs only depth (a RecursionError on absurdly nested arguments).
    """

    def __init__(self, extra: int) -> None:
        self.extra = extra
        self.saved = 0

    def __enter__(self) -> None:
        self.saved = sys.getrecursionlimit()
        depth = 0
        frame = sys._getframe()
        while frame is not None:
            depth += 1
            frame = frame.f_back
        sys.setrecursionlimit(max(self.saved, depth + self.extra))

    def __exit__(self, *exc: object) -> None:
        sys.setrecursionlimit(self.saved)
