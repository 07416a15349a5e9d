/**
 * Python 3.11's expression grammar, from the start rules down to primaries. The rules follow
 * CPython's PEG grammar alternative by alternative (which tokens get looked at decides where a
 * syntax error is reported); chains CPython parses by recursion (operators, unary prefixes,
 * `**`, `not`) are parsed with loops so that depth costs no JS stack.
 */
import {
  binOp,
  depthOf,
  opaque,
  sequence,
  unaryOp,
  type BinOperator,
  type Expr,
  type UnaryOperator,
} from "../ast.ts";
import type { Token } from "../tokens.ts";
import { argumentsRule, callNode } from "./arguments.ts";
import { atom, genexp, slices } from "./atoms.ts";
import { invalidExpression, invalidLegacyExpression, invalidNamedExpression } from "./invalid.ts";
import { lambdef } from "./lambda.ts";
import { commaSeparated, RULE, type Parser } from "./state.ts";

/** eval: expressions NEWLINE* ENDMARKER */
export function evalInput(p: Parser): Expr | null {
  const body = expressions(p);
  if (!body) return null;
  while (p.peek().type === "NEWLINE") p.pos++;
  return p.peek().type === "ENDMARKER" ? body : null;
}

/** expressions: expression (',' expression)* [','] — a tuple when there is a comma. */
export function expressions(p: Parser): Expr | null {
  return commaList(p, expression);
}

/** star_expressions: the same with `*x` items (the f-string field start rule). */
export function starExpressions(p: Parser): Expr | null {
  return commaList(p, starExpression);
}

function commaList(p: Parser, item: (p: Parser) => Expr | null): Expr | null {
  const elts = commaSeparated(p, item);
  if (!elts) return null;
  const first = elts[0]!;
  if (elts.length > 1) {
    p.expectOp(",");
    return sequence("Tuple", elts, first.line);
  }
  return p.expectOp(",") ? sequence("Tuple", elts, first.line) : first;
}

export function expression(p: Parser): Expr | null {
  const start = p.pos;
  const hit = p.memoGet<Expr>(RULE.expression);
  if (!p.isMiss(hit)) return hit;
  p.enter();
  if (p.callInvalidRules) {
    invalidExpression(p);
    invalidLegacyExpression(p);
  }
  const result = conditional(p) ?? lambdef(p);
  p.leave();
  return p.memoSet(RULE.expression, start, result);
}

/** CPython's `expression_without_invalid`: the same rule with the second-pass checks switched off. */
export function expressionWithoutInvalid(p: Parser): Expr | null {
  return p.withoutInvalid(() => conditional(p) ?? lambdef(p));
}

/** disjunction ['if' disjunction 'else' expression] */
function conditional(p: Parser): Expr | null {
  const a = disjunction(p);
  if (!a) return null;
  const afterA = p.pos;
  if (p.expectKeyword("if")) {
    const b = disjunction(p);
    if (b && p.expectKeyword("else")) {
      const c = expression(p);
      if (c) return opaque("IfExp", a.line, [a, b, c]);
    }
  }
  p.pos = afterA;
  return a;
}

export function yieldExpr(p: Parser): Expr | null {
  const t = p.expectKeyword("yield");
  if (!t) return null;
  const afterYield = p.pos;
  if (p.expectKeyword("from")) {
    const value = expression(p);
    if (value) return opaque("YieldFrom", t.line, [value]);
    p.pos = afterYield;
  }
  return opaque("Yield", t.line, [starExpressions(p)]);
}

/** star_expression: '*' bitwise_or | expression */
export function starExpression(p: Parser): Expr | null {
  const start = p.pos;
  const hit = p.memoGet<Expr>(RULE.starExpression);
  if (!p.isMiss(hit)) return hit;
  return p.memoSet(RULE.starExpression, start, starredBitwiseOr(p) ?? expression(p));
}

function starredBitwiseOr(p: Parser): Expr | null {
  const star = p.expectOp("*");
  if (!star) return null;
  const value = bitwiseOr(p);
  if (value) return { type: "Starred", value, line: star.line, depth: value.depth + 1 };
  p.pos--;
  return null;
}

/** starred_expression: '*' expression */
export function starredExpression(p: Parser): Expr | null {
  const star = p.expectOp("*");
  if (!star) return null;
  const value = expression(p);
  if (value) return { type: "Starred", value, line: star.line, depth: value.depth + 1 };
  p.pos--;
  return null;
}

/** star_named_expressions: ','.star_named_expression+ [','] */
export function starNamedExpressions(p: Parser): Expr[] | null {
  const first = starNamedExpression(p);
  if (!first) return null;
  const items = [first];
  for (;;) {
    const mark = p.pos;
    if (!p.expectOp(",")) break;
    const next = starNamedExpression(p);
    if (!next) {
      p.pos = mark;
      break;
    }
    items.push(next);
  }
  p.expectOp(",");
  return items;
}

/** star_named_expression: '*' bitwise_or | named_expression */
export function starNamedExpression(p: Parser): Expr | null {
  return starredBitwiseOr(p) ?? namedExpression(p);
}

/** assignment_expression: NAME ':=' ~ expression */
export function assignmentExpression(p: Parser): Expr | null {
  const start = p.pos;
  const name = p.expectName();
  if (!name || !p.expectOp(":=")) {
    p.pos = start;
    return null;
  }
  const value = expression(p);
  if (!value) {
    p.pos = start;
    return null;
  }
  return opaque("NamedExpr", name.line, [value]);
}

/** named_expression: assignment_expression | invalid_named_expression | expression !':=' */
export function namedExpression(p: Parser): Expr | null {
  const assigned = assignmentExpression(p);
  if (assigned) return assigned;
  if (p.callInvalidRules) invalidNamedExpression(p);
  return expressionNotWalrus(p);
}

/** expression !':=' */
export function expressionNotWalrus(p: Parser): Expr | null {
  const start = p.pos;
  const e = expression(p);
  if (e && !p.isOp(":=")) return e;
  p.pos = start;
  return null;
}

export function disjunction(p: Parser): Expr | null {
  const start = p.pos;
  const hit = p.memoGet<Expr>(RULE.disjunction);
  if (!p.isMiss(hit)) return hit;
  p.enter();
  const result = boolChain(p, "or", conjunction);
  p.leave();
  return p.memoSet(RULE.disjunction, start, result);
}

function conjunction(p: Parser): Expr | null {
  return boolChain(p, "and", inversion);
}

function boolChain(p: Parser, word: string, operand: (p: Parser) => Expr | null): Expr | null {
  const first = operand(p);
  if (!first) return null;
  const items = [first];
  for (;;) {
    const mark = p.pos;
    if (!p.expectKeyword(word)) break;
    const next = operand(p);
    if (!next) {
      p.pos = mark;
      break;
    }
    items.push(next);
  }
  return items.length === 1 ? first : opaque("BoolOp", first.line, items);
}

/** inversion: 'not' inversion | comparison */
function inversion(p: Parser): Expr | null {
  const start = p.pos;
  const nots: Token[] = [];
  while (p.isKeyword("not")) nots.push(p.tokens[p.pos++]!);
  p.enter(1 + nots.length);
  const operand = comparison(p);
  p.leave(1 + nots.length);
  if (!operand) {
    p.pos = start;
    return null;
  }
  let result = operand;
  for (let k = nots.length - 1; k >= 0; k--) result = unaryOp("not", result, nots[k]!.line);
  return result;
}

const COMPARISON_OPERATORS = new Set(["==", "!=", "<=", "<", ">=", ">"]);

/** comparison: bitwise_or compare_op_bitwise_or_pair* */
function comparison(p: Parser): Expr | null {
  const left = bitwiseOr(p);
  if (!left) return null;
  let firstOp: string | null = null;
  const operands = [left];
  for (;;) {
    const mark = p.pos;
    const op = comparisonOperator(p);
    if (!op) break;
    const right = bitwiseOr(p);
    if (!right) {
      p.pos = mark;
      break;
    }
    firstOp ??= op;
    operands.push(right);
  }
  if (firstOp === null) return left;
  return { type: "Compare", left, firstOp, line: left.line, depth: depthOf(operands) };
}

function comparisonOperator(p: Parser): string | null {
  const t = p.peek();
  // `<>` is tokenized like `!=` but only accepted under `from __future__ import barry_as_FLUFL`.
  if (t.type === "OP" && COMPARISON_OPERATORS.has(t.text)) {
    p.pos++;
    return t.text;
  }
  if (t.type !== "NAME") return null;
  const start = p.pos;
  p.pos++;
  if (t.text === "in") return "in";
  if (t.text === "not" && p.expectKeyword("in")) return "not in";
  if (t.text === "is") return p.expectKeyword("not") ? "is not" : "is";
  p.pos = start;
  return null;
}

const BINARY_PRECEDENCE: Readonly<Record<string, number>> = {
  "|": 1, "^": 2, "&": 3, "<<": 4, ">>": 4, "+": 5, "-": 5, "*": 6, "/": 6, "//": 6, "%": 6, "@": 6,
};

/** bitwise_or down to term: every left-associative binary level, by precedence climbing. */
export function bitwiseOr(p: Parser): Expr | null {
  const start = p.pos;
  const hit = p.memoGet<Expr>(RULE.bitwiseOr);
  if (!p.isMiss(hit)) return hit;
  p.enter();
  const result = binaryChain(p);
  p.leave();
  return p.memoSet(RULE.bitwiseOr, start, result);
}

function binaryChain(p: Parser): Expr | null {
  const first = factor(p);
  if (!first) return null;
  const operands = [first];
  const operators: string[] = [];
  const reduce = (): void => {
    const right = operands.pop()!;
    const left = operands.pop()!;
    operands.push(binOp(operators.pop() as BinOperator, left, right));
  };
  for (;;) {
    const mark = p.pos;
    const t = p.peek();
    const precedence = t.type === "OP" ? BINARY_PRECEDENCE[t.text] : undefined;
    if (precedence === undefined) break;
    p.pos++;
    const right = factor(p);
    if (!right) {
      p.pos = mark;
      break;
    }
    while (operators.length > 0 && BINARY_PRECEDENCE[operators[operators.length - 1]!]! >= precedence) reduce();
    operators.push(t.text);
    operands.push(right);
  }
  while (operators.length > 0) reduce();
  return operands[0]!;
}

const PREFIX_OPERATORS = new Set(["+", "-", "~"]);

function prefixOperators(p: Parser): Token[] {
  const out: Token[] = [];
  for (;;) {
    const t = p.peek();
    if (t.type !== "OP" || !PREFIX_OPERATORS.has(t.text)) return out;
    out.push(t);
    p.pos++;
  }
}

function applyPrefixes(prefixes: readonly Token[], operand: Expr): Expr {
  let result = operand;
  for (let k = prefixes.length - 1; k >= 0; k--) {
    result = unaryOp(prefixes[k]!.text as UnaryOperator, result, prefixes[k]!.line);
  }
  return result;
}

/**
 * factor: ('+'|'-'|'~') factor | power; power: await_primary '**' factor | await_primary.
 * Parsed as one loop over `prefix* operand ('**' prefix* operand)*`, built right-associatively,
 * so `-2**-1` is `-(2 ** (-1))`.
 */
export function factor(p: Parser): Expr | null {
  const start = p.pos;
  const hit = p.memoGet<Expr>(RULE.factor);
  if (!p.isMiss(hit)) return hit;
  const result = powerChain(p);
  if (!result) p.pos = start;
  return p.memoSet(RULE.factor, start, result);
}

function powerChain(p: Parser): Expr | null {
  const baseLevel = p.level;
  const pieces: { prefixes: Token[]; operand: Expr }[] = [];
  let prefixes = prefixOperators(p);
  // CPython spends one parser level per prefix and two per `**` on the way down.
  let depth = 1 + prefixes.length;
  let beforeOperator = p.pos;
  for (;;) {
    p.enter(depth);
    const operand = awaitPrimary(p);
    p.level = baseLevel;
    if (!operand) {
      if (pieces.length === 0) return null;
      p.pos = beforeOperator;
      break;
    }
    pieces.push({ prefixes, operand });
    beforeOperator = p.pos;
    if (!p.expectOp("**")) break;
    prefixes = prefixOperators(p);
    depth += 2 + prefixes.length;
  }
  const last = pieces[pieces.length - 1]!;
  let result = applyPrefixes(last.prefixes, last.operand);
  for (let k = pieces.length - 2; k >= 0; k--) {
    result = applyPrefixes(pieces[k]!.prefixes, binOp("**", pieces[k]!.operand, result));
  }
  return result;
}

function awaitPrimary(p: Parser): Expr | null {
  const t = p.peek();
  if (t.type === "NAME" && t.text === "await") {
    p.pos++;
    const operand = primary(p);
    if (operand) return opaque("Await", t.line, [operand]);
    p.pos--;
  }
  return primary(p);
}

/** primary: primary ('.' NAME | genexp | '(' [arguments] ')' | '[' slices ']') | atom */
function primary(p: Parser): Expr | null {
  p.enter();
  let a = atom(p);
  while (a) {
    const mark = p.pos;
    const next = primarySuffix(p, a);
    if (!next) {
      p.pos = mark;
      break;
    }
    a = next;
  }
  p.leave();
  return a;
}

/** CPython spends 24 parser levels per nested call or subscript; 6 are counted by these rules. */
const SUFFIX_LEVELS = 24 - 6;

function primarySuffix(p: Parser, a: Expr): Expr | null {
  const mark = p.pos;
  if (p.expectOp(".")) {
    if (p.expectName()) return opaque("Attribute", a.line, [a]);
    p.pos = mark;
  }
  const gen = genexp(p);
  if (gen) return opaque("Call", a.line, [a, gen]);
  if (p.expectOp("(")) {
    p.enter(SUFFIX_LEVELS);
    const args = argumentsRule(p);
    p.leave(SUFFIX_LEVELS);
    if (p.expectOp(")")) return callNode(a, args);
    p.pos = mark;
  }
  if (p.expectOp("[")) {
    p.enter(SUFFIX_LEVELS);
    const index = slices(p);
    p.leave(SUFFIX_LEVELS);
    if (index && p.expectOp("]")) return opaque("Subscript", a.line, [a, index]);
    p.pos = mark;
  }
  return null;
}
