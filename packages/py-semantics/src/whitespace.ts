/**
 * Python's notion of whitespace (`str.strip`, `str.split`, `re` `\s`), which differs from JS `\s`:
 * it includes U+001C–U+001F and U+0085 and excludes U+FEFF. Arena data is read with Python
 * semantics, so every strip/split/collapse in the project goes through here.
 */

/** Character-class body (without brackets) matching one Python whitespace code point. */
export const PY_WS_CLASS_BODY = "\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000";

const WS_RUN = new RegExp(`[${PY_WS_CLASS_BODY}]+`, "u");
const WS_RUN_GLOBAL = new RegExp(`[${PY_WS_CLASS_BODY}]+`, "gu");
const LEADING = new RegExp(`^[${PY_WS_CLASS_BODY}]+`, "u");
const TRAILING = new RegExp(`[${PY_WS_CLASS_BODY}]+$`, "u");
const ONE = new RegExp(`^[${PY_WS_CLASS_BODY}]$`, "u");

export function isPyWhitespace(ch: string): boolean {
  return ONE.test(ch);
}

export function pyStrip(s: string): string {
  return s.replace(LEADING, "").replace(TRAILING, "");
}

/** Python `s.split()`: split on whitespace runs, dropping empty pieces. */
export function pySplit(s: string): string[] {
  return s.split(WS_RUN).filter((piece) => piece !== "");
}

/** Collapse every whitespace run to one space and trim (how an arena's system prompt is derived). */
export function collapseWhitespace(s: string): string {
  return pySplit(s).join(" ");
}

/** True when the string is empty or only Python whitespace. */
export function isBlank(s: string): boolean {
  return s.replace(WS_RUN_GLOBAL, "") === "";
}

/** Line boundaries recognised by Python `str.splitlines()`. */
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]/u;

/** Python `str.splitlines()` (no trailing empty line for a final terminator). */
export function pySplitLines(s: string): string[] {
  if (s === "") return [];
  const lines = s.split(LINE_BREAK);
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  return lines;
}
