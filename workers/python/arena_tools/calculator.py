"""The `calculator` tool (shared spec tools.md section 4): CPython's own parser, float arithmetic.

The text is parsed by `ast.parse(expr, mode="eval")` and a small arithmetic subset is evaluated
with Python floats, so every operator, every error text and every syntax message is CPython's.
Nothing is ever looked up, called or compiled to code.

Two limits of the reference process depend on how deep its call stack was when the tool ran, not
on the expression; the TypeScript twin fixes them as numbers, and so does this module, so a result
never depends on who called it:

- converting the parsed tree to Python objects fails past 2,985 levels (CPython allows three times
  the recursion limit, less what the reference's stack already used);
- evaluation fails past 995 levels (the recursion limit of 1,000, less the reference's frames).
"""

from __future__ import annotations

import ast
import re
import warnings

# Types for readers and checkers only: importing `typing` would cost every worker's start several
# milliseconds (a checker reads a module-level TYPE_CHECKING = False as typing's own).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

from .values import Headroom

AST_DEPTH_LIMIT = 2985
EVAL_DEPTH_LIMIT = 995

# CPython's parser stops at 6,000 levels of its own stack, so a tree it builds is shallower than
# this; the conversion must have room for any of them while this module does the counting.
_PARSE_HEADROOM = 2200
_EVAL_HEADROOM = EVAL_DEPTH_LIMIT + 100

# Singletons that the tree conversion does not descend into (they carry no depth).
_LEAVES = (ast.expr_context, ast.operator, ast.unaryop, ast.cmpop, ast.boolop)

_BINARY = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
    ast.FloorDiv: lambda a, b: a // b,
    ast.Mod: lambda a, b: a % b,
    ast.Pow: lambda a, b: a**b,
}


def _tree_depth(root: ast.AST) -> int:
    """The deepest chain of nodes the tree conversion walks (a leaf counts 1), found without recursion."""
    deepest = 0
    stack: list[tuple[ast.AST, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        deepest = max(deepest, depth)
        for _, value in ast.iter_fields(node):
            children = value if isinstance(value, list) else [value]
            for child in children:
                if isinstance(child, ast.AST) and not isinstance(child, _LEAVES):
                    stack.append((child, depth + 1))
    return deepest


_NUMBER_END = re.compile(r"invalid (decimal|hexadecimal|octal|binary|imaginary) literal")
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _split_after_number(expr: str, err: SyntaxError) -> str | None:
    """`expr` with a space where an older CPython 3.11 refused a number for the non-ASCII character after it.

    Earlier 3.11 releases (3.11.2, which Debian ships) read any character from U+0080 on as part of a misspelt number ("invalid decimal
    literal"); later ones end the number there and read the character as the next token, which is
    what the TypeScript twin does. A space at that point gives the same tokens on every 3.11, so the
    answer does not depend on which patch release a host installed. None when the error is another.
    """
    if not _NUMBER_END.fullmatch(err.msg or "") or err.lineno is None or err.offset is None:
        return None
    starts = [0] + [m.end() for m in _LINE_BREAK.finditer(expr)]
    if err.lineno > len(starts):
        return None
    at = starts[err.lineno - 1] + err.offset  # offset is the number's last character, 1-based
    if at >= len(expr) or ord(expr[at]) < 0x80:
        return None
    return expr[:at] + " " + expr[at:]


def _parse_text(expr: str) -> ast.Expression:
    text = expr
    # Each pass removes one such number end; the bound only guards against a parser that never settles.
    for _ in range(len(expr) + 1):
        try:
            return ast.parse(text, mode="eval")
        except SyntaxError as err:
            split = _split_after_number(text, err)
            if split is None:
                raise
            text = split
    return ast.parse(text, mode="eval")


def _parse(expr: str) -> ast.expr:
    with warnings.catch_warnings():
        # A warning (an invalid escape, say) must not become an error under a host's -W filter.
        warnings.simplefilter("ignore")
        with Headroom(_PARSE_HEADROOM):
            tree = _parse_text(expr)
    # Every node but the Expression wrapper and a lambda's `arguments` spends at least one
    # character of the text, so a short text cannot be deep: only a long one is walked.
    if 2 * len(expr) + 2 > AST_DEPTH_LIMIT and _tree_depth(tree) > AST_DEPTH_LIMIT:
        raise RecursionError("maximum recursion depth exceeded during ast construction")
    return tree.body


def _evaluate(node: ast.AST, depth: int) -> Any:
    if depth > EVAL_DEPTH_LIMIT:
        raise RecursionError("maximum recursion depth exceeded")
    if isinstance(node, ast.Constant):
        value = node.value
        if isinstance(value, (int, float)):  # bool is an int: True is 1.0
            return float(value)
        raise ValueError(f"unsupported constant: {value!r}")
    if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
        left = _evaluate(node.left, depth + 1)
        right = _evaluate(node.right, depth + 1)
        return _BINARY[type(node.op)](left, right)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        return -_evaluate(node.operand, depth + 1)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.UAdd):
        return _evaluate(node.operand, depth + 1)
    raise ValueError("unsupported expression")


def calculator(expr: str) -> str:
    """Evaluate `expr`; a result that is not a finite real raises, as the reference's does."""
    try:
        body = _parse(expr)
        with Headroom(_EVAL_HEADROOM):
            # The Expression node is depth 1, its body depth 2.
            value = _evaluate(body, 2)
    except Exception as err:  # every parse or evaluation failure is the tool's answer
        return f"ERROR: could not evaluate {expr!r} ({err})"
    # Outside the handler on purpose: inf, nan and complex raise here, as in the reference.
    return str(int(value)) if value == int(value) else f"{value:.6g}"
