/**
 * String and bytes literals as CPython 3.11 reads them: escape decoding (with the codec's exact
 * error text), and `repr()` of the resulting constants for "unsupported constant: ..." messages.
 */
import { floatRepr } from "../index.ts";
import { isPrintable } from "./tokenizer.ts";

/** How a literal-decoding failure is reported: CPython raises it at the last token read. */
export type RaiseHere = (message: string) => never;

export interface StringPrefix {
  readonly bytes: boolean;
  readonly raw: boolean;
  readonly fstring: boolean;
  /** The text between the quotes. */
  readonly body: string;
}

export function splitStringToken(text: string): StringPrefix {
  let k = 0;
  let bytes = false;
  let raw = false;
  let fstring = false;
  for (; /[a-zA-Z]/.test(text[k] ?? ""); k++) {
    const c = text[k]!.toLowerCase();
    if (c === "b") bytes = true;
    else if (c === "r") raw = true;
    else if (c === "f") fstring = true;
  }
  const quote = text[k]!;
  const triple = text.startsWith(quote.repeat(3), k) && text.length - k >= 6;
  const q = triple ? 3 : 1;
  return { bytes, raw, fstring, body: text.slice(k + q, text.length - q) };
}

const hex = (n: number, width: number): string => n.toString(16).padStart(width, "0");

function codecError(buffer: string, start: number, end: number, reason: string): string {
  const where =
    end - start === 1
      ? `byte 0x${hex(buffer.charCodeAt(start), 2)} in position ${start}`
      : `bytes in position ${start}-${end - 1}`;
  return `(unicode error) 'unicodeescape' codec can't decode ${where}: ${reason}`;
}

const SIMPLE_ESCAPES: Record<string, number> = {
  "\\": 0x5c, "'": 0x27, '"': 0x22, b: 0x08, f: 0x0c, t: 0x09, n: 0x0a, r: 0x0d, v: 0x0b, a: 0x07,
};

/**
 * A non-raw str literal. CPython first rewrites every non-ASCII character as `\Uxxxxxxxx` (and a
 * backslash before one as `\u005c`) and runs the `unicode_escape` codec on the result, so error
 * positions count in that rewritten buffer; reproducing the rewrite reproduces the positions.
 */
export function decodeStringLiteral(body: string, raise: RaiseHere): number[] {
  const chars = Array.from(body);
  if (!chars.includes("\\")) return chars.map((c) => c.codePointAt(0)!);
  let buffer = "";
  for (let k = 0; k < chars.length; ) {
    if (chars[k] === "\\") {
      buffer += "\\";
      k++;
      if (k >= chars.length || chars[k]!.codePointAt(0)! >= 0x80) {
        buffer += "u005c";
        if (k >= chars.length) break;
      }
    }
    const cp = chars[k]!.codePointAt(0)!;
    buffer += cp >= 0x80 ? `\\U${hex(cp, 8)}` : chars[k]!;
    k++;
  }
  return unicodeEscape(buffer, raise);
}

function unicodeEscape(b: string, raise: RaiseHere): number[] {
  const out: number[] = [];
  const n = b.length;
  let i = 0;
  while (i < n) {
    if (b[i] !== "\\") {
      out.push(b.charCodeAt(i++));
      continue;
    }
    const start = i++;
    if (i >= n) raise(codecError(b, start, i, "\\ at end of string"));
    const c = b[i++]!;
    if (c === "\n") continue;
    const simple = SIMPLE_ESCAPES[c];
    if (simple !== undefined) {
      out.push(simple);
      continue;
    }
    if (c >= "0" && c <= "7") {
      let value = c.charCodeAt(0) - 48;
      for (let more = 0; more < 2 && i < n && b[i]! >= "0" && b[i]! <= "7"; more++) {
        value = value * 8 + (b.charCodeAt(i++) - 48);
      }
      out.push(value);
      continue;
    }
    if (c === "x" || c === "u" || c === "U") {
      const count = c === "x" ? 2 : c === "u" ? 4 : 8;
      const reason = c === "x" ? "truncated \\xXX escape" : c === "u" ? "truncated \\uXXXX escape" : "truncated \\UXXXXXXXX escape";
      let value = 0;
      for (let k = 0; k < count; k++, i++) {
        if (i >= n || !/[0-9a-fA-F]/.test(b[i]!)) raise(codecError(b, start, i, reason));
        value = value * 16 + Number.parseInt(b[i]!, 16);
      }
      if (value > 0x10ffff) raise(codecError(b, start, i, "illegal Unicode character"));
      out.push(value);
      continue;
    }
    if (c === "N") {
      // Named escapes need the Unicode name database, which JS does not ship: every name is
      // reported as unknown (a documented divergence; calculator input never uses them).
      let reason = "malformed \\N character escape";
      if (i < n && b[i] === "{") {
        const nameStart = ++i;
        while (i < n && b[i] !== "}") i++;
        if (i < n && i > nameStart) {
          i++;
          reason = "unknown Unicode character name";
        }
      }
      raise(codecError(b, start, i, reason));
    }
    // An unknown escape keeps its backslash (CPython only warns).
    out.push(0x5c, c.charCodeAt(0));
  }
  return out;
}

export const BYTES_NON_ASCII = "bytes can only contain ASCII literal characters";

/** A bytes literal body (already checked to be ASCII). */
export function decodeBytesLiteral(body: string, raw: boolean, raise: RaiseHere): number[] {
  const out: number[] = [];
  const n = body.length;
  if (raw || !body.includes("\\")) {
    for (let i = 0; i < n; i++) out.push(body.charCodeAt(i));
    return out;
  }
  let i = 0;
  while (i < n) {
    if (body[i] !== "\\") {
      out.push(body.charCodeAt(i++));
      continue;
    }
    i++;
    const c = body[i++] ?? "";
    if (c === "\n") continue;
    const simple = SIMPLE_ESCAPES[c];
    if (simple !== undefined) {
      out.push(simple);
      continue;
    }
    if (c >= "0" && c <= "7" && c !== "") {
      let value = c.charCodeAt(0) - 48;
      for (let more = 0; more < 2 && i < n && body[i]! >= "0" && body[i]! <= "7"; more++) {
        value = value * 8 + (body.charCodeAt(i++) - 48);
      }
      out.push(value & 0xff);
      continue;
    }
    if (c === "x") {
      if (i + 1 < n && /^[0-9a-fA-F]{2}$/.test(body.slice(i, i + 2))) {
        out.push(Number.parseInt(body.slice(i, i + 2), 16));
        i += 2;
        continue;
      }
      raise(`(value error) invalid \\x escape at position ${i - 2}`);
    }
    out.push(0x5c);
    i--;
  }
  return out;
}

/** Python `repr(str)` over code points (a lone surrogate stays one escaped code point). */
export function reprCodePoints(cps: readonly number[]): string {
  const has = (c: number): boolean => cps.includes(c);
  const quote = has(0x27) && !has(0x22) ? 0x22 : 0x27;
  let out = String.fromCharCode(quote);
  for (const cp of cps) {
    if (cp === quote || cp === 0x5c) out += `\\${String.fromCharCode(cp)}`;
    else if (cp === 0x09) out += "\\t";
    else if (cp === 0x0a) out += "\\n";
    else if (cp === 0x0d) out += "\\r";
    else if (!isPrintable(String.fromCodePoint(cp))) {
      out += cp <= 0xff ? `\\x${hex(cp, 2)}` : cp <= 0xffff ? `\\u${hex(cp, 4)}` : `\\U${hex(cp, 8)}`;
    } else out += String.fromCodePoint(cp);
  }
  return out + String.fromCharCode(quote);
}

/** Python `repr(bytes)`. */
export function reprBytes(bytes: readonly number[]): string {
  const quote = bytes.includes(0x27) && !bytes.includes(0x22) ? 0x22 : 0x27;
  let out = `b${String.fromCharCode(quote)}`;
  for (const b of bytes) {
    if (b === quote || b === 0x5c) out += `\\${String.fromCharCode(b)}`;
    else if (b === 0x09) out += "\\t";
    else if (b === 0x0a) out += "\\n";
    else if (b === 0x0d) out += "\\r";
    else if (b < 0x20 || b >= 0x7f) out += `\\x${hex(b, 2)}`;
    else out += String.fromCharCode(b);
  }
  return out + String.fromCharCode(quote);
}

/** Python `repr()` of a pure-imaginary literal: `1j`, `1.5j`, `1e+20j`, `infj` (no `.0`). */
export function reprImaginary(imag: number): string {
  return `${floatRepr(imag).replace(/\.0$/, "")}j`;
}
