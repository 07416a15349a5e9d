/** Assignment targets, as a comprehension's `for` clause needs them (Python 3.11 grammar). */
import { callNode } from "./arguments.ts";
import { argumentsRule } from "./arguments.ts";
import { opaque, sequence, type Expr } from "../ast.ts";
import { atom, genexp, slices } from "./atoms.ts";
import { commaSeparated, RULE, type Parser } from "./state.ts";

/** star_targets: star_target !',' | star_target (',' star_target)* [','] */
export function starTargets(p: Parser): Expr | null {
  const first = starTarget(p);
  if (!first) return null;
  if (!p.isOp(",")) return first;
  const elts = commaSeparated(p, starTarget, first)!;
  p.expectOp(",");
  return sequence("Tuple", elts, first.line);
}

/** star_target: '*' (!'*' star_target) | target_with_star_atom */
function starTarget(p: Parser): Expr | null {
  const start = p.pos;
  const hit = p.memoGet<Expr>(RULE.starTarget);
  if (!p.isMiss(hit)) return hit;
  p.enter();
  let result: Expr | null = null;
  const star = p.expectOp("*");
  if (star && !p.isOp("*")) {
    const value = starTarget(p);
    if (value) result = { type: "Starred", value, line: star.line, depth: value.depth + 1 };
  }
  if (!result) {
    p.pos = start;
    result = targetWithStarAtom(p);
  }
  p.leave();
  return p.memoSet(RULE.starTarget, start, result);
}

const isTargetLookahead = (p: Parser): boolean => p.isOp("(") || p.isOp("[") || p.isOp(".");

/**
 * target_with_star_atom: t_primary '.' NAME !t_lookahead | t_primary '[' slices ']' !t_lookahead
 *                      | star_atom
 */
function targetWithStarAtom(p: Parser): Expr | null {
  const start = p.pos;
  const hit = p.memoGet<Expr>(RULE.targetWithStarAtom);
  if (!p.isMiss(hit)) return hit;
  let result: Expr | null = null;
  const base = tPrimary(p);
  if (base) {
    const mark = p.pos;
    if (p.expectOp(".") && p.expectName() && !isTargetLookahead(p)) result = opaque("Attribute", base.line, [base]);
    else {
      p.pos = mark;
      if (p.expectOp("[")) {
        const index = slices(p);
        if (index && p.expectOp("]") && !isTargetLookahead(p)) result = opaque("Subscript", base.line, [base, index]);
      }
    }
  }
  if (!result) {
    p.pos = start;
    result = starAtom(p);
  }
  return p.memoSet(RULE.targetWithStarAtom, start, result);
}

/**
 * star_atom: NAME | '(' target_with_star_atom ')' | '(' [star_targets_tuple_seq] ')'
 *          | '[' [star_targets_list_seq] ']'
 */
function starAtom(p: Parser): Expr | null {
  const start = p.pos;
  const name = p.expectName();
  if (name) return { type: "Name", id: name.text.normalize("NFKC"), line: name.line, depth: 1 };
  const open = p.expectOp("(") ?? p.expectOp("[");
  if (!open) return null;
  const close = open.text === "(" ? ")" : "]";
  if (open.text === "(") {
    const inner = targetWithStarAtom(p);
    if (inner && p.expectOp(")")) return inner;
    p.pos = start + 1;
  }
  const elts = targetSequence(p, open.text === "(");
  if (p.expectOp(close)) return sequence(open.text === "(" ? "Tuple" : "List", elts ?? [], open.line);
  p.pos = start;
  return null;
}

/**
 * star_targets_tuple_seq: star_target (',' star_target)+ [','] | star_target ','
 * star_targets_list_seq: ','.star_target+ [',']
 */
function targetSequence(p: Parser, needsComma: boolean): Expr[] | null {
  const start = p.pos;
  const elts = commaSeparated(p, starTarget);
  if (!elts) return null;
  const trailing = p.expectOp(",");
  if (needsComma && elts.length === 1 && !trailing) {
    p.pos = start;
    return null;
  }
  return elts;
}

/**
 * t_primary: t_primary ('.' NAME | '[' slices ']' | genexp | '(' [arguments] ')') &t_lookahead
 *          | atom &t_lookahead
 */
function tPrimary(p: Parser): Expr | null {
  const start = p.pos;
  const hit = p.memoGet<Expr>(RULE.tPrimary);
  if (!p.isMiss(hit)) return hit;
  let a = atom(p);
  if (a && !isTargetLookahead(p)) a = null;
  while (a) {
    const mark = p.pos;
    const next = tPrimarySuffix(p, a);
    if (!next) {
      p.pos = mark;
      break;
    }
    a = next;
  }
  if (!a) p.pos = start;
  return p.memoSet(RULE.tPrimary, start, a);
}

function tPrimarySuffix(p: Parser, a: Expr): Expr | null {
  const mark = p.pos;
  if (p.expectOp(".") && p.expectName() && isTargetLookahead(p)) return opaque("Attribute", a.line, [a]);
  p.pos = mark;
  if (p.expectOp("[")) {
    const index = slices(p);
    if (index && p.expectOp("]") && isTargetLookahead(p)) return opaque("Subscript", a.line, [a, index]);
  }
  p.pos = mark;
  const gen = genexp(p);
  if (gen && isTargetLookahead(p)) return opaque("Call", a.line, [a, gen]);
  p.pos = mark;
  if (p.expectOp("(")) {
    const args = argumentsRule(p);
    if (p.expectOp(")") && isTargetLookahead(p)) return callNode(a, args);
  }
  p.pos = mark;
  return null;
}
