"""JSON as the TS baseline's wire has it: `JSON.stringify` to write a request body, `JSON.parse` to
read a reply, so both baselines put the same bytes on the wire and read the same values off it.

Python's `json` differs from them in four ways that reach the bytes: `", "`/`": "` separators,
`\\uXXXX` for every non-ASCII character, a float written `0.0` or `1e-07` where JavaScript writes
`0` and `1e-7`, and a lone surrogate written raw (then unencodable) where JavaScript escapes it.
`dumps` writes what `JSON.stringify` writes; `loads` reads numbers as JavaScript does (a double,
so an integer past 2^53 rounds, `NaN`/`Infinity` refused) so a value re-written (a tool call's
non-string `arguments`) comes out as the TS baseline writes it.
"""
import json
import math
import re

# Exactly the integers a double holds without rounding: JSON.parse keeps them as they are.
_SAFE = 2**53
# A surrogate not part of a pair: JSON.stringify (well-formed) writes it as an escape.
_LONE = re.compile("[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]")


def _string(s):
    text = json.dumps(s, ensure_ascii=False)
    return _LONE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


def _digits(x):
    """The shortest round-trip digits of |x| > 0 and n, with |x| = 0.d1d2… × 10^n (as ECMA-262 Number::toString)."""
    mantissa, _, exp = repr(abs(x)).partition("e")
    whole, _, frac = mantissa.partition(".")
    every = whole + frac
    stripped = every.lstrip("0")
    point = len(whole) + int(exp or 0) - (len(every) - len(stripped))
    return stripped.rstrip("0"), point


def number(x):
    """`JSON.stringify` of a number: integers exact within 2^53, anything else through the double it is."""
    if isinstance(x, int) and abs(x) <= _SAFE:
        return str(x)
    try:
        x = float(x)
    except OverflowError:
        return "null"
    if not math.isfinite(x):
        return "null"
    if x == 0:
        return "0"
    sign = "-" if x < 0 else ""
    d, n = _digits(x)
    k = len(d)
    if k <= n <= 21:
        return sign + d + "0" * (n - k)
    if 0 < n <= 21:
        return sign + d[:n] + "." + d[n:]
    if -6 < n <= 0:
        return sign + "0." + "0" * -n + d
    e = n - 1
    exp = f"e{'+' if e >= 0 else '-'}{abs(e)}"
    return sign + (d if k == 1 else d[0] + "." + d[1:]) + exp


def dumps(value):
    """`JSON.stringify(value)` for JSON values (dict keys in insertion order, as JS objects keep them)."""
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, (int, float)):
        return number(value)
    if isinstance(value, dict):
        return "{" + ",".join(f"{_string(str(k))}:{dumps(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "[" + ",".join(dumps(v) for v in value) + "]"
    raise TypeError(f"{type(value).__name__} is not JSON")


def _refuse(name):
    raise ValueError(f"Unexpected token {name} in JSON")


def _int(text):
    n = int(text)
    return n if abs(n) <= _SAFE else float(text)


def loads(text):
    """`JSON.parse(text)`: numbers as the doubles JavaScript reads, no `NaN` or `Infinity`."""
    return json.loads(text, parse_int=_int, parse_constant=_refuse)
