/** Escapes shared by both contexts, and character sets `[…]` (which only ever hold escapes and literals). */
import type { Node, SetItem, Shorthand } from "./ast.ts";
import type { Cursor } from "./cursor.ts";

const SIMPLE_ESCAPES: Record<string, number> = { a: 7, f: 12, n: 10, r: 13, t: 9, v: 11 };
const HEX_LENGTH: Record<string, number> = { x: 2, u: 4, U: 8 };
export const OCTAL = /^[0-7]$/;
export const DIGIT = /^[0-9]$/;
export const ASCII_LETTER = /^[a-zA-Z]$/;
const HEX = /^[0-9a-fA-F]$/;

export const charNode = (ch: string): { kind: "char"; cp: number } => ({ kind: "char", cp: ch.codePointAt(0)! });

export function shorthandOf(letter: string, ascii: boolean): Shorthand | undefined {
  const lower = letter.toLowerCase();
  if (lower !== "d" && lower !== "w" && lower !== "s") return undefined;
  return { letter: lower, negated: letter !== lower, ascii };
}

function hexEscape(cur: Cursor, c: string, start: number): number {
  let digits = "";
  for (let i = 0; i < HEX_LENGTH[c]!; i++) {
    const d = cur.peek();
    if (d === undefined || !HEX.test(d)) throw cur.error(`incomplete escape \\${c}${digits}`, start);
    digits += d;
    cur.pos++;
  }
  const cp = Number.parseInt(digits, 16);
  if (cp > 0x10ffff) throw cur.error(`bad escape \\${c}${digits}`, start);
  return cp;
}

/** The code point of an escape that means the same inside and outside a set (`\n`, `\x41`, …). */
export function commonEscape(cur: Cursor, c: string, start: number): number | undefined {
  if (Object.hasOwn(SIMPLE_ESCAPES, c)) return SIMPLE_ESCAPES[c];
  if (Object.hasOwn(HEX_LENGTH, c)) return hexEscape(cur, c, start);
  if (c === "N") throw cur.error("named Unicode escapes (\\N{...}) are not supported", start);
  return undefined;
}

/** An octal escape whose first digit is consumed: up to `more` further octal digits, at most 0o377. */
export function octalEscape(cur: Cursor, first: string, more: number, start: number): number {
  let digits = first;
  for (let i = 0; i < more && OCTAL.test(cur.peek() ?? ""); i++) digits += cur.next();
  const cp = Number.parseInt(digits, 8);
  if (cp > 0o377) throw cur.error(`octal escape value \\${digits} outside of range 0-0o377`, start);
  return cp;
}

/** After `\` inside a set: `\b` is a backspace and digits are always octal. */
function setEscape(cur: Cursor, ascii: boolean, start: number): SetItem {
  const c = cur.next();
  if (c === undefined) throw cur.error("bad escape (end of pattern)", start);
  const shorthand = shorthandOf(c, ascii);
  if (shorthand !== undefined) return { kind: "shorthand", shorthand };
  if (c === "b") return { kind: "char", cp: 8 };
  const simple = commonEscape(cur, c, start);
  if (simple !== undefined) return { kind: "char", cp: simple };
  if (OCTAL.test(c)) return { kind: "char", cp: octalEscape(cur, c, 2, start) };
  if (DIGIT.test(c) || ASCII_LETTER.test(c)) throw cur.error(`bad escape \\${c}`, start);
  return charNode(c);
}

/** After `[`. A `]` right after `[` or `[^` is a literal, as is a `-` next to `]`. */
export function parseSet(cur: Cursor, ascii: boolean, start: number): Node {
  const negated = cur.match("^");
  const items: SetItem[] = [];
  for (;;) {
    const itemStart = cur.pos;
    const c = cur.next();
    if (c === undefined) throw cur.error("unterminated character set", start);
    if (c === "]" && items.length > 0) break;
    const first = c === "\\" ? setEscape(cur, ascii, itemStart) : charNode(c);
    if (!cur.match("-")) {
      items.push(first);
      continue;
    }
    const d = cur.next();
    if (d === undefined) throw cur.error("unterminated character set", start);
    if (d === "]") {
      items.push(first, charNode("-"));
      break;
    }
    const second = d === "\\" ? setEscape(cur, ascii, cur.pos - 1) : charNode(d);
    if (first.kind !== "char" || second.kind !== "char" || second.cp < first.cp) {
      throw cur.error(`bad character range ${cur.cps.slice(itemStart, cur.pos).join("")}`, itemStart);
    }
    items.push({ kind: "range", from: first.cp, to: second.cp });
  }
  return { kind: "set", negated, items };
}
