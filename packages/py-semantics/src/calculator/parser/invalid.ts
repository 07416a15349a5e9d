/**
 * CPython 3.11's second-pass `invalid_*` rules reachable from an expression: after a plain parse
 * fails, CPython parses again with these active to turn "invalid syntax" into a specific message
 * ("Perhaps you forgot a comma?", "expected 'else' after 'if' expression", ...). Each either
 * raises or fails without consuming input.
 */
import { exprName, invalidForTarget as findInvalidForTarget, type Expr } from "../ast.ts";
import { args, type Arguments } from "./arguments.ts";
import { forIfClauses, genexp, kvpair } from "./atoms.ts";
import {
  bitwiseOr,
  disjunction,
  expression,
  expressionWithoutInvalid,
  starExpressions,
  starNamedExpression,
  starNamedExpressions,
  starredExpression,
} from "./expressions.ts";
import { RULE, type Parser } from "./state.ts";
import { SOFT_KEYWORDS } from "../tokens.ts";

/** Run one alternative; whatever it did not raise, it must not consume. */
function attempt(p: Parser, alternative: () => void): void {
  const start = p.pos;
  alternative();
  p.pos = start;
}

function isLegacyCall(e: Expr): boolean {
  return e.type === "Name" && (e.id === "print" || e.id === "exec");
}

/**
 * invalid_expression:
 *   !(NAME STRING | SOFT_KEYWORD) a=disjunction b=expression_without_invalid  → forgot a comma (inside brackets)
 *   a=disjunction 'if' b=disjunction !('else'|':')                            → expected 'else'
 */
export function invalidExpression(p: Parser): void {
  attempt(p, () => {
    const t = p.peek();
    if (p.isName()) {
      if (p.tokenAt(p.pos + 1).type === "STRING") return;
      if (SOFT_KEYWORDS.has(t.text)) return;
    }
    const a = disjunction(p);
    if (!a) return;
    const b = expressionWithoutInvalid(p);
    if (!b || isLegacyCall(a) || p.previous().level === 0) return;
    p.raiseAt(a.line, "invalid syntax. Perhaps you forgot a comma?");
  });
  attempt(p, () => {
    const a = disjunction(p);
    if (!a || !p.expectKeyword("if") || !disjunction(p)) return;
    if (p.isKeyword("else") || p.isOp(":")) return;
    p.raiseAt(a.line, "expected 'else' after 'if' expression");
  });
}

/** invalid_legacy_expression: a=NAME !'(' b=star_expressions → `print x` */
export function invalidLegacyExpression(p: Parser): void {
  attempt(p, () => {
    const name = p.expectName();
    if (!name || p.isOp("(") || !starExpressions(p)) return;
    const id = name.text.normalize("NFKC");
    if (id === "print" || id === "exec") {
      p.raiseAt(name.line, `Missing parentheses in call to '${id}'. Did you mean ${id}(...)?`);
    }
  });
}

const isAssignOrWalrus = (p: Parser): boolean => p.isOp("=") || p.isOp(":=");

/**
 * invalid_named_expression:
 *   a=expression ':=' expression
 *   a=NAME '=' b=bitwise_or !('='|':=')
 *   !(list|tuple|genexp|'True'|'None'|'False') a=bitwise_or b='=' bitwise_or !('='|':=')
 */
export function invalidNamedExpression(p: Parser): void {
  const start = p.pos;
  const hit = p.memoGet<Expr>(RULE.invalidNamedExpression);
  if (!p.isMiss(hit)) return;
  attempt(p, () => {
    const a = expression(p);
    if (a && p.expectOp(":=") && expression(p)) {
      p.raiseAt(a.line, `cannot use assignment expressions with ${exprName(a)}`);
    }
  });
  attempt(p, () => {
    const name = p.expectName();
    if (name && p.expectOp("=") && bitwiseOr(p) && !isAssignOrWalrus(p)) {
      p.raiseAt(name.line, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
    }
  });
  attempt(p, () => {
    if (startsWithDisplayOrConstant(p)) return;
    const a = bitwiseOr(p);
    if (a && p.expectOp("=") && bitwiseOr(p) && !isAssignOrWalrus(p)) {
      p.raiseAt(a.line, `cannot assign to ${exprName(a)} here. Maybe you meant '==' instead of '='?`);
    }
  });
  p.memoSet(RULE.invalidNamedExpression, start, null);
}

/** The lookahead `&(list | tuple | genexp | 'True' | 'None' | 'False')`. */
function startsWithDisplayOrConstant(p: Parser): boolean {
  const start = p.pos;
  const found =
    (p.isOp("[") && closedSequence(p, "[", "]")) ||
    (p.isOp("(") && closedSequence(p, "(", ")")) ||
    genexp(p) !== null ||
    ((p.pos = start), p.isKeyword("True") || p.isKeyword("None") || p.isKeyword("False"));
  p.pos = start;
  return found;
}

/** list: '[' [star_named_expressions] ']'; tuple: '(' [star_named_expression ',' [...]] ')' */
function closedSequence(p: Parser, open: string, close: string): boolean {
  const start = p.pos;
  p.expectOp(open);
  if (open === "(") {
    const first = starNamedExpression(p);
    if (first && p.expectOp(",")) starNamedExpressions(p);
    else p.pos = start + 1;
  } else starNamedExpressions(p);
  const ok = p.expectOp(close) !== null;
  p.pos = start;
  return ok;
}

/**
 * invalid_group:
 *   '(' a=starred_expression ')'  → cannot use starred expression here
 *   '(' a='**' expression ')'     → cannot use double starred expression here
 */
export function invalidGroup(p: Parser): void {
  attempt(p, () => {
    if (!p.expectOp("(")) return;
    const a = starredExpression(p);
    if (a && p.expectOp(")")) p.raiseAt(a.line, "cannot use starred expression here");
  });
  attempt(p, () => {
    if (!p.expectOp("(")) return;
    const a = p.expectOp("**");
    if (a && expression(p) && p.expectOp(")")) p.raiseAt(a.line, "cannot use double starred expression here");
  });
}

/**
 * invalid_comprehension:
 *   ('[' | '(' | '{') a=starred_expression for_if_clauses
 *   ('[' | '{') a=star_named_expression ',' b=star_named_expressions for_if_clauses
 *   ('[' | '{') a=star_named_expression b=',' for_if_clauses
 */
export function invalidComprehension(p: Parser): void {
  attempt(p, () => {
    if (!(p.expectOp("[") ?? p.expectOp("(") ?? p.expectOp("{"))) return;
    const a = starredExpression(p);
    if (a && forIfClauses(p)) p.raiseAt(a.line, "iterable unpacking cannot be used in comprehension");
  });
  const forgotParentheses = "did you forget parentheses around the comprehension target?";
  attempt(p, () => {
    if (!(p.expectOp("[") ?? p.expectOp("{"))) return;
    const a = starNamedExpression(p);
    if (a && p.expectOp(",") && starNamedExpressions(p) && forIfClauses(p)) p.raiseAt(a.line, forgotParentheses);
  });
  attempt(p, () => {
    if (!(p.expectOp("[") ?? p.expectOp("{"))) return;
    const a = starNamedExpression(p);
    if (a && p.expectOp(",") && forIfClauses(p)) p.raiseAt(a.line, forgotParentheses);
  });
}

/** invalid_dict_comprehension: '{' a='**' bitwise_or for_if_clauses '}' */
export function invalidDictComprehension(p: Parser): void {
  attempt(p, () => {
    if (!p.expectOp("{")) return;
    const a = p.expectOp("**");
    if (a && bitwiseOr(p) && forIfClauses(p) && p.expectOp("}")) {
      p.raiseAt(a.line, "dict unpacking cannot be used in dict comprehension");
    }
  });
}

/**
 * invalid_double_starred_kvpairs (after the '{'):
 *   ','.double_starred_kvpair+ ',' invalid_kvpair
 *   expression ':' a='*' bitwise_or
 *   expression a=':' &('}'|',')
 */
export function invalidDoubleStarredKvpairs(p: Parser): void {
  attempt(p, () => {
    if (!doubleStarredKvpairGather(p) || !p.expectOp(",")) return;
    invalidKvpair(p);
  });
  starredValueOrMissingValue(p);
}

/** ','.double_starred_kvpair+ without the optional trailing comma. */
function doubleStarredKvpairGather(p: Parser): boolean {
  const item = (): boolean => {
    const start = p.pos;
    if (p.expectOp("**") && bitwiseOr(p)) return true;
    p.pos = start;
    return kvpair(p) !== null;
  };
  if (!item()) return false;
  for (;;) {
    const mark = p.pos;
    if (!p.expectOp(",") || !item()) {
      p.pos = mark;
      return true;
    }
  }
}

/**
 * invalid_kvpair:
 *   a=expression !(':')
 *   expression ':' a='*' bitwise_or
 *   expression a=':' &('}'|',')
 */
function invalidKvpair(p: Parser): void {
  attempt(p, () => {
    const a = expression(p);
    if (a && !p.isOp(":")) p.raiseAt(a.line, "':' expected after dictionary key");
  });
  starredValueOrMissingValue(p);
}

function starredValueOrMissingValue(p: Parser): void {
  attempt(p, () => {
    if (!expression(p) || !p.expectOp(":")) return;
    const a = p.expectOp("*");
    if (a && bitwiseOr(p)) p.raiseAt(a.line, "cannot use a starred expression in a dictionary value");
  });
  attempt(p, () => {
    if (!expression(p)) return;
    const a = p.expectOp(":");
    if (a && (p.isOp("}") || p.isOp(","))) p.raiseAt(a.line, "expression expected after dictionary key and ':'");
  });
}

/** invalid_for_target: ASYNC? 'for' a=star_expressions → cannot assign to <the first bad part> */
export function invalidForTarget(p: Parser): void {
  attempt(p, () => {
    p.expectKeyword("async");
    if (!p.expectKeyword("for")) return;
    const targets = starExpressions(p);
    const bad = targets && findInvalidForTarget(targets);
    if (bad) p.raiseAt(bad.line, `cannot assign to ${exprName(bad)}`);
  });
}

/**
 * invalid_arguments:
 *   a=args ',' '*'
 *   a=expression b=for_if_clauses ',' [args | expression for_if_clauses]
 *   a=NAME b='=' expression for_if_clauses
 *   a=args b=for_if_clauses
 *   args ',' a=expression b=for_if_clauses
 *   a=args ',' args
 */
export function invalidArguments(p: Parser): void {
  attempt(p, () => {
    const a = args(p);
    if (a && p.expectOp(",") && p.expectOp("*")) {
      p.raiseAt(a.line, "iterable argument unpacking follows keyword argument unpacking");
    }
  });
  const parenthesize = "Generator expression must be parenthesized";
  attempt(p, () => {
    const a = expression(p);
    if (!a || !forIfClauses(p) || !p.expectOp(",")) return;
    // The optional tail [args | expression for_if_clauses] is parsed before the error is raised.
    const mark = p.pos;
    if (!args(p)) {
      p.pos = mark;
      if (!(expression(p) && forIfClauses(p))) p.pos = mark;
    }
    p.raiseAt(a.line, parenthesize);
  });
  attempt(p, () => {
    const name = p.expectName();
    if (name && p.expectOp("=") && expression(p) && forIfClauses(p)) {
      p.raiseAt(name.line, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
    }
  });
  attempt(p, () => {
    const a = args(p);
    if (a && forIfClauses(p) && a.positional.length > 1) {
      p.raiseAt(a.positional[a.positional.length - 1]!.line, parenthesize);
    }
  });
  attempt(p, () => {
    if (!args(p) || !p.expectOp(",")) return;
    const a = expression(p);
    if (a && forIfClauses(p)) p.raiseAt(a.line, parenthesize);
  });
  attempt(p, () => {
    const a = args(p);
    if (a && p.expectOp(",") && args(p)) p.raiseHere(positionalAfterKeyword(a));
  });
}

function positionalAfterKeyword(a: Arguments): string {
  return a.keywords.some((k) => k.name === null)
    ? "positional argument follows keyword argument unpacking"
    : "positional argument follows keyword argument";
}

/**
 * invalid_kwarg:
 *   a=('True'|'False'|'None') b='='
 *   a=NAME b='=' expression for_if_clauses
 *   !(NAME '=') a=expression b='='
 */
export function invalidKwarg(p: Parser): void {
  attempt(p, () => {
    const t = p.peek();
    if (t.type !== "NAME" || !(t.text === "True" || t.text === "False" || t.text === "None")) return;
    p.pos++;
    if (p.expectOp("=")) p.raiseAt(t.line, `cannot assign to ${t.text}`);
  });
  attempt(p, () => {
    const name = p.expectName();
    if (name && p.expectOp("=") && expression(p) && forIfClauses(p)) {
      p.raiseAt(name.line, "invalid syntax. Maybe you meant '==' or ':=' instead of '='?");
    }
  });
  attempt(p, () => {
    const start = p.pos;
    const name = p.expectName();
    const namedEquals = name !== null && p.isOp("=");
    p.pos = start;
    if (namedEquals) return;
    const a = expression(p);
    if (a && p.expectOp("=")) {
      p.raiseAt(a.line, 'expression cannot contain assignment, perhaps you meant "=="?');
    }
  });
}
