/**
 * Python regex AST → JS `u`-mode regex source with Python's matching semantics
 * (arena-format.md §5.6). JS flags are never relied on except `i` and `u`: `.`, `^`, `$` are
 * spelled out per node, because Python's `.`/`^`/`$` treat only `\n` as a line break while
 * JS's also honour `\r`, U+2028 and U+2029.
 */
import { PY_WS_CLASS_BODY } from "../index.ts";
import type { Assertion, CaseMode, Node, SetItem, Shorthand } from "./ast.ts";

// Python's Unicode `\w` is `str.isalnum() or "_"`: every letter and every number category.
const WORD = "\\p{L}\\p{N}_";
const ASCII_WORD = "a-zA-Z0-9_";
const ASCII_SPACE = "\\t-\\r ";
const SYNTAX = new Set("^$\\.*+?()[]{}|/");
const SET_SYNTAX = new Set("\\]^-[");
/**
 * Python's IGNORECASE makes I, i, U+0130 and U+0131 one class (simple lower-casing plus its
 * case-fix table); JS simple case folding leaves U+0130 and U+0131 apart, so they are added by hand.
 */
const DOTTED_I = [0x49, 0x69, 0x130, 0x131];
const DOTTED_I_BODY = "Iiİı";

function literal(cp: number, inSet: boolean): string {
  const ch = String.fromCodePoint(cp);
  if ((inSet ? SET_SYNTAX : SYNTAX).has(ch)) return `\\${ch}`;
  const invisible = cp < 0x20 || (cp >= 0x7f && cp <= 0x9f) || (cp >= 0xd800 && cp <= 0xdfff) || cp === 0x2028 || cp === 0x2029;
  return invisible ? `\\u{${cp.toString(16)}}` : ch;
}

/**
 * Under `(?a)` with IGNORECASE Python folds case only within ASCII, but JS `i` would let U+017F
 * match `s` and U+212A match `k`: such parts are emitted case-sensitively (`(?-i:…)`) with the
 * other ASCII case of each letter added explicitly.
 */
function asciiFolded(mode: CaseMode): boolean {
  return mode.ignoreCase && mode.ascii;
}

function caseSensitive(source: string): string {
  return `(?-i:${source})`;
}

/** The other-case ASCII letters of `[from, to]`, as set-body text. */
function asciiCounterparts(from: number, to: number): string {
  let out = "";
  for (const [lo, hi, shift] of [
    [0x61, 0x7a, -0x20],
    [0x41, 0x5a, 0x20],
  ] as const) {
    const a = Math.max(from, lo);
    const b = Math.min(to, hi);
    if (a <= b) out += `${literal(a + shift, true)}-${literal(b + shift, true)}`;
  }
  return out;
}

/** The code points of a shorthand, as set-body text. */
function shorthandBody(s: Shorthand): string {
  switch (s.letter) {
    case "d":
      return s.ascii ? "0-9" : "\\p{Nd}";
    case "w":
      return s.ascii ? ASCII_WORD : WORD;
    case "s":
      return s.ascii ? ASCII_SPACE : PY_WS_CLASS_BODY;
  }
}

function shorthand(s: Shorthand): string {
  if (s.letter === "d" && !s.ascii) return s.negated ? "\\P{Nd}" : "\\p{Nd}";
  const cls = `[${s.negated ? "^" : ""}${shorthandBody(s)}]`;
  // Both cases are listed already, so `i` can only add non-ASCII look-alikes.
  return s.ascii ? caseSensitive(cls) : cls;
}

function coversDottedI(item: SetItem): boolean {
  if (item.kind === "char") return DOTTED_I.includes(item.cp);
  return item.kind === "range" && DOTTED_I.some((cp) => item.from <= cp && cp <= item.to);
}

/**
 * A set body can hold `\P{Nd}` but not the complement of `\w` or `\s` (u-mode has no set
 * subtraction), so `[\W…]` becomes an alternation of the plain part and each complement.
 */
function set(negated: boolean, items: readonly SetItem[], mode: CaseMode): string {
  const ascii = asciiFolded(mode);
  let body = mode.ignoreCase && !mode.ascii && items.some(coversDottedI) ? DOTTED_I_BODY : "";
  const complements: string[] = [];
  for (const item of items) {
    if (item.kind === "char") {
      body += literal(item.cp, true);
      if (ascii) body += asciiCounterparts(item.cp, item.cp);
    } else if (item.kind === "range") {
      body += `${literal(item.from, true)}-${literal(item.to, true)}`;
      if (ascii) body += asciiCounterparts(item.from, item.to);
    } else if (!item.shorthand.negated) body += shorthandBody(item.shorthand);
    else if (item.shorthand.letter === "d" && !item.shorthand.ascii) body += "\\P{Nd}";
    else complements.push(`[^${shorthandBody(item.shorthand)}]`);
  }
  let source: string;
  if (complements.length === 0) source = `[${negated ? "^" : ""}${body}]`;
  else {
    const union = [...(body === "" ? [] : [`[${body}]`]), ...complements].join("|");
    source = negated ? `(?:(?!${union})[\\s\\S])` : `(?:${union})`;
  }
  return ascii ? caseSensitive(source) : source;
}

function char(cp: number, mode: CaseMode): string {
  if (asciiFolded(mode)) return caseSensitive(`[${literal(cp, true)}${asciiCounterparts(cp, cp)}]`);
  if (mode.ignoreCase && DOTTED_I.includes(cp)) return `[${DOTTED_I_BODY}]`;
  return literal(cp, false);
}

function assertion(a: Assertion): string {
  switch (a.at) {
    case "start":
      return a.multiline ? "(?<![^\\n])" : "^";
    case "end":
      // Python's `$` also matches just before a final `\n`.
      return a.multiline ? "(?![^\\n])" : "(?=\\n?$)";
    case "string-start":
      return "^";
    case "string-end":
      return "(?![\\s\\S])";
    case "boundary":
    case "non-boundary": {
      // JS `\b` only knows ASCII word characters.
      const w = a.ascii ? caseSensitive(`[${ASCII_WORD}]`) : `[${WORD}]`;
      if (a.at === "boundary") return `(?:(?<=${w})(?!${w})|(?<!${w})(?=${w}))`;
      // CPython (before 3.14) never matches `\B` when the whole string is empty.
      return `(?!^$)(?:(?<=${w})(?=${w})|(?<!${w})(?!${w}))`;
    }
  }
}

function quantifier(min: number, max: number, lazy: boolean): string {
  let q: string;
  if (max === Number.POSITIVE_INFINITY) q = min === 0 ? "*" : min === 1 ? "+" : `{${min},}`;
  else if (min === 0 && max === 1) q = "?";
  else q = min === max ? `{${min}}` : `{${min},${max}}`;
  return lazy ? `${q}?` : q;
}

/** Source that a quantifier can follow as one unit. */
function atom(node: Node, mode: CaseMode): string {
  switch (node.kind) {
    case "char":
    case "any":
    case "set":
    case "shorthand":
    case "group":
    case "backref":
      return emit(node, mode);
    default:
      // Sequences, alternations and (quantified) look-arounds, which u-mode refuses to repeat directly.
      return `(?:${emit(node, mode)})`;
  }
}

function group(node: Extract<Node, { kind: "group" }>, mode: CaseMode): string {
  const inner = node.caseMode ?? mode;
  let open: string;
  if (node.index !== null) open = node.name === null ? "(" : `(?<${node.name}>`;
  else if (inner.ignoreCase === mode.ignoreCase) open = "(?:";
  else open = inner.ignoreCase ? "(?i:" : "(?-i:";
  return `${open}${emit(node.body, inner)})`;
}

/** JS source (for flags `iu`) for `node`, given the case mode in effect around it. */
export function emit(node: Node, mode: CaseMode): string {
  switch (node.kind) {
    case "seq":
      return node.items.map((n) => emit(n, mode)).join("");
    case "alt":
      return node.branches.map((n) => emit(n, mode)).join("|");
    case "char":
      return char(node.cp, mode);
    case "any":
      return node.dotAll ? "[\\s\\S]" : "[^\\n]";
    case "set":
      return set(node.negated, node.items, mode);
    case "shorthand":
      return shorthand(node.shorthand);
    case "assert":
      return assertion(node);
    case "group":
      return group(node, mode);
    case "look":
      return `(?${node.behind ? "<" : ""}${node.negative ? "!" : "="}${emit(node.body, mode)})`;
    case "backref":
      // Wrapped so a following literal digit cannot extend the reference number.
      return node.name === null ? `(?:\\${node.index})` : `(?:\\k<${node.name}>)`;
    case "repeat":
      return atom(node.body, mode) + quantifier(node.min, node.max, node.lazy);
  }
}
