/**
 * arena.toml parsing plus where its top-level keys sit, so diagnostics can name a line.
 * smol-toml keeps no positions, hence the small scanner below; it only has to find keys at
 * line starts outside strings, arrays and tables.
 */
import { parse, TomlError } from "smol-toml";
import { DATA_MAX_DEPTH, type PyValue } from "@agentic-arena/py-semantics";

export type TomlTable = Record<string, unknown>;

export type TomlParse = { readonly ok: true; readonly table: TomlTable } | { readonly ok: false; readonly line: number; readonly reason: string };

export function parseToml(text: string): TomlParse {
  try {
    // Integers as bigint so messages can tell `1` from `1.0`, as Python's types do; nesting
    // bounded like the JSON files', so walks over the value (repr in messages) stay shallow.
    return { ok: true, table: parse(text, { integersAsBigInt: true, maxDepth: DATA_MAX_DEPTH }) as TomlTable };
  } catch (err) {
    if (!(err instanceof TomlError)) throw err;
    const reason = (err.message.split("\n")[0] ?? "").replace(/^Invalid TOML document: /, "");
    // An error at end of input is reported one past the last line; point at the last real one.
    const lastLine = Math.max(1, text.replace(/\r?\n$/, "").split("\n").length);
    return { ok: false, line: Math.min(err.line, lastLine), reason };
  }
}

/** Python's type name for a TOML value (the validator's messages speak Python). */
export function tomlTypeName(v: unknown): string {
  if (typeof v === "string") return "str";
  if (typeof v === "bigint") return "int";
  if (typeof v === "number") return "float";
  if (typeof v === "boolean") return "bool";
  if (Array.isArray(v)) return "list";
  if (v instanceof Date || (typeof v === "object" && v !== null && "toISOString" in v)) return "datetime";
  return "dict";
}

/** A TOML value as a PyValue, for pyRepr in messages. Dates become their text. */
export function tomlToPy(v: unknown): PyValue {
  if (v === undefined || v === null) return null;
  if (typeof v === "string" || typeof v === "bigint" || typeof v === "number" || typeof v === "boolean") return v;
  if (Array.isArray(v)) return v.map(tomlToPy);
  if (tomlTypeName(v) === "datetime") return String(v);
  return new Map(Object.entries(v as TomlTable).map(([k, x]) => [k, tomlToPy(x)]));
}

const KEY_AT_LINE_START = /^[ \t]*(?:([A-Za-z0-9_-]+)|"((?:[^"\\]|\\.)*)"|'([^']*)')[ \t]*=/;

/**
 * Top-level keys of a TOML document with the offset where each starts. Stops at the first
 * table header, since later keys belong to tables.
 */
export function topLevelKeyOffsets(text: string): Map<string, number> {
  const found = new Map<string, number>();
  let depth = 0;
  let i = 0;
  let atLineStart = true;
  while (i < text.length) {
    if (atLineStart && depth === 0) {
      atLineStart = false;
      const eol = text.indexOf("\n", i);
      const rest = text.slice(i, eol === -1 ? text.length : eol);
      if (/^[ \t]*\[/.test(rest)) return found;
      const m = KEY_AT_LINE_START.exec(rest);
      if (m) {
        const key = m[1] ?? m[2] ?? m[3] ?? "";
        if (!found.has(key)) found.set(key, i + rest.search(/\S/));
      }
    }
    const c = text[i]!;
    if (c === "\n") {
      atLineStart = true;
      i++;
    } else if (c === "#") {
      const nl = text.indexOf("\n", i);
      i = nl === -1 ? text.length : nl;
    } else if (text.startsWith('"""', i) || text.startsWith("'''", i)) {
      i = skipMultiLineString(text, i);
    } else if (c === '"') {
      i = skipBasicString(text, i + 1);
    } else if (c === "'") {
      const close = text.indexOf("'", i + 1);
      i = close === -1 ? text.length : close + 1;
    } else {
      if (c === "[" || c === "{") depth++;
      else if ((c === "]" || c === "}") && depth > 0) depth--;
      i++;
    }
  }
  return found;
}

function skipMultiLineString(text: string, start: number): number {
  const quote = text.slice(start, start + 3);
  let i = start + 3;
  while (i < text.length && !text.startsWith(quote, i)) i += quote === '"""' && text[i] === "\\" ? 2 : 1;
  i += 3;
  // A closing delimiter may be followed by up to two more quotes that belong to the string.
  while (text[i] === quote[0]) i++;
  return Math.min(i, text.length);
}

function skipBasicString(text: string, i: number): number {
  while (i < text.length && text[i] !== '"' && text[i] !== "\n") i += text[i] === "\\" ? 2 : 1;
  return i + 1;
}

export function lineAt(text: string, offset: number): number {
  return text.slice(0, offset).split("\n").length;
}

/** Where diagnostics about TOML keys point. */
export class TomlLines {
  private readonly text: string;
  private readonly keys: Map<string, number>;
  constructor(text: string) {
    this.text = text;
    this.keys = topLevelKeyOffsets(text);
  }

  /** Line of `key = …`; line 1 when the key is absent. */
  key(key: string): number {
    const at = this.keys.get(key);
    return at === undefined ? 1 : lineAt(this.text, at);
  }

  /** Line of a string element inside the array assigned to `key` (falls back to the key's line). */
  element(key: string, value: string): number {
    const at = this.keys.get(key);
    if (at === undefined) return 1;
    const candidates = [JSON.stringify(value), `'${value}'`]
      .map((needle) => this.text.indexOf(needle, at))
      .filter((pos) => pos !== -1);
    return lineAt(this.text, candidates.length > 0 ? Math.min(...candidates) : at);
  }
}
