/** Atoms: names, literals, bracketed displays, comprehensions and subscripts (Python 3.11 grammar). */
import { constant, depthOf, opaque, sequence, type Expr } from "../ast.ts";
import { literal } from "./literal-atoms.ts";
import {
  assignmentExpression,
  bitwiseOr,
  disjunction,
  expression,
  expressionNotWalrus,
  namedExpression,
  starNamedExpression,
  starNamedExpressions,
  starredExpression,
  yieldExpr,
} from "./expressions.ts";
import {
  invalidComprehension,
  invalidDictComprehension,
  invalidDoubleStarredKvpairs,
  invalidForTarget,
  invalidGroup,
} from "./invalid.ts";
import type { Parser } from "./state.ts";
import { starTargets } from "./targets.ts";

export function atom(p: Parser): Expr | null {
  const t = p.peek();
  if (t.type === "NAME") {
    if (t.text === "True" || t.text === "False" || t.text === "None") {
      p.pos++;
      const value = t.text === "None" ? ({ kind: "None" } as const) : ({ kind: "bool", value: t.text === "True" } as const);
      return constant(value, t.line);
    }
    if (!p.isName()) return null;
    p.pos++;
    // Identifiers are NFKC-normalised by CPython (so `ｐｒｉｎｔ` is `print`).
    return { type: "Name", id: t.text.normalize("NFKC"), line: t.line, depth: 1 };
  }
  if (t.type === "STRING" || t.type === "NUMBER") return literal(p);
  if (t.type !== "OP") return null;
  switch (t.text) {
    case "(":
      return bracketed(p, PAREN_LEVELS, tuple, group, genexp);
    case "[":
      return bracketed(p, BRACKET_LEVELS, list, listcomp);
    case "{":
      return bracketed(p, BRACKET_LEVELS, dict, set, dictcomp, setcomp);
    case "...":
      p.pos++;
      return constant({ kind: "Ellipsis" }, t.line);
    default:
      return null;
  }
}

/**
 * CPython spends 28 parser levels per nested `(` and 29 per `[` or `{` on the way down to the
 * inner expression; the rules here count 6 of them themselves. The rest is added so that nesting
 * exhausts the parser stack (a MemoryError in CPython) at the same depth.
 */
const PAREN_LEVELS = 28 - 6;
const BRACKET_LEVELS = 29 - 6;

function bracketed(p: Parser, levels: number, ...alternatives: ((p: Parser) => Expr | null)[]): Expr | null {
  p.enter(levels);
  let result: Expr | null = null;
  for (const alternative of alternatives) {
    result = alternative(p);
    if (result) break;
  }
  p.leave(levels);
  return result;
}

/** tuple: '(' [star_named_expression ',' [star_named_expressions]] ')' */
function tuple(p: Parser): Expr | null {
  const start = p.pos;
  const open = p.expectOp("(")!;
  let elts: Expr[] = [];
  const first = starNamedExpression(p);
  if (first && p.expectOp(",")) elts = [first, ...(starNamedExpressions(p) ?? [])];
  else p.pos = start + 1;
  if (p.expectOp(")")) return sequence("Tuple", elts, open.line);
  p.pos = start;
  return null;
}

/** group: '(' (yield_expr | named_expression) ')' | invalid_group */
function group(p: Parser): Expr | null {
  const start = p.pos;
  p.expectOp("(");
  const inner = yieldExpr(p) ?? namedExpression(p);
  if (inner && p.expectOp(")")) return inner;
  p.pos = start;
  if (p.callInvalidRules) invalidGroup(p);
  return null;
}

/** genexp: '(' (assignment_expression | expression !':=') for_if_clauses ')' | invalid_comprehension */
export function genexp(p: Parser): Expr | null {
  const start = p.pos;
  const open = p.expectOp("(");
  if (open) {
    const element = assignmentExpression(p) ?? expressionNotWalrus(p);
    if (element) {
      const clauses = forIfClauses(p);
      if (clauses && p.expectOp(")")) return opaque("GeneratorExp", open.line, [element, ...clauses]);
    }
  }
  // The second alternative does not start with '(': in the second pass a `primary genexp` suffix
  // is tried on whatever follows a primary, even `{` or `[`.
  p.pos = start;
  if (p.callInvalidRules) invalidComprehension(p);
  return null;
}

/** list: '[' [star_named_expressions] ']' */
function list(p: Parser): Expr | null {
  const start = p.pos;
  const open = p.expectOp("[")!;
  const elts = starNamedExpressions(p) ?? [];
  if (p.expectOp("]")) return sequence("List", elts, open.line);
  p.pos = start;
  return null;
}

/** listcomp: '[' named_expression for_if_clauses ']' | invalid_comprehension */
function listcomp(p: Parser): Expr | null {
  return comprehension(p, "[", "]", "ListComp");
}

/** setcomp: '{' named_expression for_if_clauses '}' | invalid_comprehension */
function setcomp(p: Parser): Expr | null {
  return comprehension(p, "{", "}", "SetComp");
}

function comprehension(p: Parser, open: string, close: string, type: "ListComp" | "SetComp"): Expr | null {
  const start = p.pos;
  const t = p.expectOp(open)!;
  const element = namedExpression(p);
  if (element) {
    const clauses = forIfClauses(p);
    if (clauses && p.expectOp(close)) return opaque(type, t.line, [element, ...clauses]);
  }
  p.pos = start;
  if (p.callInvalidRules) invalidComprehension(p);
  return null;
}

/** set: '{' star_named_expressions '}' */
function set(p: Parser): Expr | null {
  const start = p.pos;
  const open = p.expectOp("{")!;
  const elts = starNamedExpressions(p);
  if (elts && p.expectOp("}")) return opaque("Set", open.line, elts);
  p.pos = start;
  return null;
}

/** dict: '{' [double_starred_kvpairs] '}' | '{' invalid_double_starred_kvpairs '}' */
function dict(p: Parser): Expr | null {
  const start = p.pos;
  const open = p.expectOp("{")!;
  const items = doubleStarredKvpairs(p) ?? [];
  if (p.expectOp("}")) return opaque("Dict", open.line, items);
  p.pos = start + 1;
  if (p.callInvalidRules) invalidDoubleStarredKvpairs(p);
  p.pos = start;
  return null;
}

/** dictcomp: '{' kvpair for_if_clauses '}' | invalid_dict_comprehension */
function dictcomp(p: Parser): Expr | null {
  const start = p.pos;
  const open = p.expectOp("{")!;
  const pair = kvpair(p);
  if (pair) {
    const clauses = forIfClauses(p);
    if (clauses && p.expectOp("}")) return opaque("DictComp", open.line, [...pair, ...clauses]);
  }
  p.pos = start;
  if (p.callInvalidRules) invalidDictComprehension(p);
  return null;
}

/** double_starred_kvpairs: ','.double_starred_kvpair+ [','] — keys and values, flattened. */
function doubleStarredKvpairs(p: Parser): Expr[] | null {
  const first = doubleStarredKvpair(p);
  if (!first) return null;
  const items = [...first];
  for (;;) {
    const mark = p.pos;
    if (!p.expectOp(",")) break;
    const next = doubleStarredKvpair(p);
    if (!next) {
      p.pos = mark;
      break;
    }
    items.push(...next);
  }
  p.expectOp(",");
  return items;
}

/** double_starred_kvpair: '**' bitwise_or | kvpair */
function doubleStarredKvpair(p: Parser): Expr[] | null {
  if (p.expectOp("**")) {
    const value = bitwiseOr(p);
    if (value) return [value];
    p.pos--;
  }
  return kvpair(p);
}

/** kvpair: expression ':' expression */
export function kvpair(p: Parser): [Expr, Expr] | null {
  const start = p.pos;
  const key = expression(p);
  if (key && p.expectOp(":")) {
    const value = expression(p);
    if (value) return [key, value];
  }
  p.pos = start;
  return null;
}

/** for_if_clauses: for_if_clause+ — each clause as one node carrying its depth. */
export function forIfClauses(p: Parser): Expr[] | null {
  const clauses: Expr[] = [];
  for (;;) {
    const clause = forIfClause(p);
    if (!clause) break;
    clauses.push(clause);
  }
  return clauses.length > 0 ? clauses : null;
}

/**
 * for_if_clause: [ASYNC] 'for' star_targets 'in' ~ disjunction ('if' disjunction)* | invalid_for_target.
 * Past the cut (`in`), a missing iterable fails the clause without trying the invalid rule.
 */
function forIfClause(p: Parser): Expr | null {
  const start = p.pos;
  p.expectKeyword("async");
  const forToken = p.expectKeyword("for");
  if (forToken) {
    const target = starTargets(p);
    if (target && p.expectKeyword("in")) {
      const iter = disjunction(p);
      if (!iter) {
        p.pos = start;
        return null;
      }
      const conditions: Expr[] = [];
      for (;;) {
        const mark = p.pos;
        if (!p.expectKeyword("if")) break;
        const condition = disjunction(p);
        if (!condition) {
          p.pos = mark;
          break;
        }
        conditions.push(condition);
      }
      return { type: "Comprehension", line: forToken.line, depth: depthOf([target, iter, ...conditions]) };
    }
  }
  p.pos = start;
  if (p.callInvalidRules) invalidForTarget(p);
  return null;
}

/** slices: slice !',' | ','.(slice | starred_expression)+ [','] */
export function slices(p: Parser): Expr | null {
  const start = p.pos;
  const first = slice(p);
  if (first && !p.isOp(",")) return first;
  p.pos = start;
  const items: Expr[] = [];
  for (;;) {
    const mark = p.pos;
    if (items.length > 0 && !p.expectOp(",")) break;
    const item = slice(p) ?? starredExpression(p);
    if (!item) {
      p.pos = mark;
      break;
    }
    items.push(item);
  }
  if (items.length === 0) return null;
  p.expectOp(",");
  return sequence("Tuple", items, items[0]!.line);
}

/** slice: [expression] ':' [expression] [':' [expression]] | named_expression */
function slice(p: Parser): Expr | null {
  const start = p.pos;
  const lower = expression(p);
  const colon = p.expectOp(":");
  if (colon) {
    const upper = expression(p);
    let step: Expr | null = null;
    if (p.expectOp(":")) step = expression(p);
    return opaque("Slice", lower?.line ?? colon.line, [lower, upper, step]);
  }
  p.pos = start;
  return namedExpression(p);
}
