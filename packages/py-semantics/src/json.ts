/**
 * Python-compatible JSON: `json.loads` (ints vs floats kept, NaN/Infinity accepted, duplicate
 * keys last-wins, strict control characters) and `json.dumps` with default arguments, which is
 * the text the reference implementation bills (`, ` / `: ` separators, ASCII-only escapes,
 * Python float repr). `JSON.stringify` differs in all three, so it must not be used for billing.
 */
import { floatRepr } from "./float.ts";
import type { PyDict, PyValue } from "./value.ts";

export class PyJsonError extends Error {
  override readonly name = "PyJsonError";
  /** Bare reason, e.g. `Expecting ',' delimiter`. */
  readonly reason: string;
  /** 1-based line and column, 0-based char offset (Python's `lineno`, `colno`, `pos`). */
  readonly line: number;
  readonly column: number;
  readonly pos: number;
  constructor(reason: string, text: string, pos: number) {
    const before = text.slice(0, pos);
    const line = before.split("\n").length;
    const column = pos - (before.lastIndexOf("\n") + 1) + 1;
    super(`${reason}: line ${line} column ${column} (char ${pos})`);
    this.reason = reason;
    this.line = line;
    this.column = column;
    this.pos = pos;
  }
}

/** Where each container of a parsed document starts, for `file:line:` diagnostics. */
export interface JsonLines {
  /** Line (1-based) on which an array or object value starts. */
  of(node: object): number | undefined;
  /** Line of the key `key` inside the object `node`. */
  ofKey(node: PyDict, key: string): number | undefined;
}

/**
 * How deep the harness's own data files (arena files, the search corpus) may nest. Python stops
 * near 1,000 levels with a RecursionError and JS with a RangeError; the deepest shipped file (a
 * mock script) nests 8, and a bound this low keeps every later recursive walk (repr, str()) safe.
 */
export const DATA_MAX_DEPTH = 64;

export interface PyJsonOptions {
  /** Containers deeper than this are a {@link PyJsonError}; unbounded when absent. */
  readonly maxDepth?: number;
}

const NUMBER = /-?(?:0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?/y;
const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };

class Parser {
  private pos = 0;
  private line = 1;
  private lineStart = 0;
  private depth = 0;
  /**
   * Where containers and keys start, only for {@link parsePyJsonWithLines}: keeping them costs a
   * WeakMap entry per container and a Map per object, which a request body parsed on every
   * served call (the gateway) or every leg never reads.
   */
  readonly lines: { readonly nodes: WeakMap<object, number>; readonly keys: WeakMap<PyDict, Map<string, number>> } | undefined;

  private readonly text: string;
  private readonly maxDepth: number;
  constructor(text: string, options: PyJsonOptions = {}, withLines = false) {
    this.text = text;
    this.maxDepth = options.maxDepth ?? Number.POSITIVE_INFINITY;
    this.lines = withLines ? { nodes: new WeakMap(), keys: new WeakMap() } : undefined;
  }

  parseDocument(): PyValue {
    this.skipWs();
    const value = this.parseValue();
    this.skipWs();
    if (this.pos !== this.text.length) throw this.fail("Extra data");
    return value;
  }

  private fail(reason: string, at = this.pos): PyJsonError {
    return new PyJsonError(reason, this.text, at);
  }

  private currentLine(): number {
    // Lines are counted lazily: only containers ask, so scanning once per container is cheap.
    for (let i = this.lineStart; i < this.pos; i++) {
      if (this.text.charCodeAt(i) === 10) this.line++;
    }
    this.lineStart = this.pos;
    return this.line;
  }

  private skipWs(): void {
    // JSON's whitespace (space, tab, LF, CR), as `[ \t\n\r]*`: a loop, since this runs between
    // every two tokens and a sticky regex's exec there was a tenth of the gateway's parse time.
    const t = this.text;
    let i = this.pos;
    for (let c = t.charCodeAt(i); c === 32 || c === 9 || c === 10 || c === 13; c = t.charCodeAt(++i));
    this.pos = i;
  }

  private parseValue(): PyValue {
    const t = this.text;
    const c = t[this.pos];
    if (c === '"') return this.parseString();
    if (c === "{" || c === "[") {
      if (this.depth >= this.maxDepth) throw this.fail(`Nested deeper than ${this.maxDepth} levels`);
      this.depth++;
      const v = c === "{" ? this.parseObject() : this.parseArray();
      this.depth--;
      return v;
    }
    if (t.startsWith("null", this.pos)) return this.advance(4, null);
    if (t.startsWith("true", this.pos)) return this.advance(4, true);
    if (t.startsWith("false", this.pos)) return this.advance(5, false);
    if (t.startsWith("NaN", this.pos)) return this.advance(3, Number.NaN);
    if (t.startsWith("Infinity", this.pos)) return this.advance(8, Number.POSITIVE_INFINITY);
    if (t.startsWith("-Infinity", this.pos)) return this.advance(9, Number.NEGATIVE_INFINITY);
    NUMBER.lastIndex = this.pos;
    const m = NUMBER.exec(t);
    if (m) {
      this.pos = NUMBER.lastIndex;
      if (m[1] === undefined && m[2] === undefined) return BigInt(m[0]);
      return Number(m[0]);
    }
    throw this.fail("Expecting value");
  }

  private advance<T extends PyValue>(n: number, v: T): T {
    this.pos += n;
    return v;
  }

  private parseString(): string {
    const t = this.text;
    const start = this.pos;
    let i = this.pos + 1;
    let out = "";
    let chunk = i;
    for (;;) {
      if (i >= t.length) throw this.fail("Unterminated string starting at", start);
      const code = t.charCodeAt(i);
      if (code === 34) {
        out += t.slice(chunk, i);
        this.pos = i + 1;
        return out;
      }
      if (code < 0x20) throw this.fail("Invalid control character at", i);
      if (code !== 92) {
        i++;
        continue;
      }
      out += t.slice(chunk, i);
      const esc = t[i + 1];
      if (esc === undefined) throw this.fail("Unterminated string starting at", start);
      if (esc === "u") {
        const unit = this.hex4(i + 2, i);
        i += 6;
        if (unit >= 0xd800 && unit <= 0xdbff && t[i] === "\\" && t[i + 1] === "u") {
          const low = this.hex4(i + 2, i);
          if (low >= 0xdc00 && low <= 0xdfff) {
            out += String.fromCharCode(unit, low);
            i += 6;
            chunk = i;
            continue;
          }
        }
        out += String.fromCharCode(unit);
      } else {
        const mapped = ESCAPES[esc];
        if (mapped === undefined) throw this.fail("Invalid \\escape", i);
        out += mapped;
        i += 2;
      }
      chunk = i;
    }
  }

  private hex4(at: number, escapeStart: number): number {
    const digits = this.text.slice(at, at + 4);
    if (!/^[0-9a-fA-F]{4}$/.test(digits)) throw this.fail("Invalid \\uXXXX escape", escapeStart);
    return Number.parseInt(digits, 16);
  }

  private parseObject(): PyDict {
    const dict: PyDict = new Map();
    const lines = this.lines;
    const keyLines = lines === undefined ? undefined : new Map<string, number>();
    if (lines !== undefined) {
      lines.nodes.set(dict, this.currentLine());
      lines.keys.set(dict, keyLines!);
    }
    this.pos++;
    this.skipWs();
    if (this.text[this.pos] === "}") {
      this.pos++;
      return dict;
    }
    for (;;) {
      if (this.text[this.pos] !== '"') throw this.fail("Expecting property name enclosed in double quotes");
      const keyLine = keyLines === undefined ? 0 : this.currentLine();
      const key = this.parseString();
      this.skipWs();
      if (this.text[this.pos] !== ":") throw this.fail("Expecting ':' delimiter");
      this.pos++;
      this.skipWs();
      dict.set(key, this.parseValue());
      if (keyLines !== undefined && !keyLines.has(key)) keyLines.set(key, keyLine);
      this.skipWs();
      const c = this.text[this.pos];
      if (c === "}") {
        this.pos++;
        return dict;
      }
      if (c !== ",") throw this.fail("Expecting ',' delimiter");
      this.pos++;
      this.skipWs();
    }
  }

  private parseArray(): PyValue[] {
    const arr: PyValue[] = [];
    this.lines?.nodes.set(arr, this.currentLine());
    this.pos++;
    this.skipWs();
    if (this.text[this.pos] === "]") {
      this.pos++;
      return arr;
    }
    for (;;) {
      arr.push(this.parseValue());
      this.skipWs();
      const c = this.text[this.pos];
      if (c === "]") {
        this.pos++;
        return arr;
      }
      if (c !== ",") throw this.fail("Expecting ',' delimiter");
      this.pos++;
      this.skipWs();
    }
  }
}

/** Python `json.loads`. Throws {@link PyJsonError}. */
export function parsePyJson(text: string, options?: PyJsonOptions): PyValue {
  return new Parser(text, options).parseDocument();
}

/** `json.loads` that also reports the line where each container and key starts. */
export function parsePyJsonWithLines(text: string, options?: PyJsonOptions): { value: PyValue; lines: JsonLines } {
  const parser = new Parser(text, options, true);
  const value = parser.parseDocument();
  const lines = parser.lines!;
  return {
    value,
    lines: {
      of: (node) => lines.nodes.get(node),
      ofKey: (node, key) => lines.keys.get(node)?.get(key),
    },
  };
}

function hex4(code: number): string {
  return `\\u${code.toString(16).padStart(4, "0")}`;
}

/** `json.dumps(s)` for one string: ASCII-only, lowercase `\uXXXX`, surrogate pairs for astral code points. */
export function dumpsString(s: string): string {
  let out = '"';
  let chunk = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f && c !== 34 && c !== 92) continue;
    out += s.slice(chunk, i);
    chunk = i + 1;
    switch (c) {
      case 34:
        out += '\\"';
        break;
      case 92:
        out += "\\\\";
        break;
      case 10:
        out += "\\n";
        break;
      case 13:
        out += "\\r";
        break;
      case 9:
        out += "\\t";
        break;
      case 8:
        out += "\\b";
        break;
      case 12:
        out += "\\f";
        break;
      default:
        out += hex4(c);
    }
  }
  return out + s.slice(chunk) + '"';
}

/** JSON-serialisable input to {@link dumpsPy}: PyValues, plus plain objects for convenience (numbers there are floats). */
export type Dumpable = PyValue | { readonly [key: string]: Dumpable } | readonly Dumpable[];

/** Python `json.dumps(value)` with default arguments. */
export function dumpsPy(value: Dumpable): string {
  if (value === null) return "null";
  switch (typeof value) {
    case "boolean":
      return value ? "true" : "false";
    case "string":
      return dumpsString(value);
    case "bigint":
      return value.toString();
    case "number":
      return floatRepr(value, "json");
  }
  if (Array.isArray(value)) {
    let out = "[";
    for (let i = 0; i < value.length; i++) out += (i ? ", " : "") + dumpsPy(value[i] as Dumpable);
    return out + "]";
  }
  const entries: Iterable<[string, Dumpable]> =
    value instanceof Map ? value.entries() : Object.entries(value as Record<string, Dumpable>);
  let out = "{";
  let first = true;
  for (const [k, v] of entries) {
    if (v === undefined) continue;
    out += (first ? "" : ", ") + dumpsString(k) + ": " + dumpsPy(v);
    first = false;
  }
  return out + "}";
}
