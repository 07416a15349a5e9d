/**
 * Python's `int()`, `float()` and `==` over JSON values. Arena data was written against the
 * Python implementation, so coercions of check fields and tool arguments must accept and reject
 * exactly what CPython does — and fail with CPython's message, which reaches the model verbatim
 * through a tool's error string.
 */
import { reprString } from "./repr.ts";
import { pyStrip } from "./whitespace.ts";
import { pyTypeName, type PyValue } from "./value.ts";

/** A Python exception as data: its class name and message. */
export type PyErrorType = "ValueError" | "TypeError" | "OverflowError" | "ZeroDivisionError" | "SyntaxError";

export class PyError extends Error {
  override readonly name = "PyError";
  readonly pyType: PyErrorType;
  constructor(pyType: PyErrorType, message: string) {
    super(message);
    this.pyType = pyType;
  }
}

const DECIMAL_DIGIT = /\p{Nd}/u;

/**
 * Map every Unicode decimal digit to ASCII (Python's `int()`/`float()` accept any of them).
 * Unicode guarantees `Nd` digits come in contiguous runs of complete 0–9 blocks, so a digit's
 * value is its distance from the start of its run, modulo 10.
 */
export function asciiDigits(s: string): string {
  return s.replace(/\p{Nd}/gu, (d) => {
    const cp = d.codePointAt(0)!;
    let below = 0;
    while (DECIMAL_DIGIT.test(String.fromCodePoint(cp - below - 1))) below++;
    return String(below % 10);
  });
}

const INT_LITERAL = /^[+-]?[0-9](?:_?[0-9])*$/;
const FLOAT_LITERAL = /^[+-]?(?:(?:[0-9](?:_?[0-9])*)?\.[0-9](?:_?[0-9])*|[0-9](?:_?[0-9])*\.?)(?:[eE][+-]?[0-9](?:_?[0-9])*)?$/;
const SPECIAL_FLOAT = /^([+-]?)(inf|infinity|nan)$/i;

/** Python `int(v)` (base 10). Throws {@link PyError} with CPython's message. */
export function pyInt(v: PyValue): bigint {
  if (typeof v === "bigint") return v;
  if (typeof v === "boolean") return v ? 1n : 0n;
  if (typeof v === "number") {
    if (Number.isNaN(v)) throw new PyError("ValueError", "cannot convert float NaN to integer");
    if (!Number.isFinite(v)) throw new PyError("OverflowError", "cannot convert float infinity to integer");
    return BigInt(Math.trunc(v));
  }
  if (typeof v === "string") {
    const literal = asciiDigits(pyStrip(v));
    if (INT_LITERAL.test(literal)) return BigInt(literal.replaceAll("_", ""));
    throw new PyError("ValueError", `invalid literal for int() with base 10: ${reprString(v)}`);
  }
  throw new PyError(
    "TypeError",
    `int() argument must be a string, a bytes-like object or a real number, not '${pyTypeName(v)}'`,
  );
}

/** Python `float(v)`. Throws {@link PyError} with CPython's message. */
export function pyFloat(v: PyValue): number {
  if (typeof v === "number") return v;
  if (typeof v === "boolean") return v ? 1 : 0;
  if (typeof v === "bigint") {
    const f = Number(v);
    if (!Number.isFinite(f)) throw new PyError("OverflowError", "int too large to convert to float");
    return f;
  }
  if (typeof v === "string") {
    const literal = asciiDigits(pyStrip(v));
    const special = SPECIAL_FLOAT.exec(literal);
    if (special) {
      const value = special[2]!.toLowerCase() === "nan" ? Number.NaN : Number.POSITIVE_INFINITY;
      return special[1] === "-" ? -value : value;
    }
    if (FLOAT_LITERAL.test(literal)) return Number(literal.replaceAll("_", ""));
    throw new PyError("ValueError", `could not convert string to float: ${reprString(v)}`);
  }
  throw new PyError("TypeError", `float() argument must be a string or a real number, not '${pyTypeName(v)}'`);
}

/** Python `==` between JSON values: numbers by value across int/float/bool, containers recursively. */
export function pyEquals(a: PyValue, b: PyValue): boolean {
  const na = numericValue(a);
  const nb = numericValue(b);
  if (na !== undefined || nb !== undefined) {
    if (na === undefined || nb === undefined) return false;
    return numbersEqual(na, nb);
  }
  if (a === null || b === null) return a === b;
  if (typeof a === "string" || typeof b === "string") return a === b;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((x, i) => pyEquals(x, b[i]!));
  }
  const da = a as Map<string, PyValue>;
  const db = b as Map<string, PyValue>;
  if (da.size !== db.size) return false;
  for (const [k, x] of da) {
    if (!db.has(k) || !pyEquals(x, db.get(k)!)) return false;
  }
  return true;
}

function numericValue(v: PyValue): bigint | number | undefined {
  if (typeof v === "boolean") return v ? 1n : 0n;
  if (typeof v === "bigint" || typeof v === "number") return v;
  return undefined;
}

function numbersEqual(a: bigint | number, b: bigint | number): boolean {
  if (typeof a === "bigint" && typeof b === "bigint") return a === b;
  if (typeof a === "number" && typeof b === "number") return a === b;
  const [i, f] = typeof a === "bigint" ? [a, b as number] : [b as bigint, a];
  return Number.isInteger(f) && BigInt(f) === i;
}

