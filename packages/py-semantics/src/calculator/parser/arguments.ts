/** Call arguments (Python 3.11 grammar: `arguments`, `args`, `kwargs` and their items). */
import type { Expr } from "../ast.ts";
import { assignmentExpression, expression, expressionNotWalrus, starredExpression } from "./expressions.ts";
import { invalidArguments, invalidKwarg } from "./invalid.ts";
import { commaSeparated, RULE, type Parser } from "./state.ts";

export interface Keyword {
  /** null for `**mapping`. */
  readonly name: string | null;
  readonly value: Expr;
}

export interface Arguments {
  readonly line: number;
  /** Positional arguments, `*iterable` ones included. */
  readonly positional: readonly Expr[];
  readonly keywords: readonly Keyword[];
  /** Depth the keywords add to the call (each sits under a `keyword` node). */
  readonly keywordDepth: number;
}

type KwItem = { readonly starred: Expr } | { readonly keyword: Keyword };

function collect(line: number, positional: readonly Expr[], items: readonly KwItem[]): Arguments {
  const all = [...positional];
  const keywords: Keyword[] = [];
  for (const item of items) {
    if ("starred" in item) all.push(item.starred);
    else keywords.push(item.keyword);
  }
  const keywordDepth = keywords.reduce((deepest, k) => Math.max(deepest, k.value.depth + 1), 0);
  return { line, positional: all, keywords, keywordDepth };
}

/** arguments: args [','] &')' | invalid_arguments */
export function argumentsRule(p: Parser): Arguments | null {
  const start = p.pos;
  const hit = p.memoGet<Arguments>(RULE.arguments);
  if (!p.isMiss(hit)) return hit;
  let result = args(p);
  if (result) {
    p.expectOp(",");
    if (!p.isOp(")")) result = null;
  }
  if (!result) {
    p.pos = start;
    if (p.callInvalidRules) invalidArguments(p);
  }
  return p.memoSet(RULE.arguments, start, result);
}

/** One positional item: starred_expression | (assignment_expression | expression !':=') !'=' */
function positionalItem(p: Parser): Expr | null {
  const star = starredExpression(p);
  if (star) return star;
  const start = p.pos;
  const e = assignmentExpression(p) ?? expressionNotWalrus(p);
  if (e && !p.isOp("=")) return e;
  p.pos = start;
  return null;
}

/** args: ','.positional_item+ [',' kwargs] | kwargs */
export function args(p: Parser): Arguments | null {
  const start = p.pos;
  const first = positionalItem(p);
  if (first) {
    const positional = [first];
    for (;;) {
      const mark = p.pos;
      if (!p.expectOp(",")) break;
      const next = positionalItem(p);
      if (!next) {
        p.pos = mark;
        break;
      }
      positional.push(next);
    }
    const mark = p.pos;
    let items: KwItem[] = [];
    if (p.expectOp(",")) {
      const kw = kwargs(p);
      if (kw) items = kw;
      else p.pos = mark;
    }
    return collect(first.line, positional, items);
  }
  p.pos = start;
  const kw = kwargs(p);
  if (!kw) return null;
  return collect(p.tokens[start]!.line, [], kw);
}

/**
 * kwargs: ','.kwarg_or_starred+ ',' ','.kwarg_or_double_starred+
 *       | ','.kwarg_or_starred+
 *       | ','.kwarg_or_double_starred+
 */
function kwargs(p: Parser): KwItem[] | null {
  const start = p.pos;
  const starred = commaSeparated(p, kwargOrStarred);
  if (starred) {
    const mark = p.pos;
    if (p.expectOp(",")) {
      const doubled = commaSeparated(p, kwargOrDoubleStarred);
      if (doubled) return [...starred, ...doubled];
    }
    p.pos = mark;
    return starred;
  }
  p.pos = start;
  return commaSeparated(p, kwargOrDoubleStarred);
}

/** NAME '=' expression */
function namedKeyword(p: Parser): KwItem | null {
  const start = p.pos;
  const name = p.expectName();
  if (name && p.expectOp("=")) {
    const value = expression(p);
    if (value) return { keyword: { name: name.text, value } };
  }
  p.pos = start;
  return null;
}

/** kwarg_or_starred: invalid_kwarg | NAME '=' expression | starred_expression */
function kwargOrStarred(p: Parser): KwItem | null {
  if (p.callInvalidRules) invalidKwarg(p);
  const keyword = namedKeyword(p);
  if (keyword) return keyword;
  const star = starredExpression(p);
  return star ? { starred: star } : null;
}

/** kwarg_or_double_starred: invalid_kwarg | NAME '=' expression | '**' expression */
function kwargOrDoubleStarred(p: Parser): KwItem | null {
  if (p.callInvalidRules) invalidKwarg(p);
  const keyword = namedKeyword(p);
  if (keyword) return keyword;
  if (!p.expectOp("**")) return null;
  const value = expression(p);
  if (value) return { keyword: { name: null, value } };
  p.pos--;
  return null;
}

/** A call node: keywords add a level (`keyword`) between the call and their values. */
export function callNode(func: Expr, args: Arguments | null): Expr {
  let deepest = Math.max(func.depth, args?.keywordDepth ?? 0);
  for (const e of args?.positional ?? []) deepest = Math.max(deepest, e.depth);
  return { type: "Call", line: func.line, depth: deepest + 1 };
}
