/** Python `repr()` and `str()` of JSON values, for messages that must match CPython's text. */
import { floatRepr } from "./float.ts";
import type { PyValue } from "./value.ts";

// Categories CPython treats as non-printable in repr (Zs other than the ASCII space included).
// Made at the first use: building a Unicode property class at import costs every worker start ~1 ms.
let nonPrintable: RegExp | undefined;
const NON_PRINTABLE = (): RegExp => (nonPrintable ??= /[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\p{Zs}/u);

function escapeCodePoint(cp: number): string {
  if (cp <= 0xff) return `\\x${cp.toString(16).padStart(2, "0")}`;
  if (cp <= 0xffff) return `\\u${cp.toString(16).padStart(4, "0")}`;
  return `\\U${cp.toString(16).padStart(8, "0")}`;
}

export function reprString(s: string): string {
  const quote = s.includes("'") && !s.includes('"') ? '"' : "'";
  let out = quote;
  for (const ch of s) {
    if (ch === quote || ch === "\\") out += `\\${ch}`;
    else if (ch === "\n") out += "\\n";
    else if (ch === "\r") out += "\\r";
    else if (ch === "\t") out += "\\t";
    else if (NON_PRINTABLE().test(ch)) out += escapeCodePoint(ch.codePointAt(0)!);
    else out += ch;
  }
  return out + quote;
}

/** Python `repr()` of a JSON value (`{'k': [1, 2.0, True, None]}`). Plain objects are read as dicts. */
export function pyRepr(v: PyValue | Record<string, PyValue>): string {
  if (v === null) return "None";
  switch (typeof v) {
    case "boolean":
      return v ? "True" : "False";
    case "string":
      return reprString(v);
    case "bigint":
      return v.toString();
    case "number":
      return floatRepr(v, "repr");
  }
  if (Array.isArray(v)) return `[${v.map((x) => pyRepr(x)).join(", ")}]`;
  const entries = v instanceof Map ? [...v.entries()] : Object.entries(v);
  return `{${entries.map(([k, x]) => `${reprString(k)}: ${pyRepr(x)}`).join(", ")}}`;
}

/** Python `str()` of a JSON value: strings stay themselves, everything else is its repr. */
export function pyStr(v: PyValue): string {
  return typeof v === "string" ? v : pyRepr(v);
}
