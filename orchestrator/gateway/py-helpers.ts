/**
 * Small Python semantics the gateway needs on parsed request bodies (which are {@link PyValue}s,
 * so an int and a float stay distinct when re-serialised for billing).
 */
import { dumpsPy, dumpsString, floatRepr, type PyDict, type PyValue } from "@agentic-arena/py-semantics";

/** Python `bool(v)` for a JSON value. */
export function truthy(v: PyValue | undefined): boolean {
  if (v === undefined || v === null) return false;
  switch (typeof v) {
    case "boolean":
      return v;
    case "string":
      return v.length > 0;
    case "bigint":
      return v !== 0n;
    case "number":
      // NaN is truthy in Python.
      return v !== 0;
  }
  return Array.isArray(v) ? v.length > 0 : v.size > 0;
}

export function asDict(v: PyValue | undefined): PyDict | undefined {
  return v instanceof Map ? v : undefined;
}

export function asList(v: PyValue | undefined): readonly PyValue[] | undefined {
  return Array.isArray(v) ? v : undefined;
}

/** Python `str < str`: code point order, which differs from UTF-16 order for astral characters. */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x === y) continue;
    // Only when a surrogate meets a non-surrogate at or above U+E000 does UTF-16 order lie.
    const sx = x >= 0xd800 && x <= 0xdfff;
    const sy = y >= 0xd800 && y <= 0xdfff;
    if (sx !== sy) return sx ? 1 : -1;
    return x - y;
  }
  return a.length - b.length;
}

/** Python `json.dumps(v, sort_keys=True)`. */
export function dumpsSortedKeys(v: PyValue): string {
  if (Array.isArray(v)) return `[${v.map(dumpsSortedKeys).join(", ")}]`;
  if (v instanceof Map) {
    const keys = [...v.keys()].sort(compareCodePoints);
    return `{${keys.map((k) => `${dumpsString(k)}: ${dumpsSortedKeys(v.get(k) as PyValue)}`).join(", ")}}`;
  }
  return dumpsPy(v);
}

/** Number of Unicode code points (what Python's `len(str)` counts). */
export function codePointLength(s: string): number {
  let n = s.length;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    // A high surrogate followed by a low one is one code point; lone surrogates count alone.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < s.length) {
      const d = s.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) {
        n--;
        i++;
      }
    }
  }
  return n;
}

/** `len(json.dumps(s))` for a string, without building it. */
function dumpsStringLength(s: string): number {
  let n = s.length + 2;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0x20 && c < 0x7f) {
      if (c === 34 || c === 92) n += 1;
    } else if (c === 10 || c === 13 || c === 9 || c === 8 || c === 12) {
      n += 1;
    } else {
      // `\uXXXX` per UTF-16 unit: an astral character is a surrogate pair, 12 characters.
      n += 5;
    }
  }
  return n;
}

/**
 * `len(json.dumps(v))`, the billed size, without materialising the text: the gateway bills every
 * request, and the string it would build is thrown away. Equal to `dumpsPy(v).length` (tested).
 */
export function pyJsonLength(v: PyValue): number {
  if (v === null) return 4;
  switch (typeof v) {
    case "boolean":
      return v ? 4 : 5;
    case "string":
      return dumpsStringLength(v);
    case "bigint":
      return v.toString().length;
    case "number":
      return floatRepr(v, "json").length;
  }
  if (Array.isArray(v)) {
    let n = 2;
    for (let i = 0; i < v.length; i++) n += (i > 0 ? 2 : 0) + pyJsonLength(v[i] as PyValue);
    return n;
  }
  let n = 2;
  let first = true;
  for (const [k, x] of v as PyDict) {
    n += (first ? 0 : 2) + dumpsStringLength(k) + 2 + pyJsonLength(x);
    first = false;
  }
  return n;
}
