/**
 * A JSON value with Python's distinctions kept: integers are `bigint` (arbitrary precision, as
 * Python `int`), floats are `number`, objects are `Map` (insertion order kept even for
 * integer-like keys, and a repeated key keeps its first position with the last value, as a
 * Python dict does). The difference between `3` and `3.0` is billed (it changes the serialised
 * text) and graded (`"type": "integer"`), so it may not be lost on the way through.
 */
export type PyValue = null | boolean | string | number | bigint | PyValue[] | PyDict;
export type PyDict = Map<string, PyValue>;

export function isPyDict(v: unknown): v is PyDict {
  return v instanceof Map;
}

/** Python's type name, as CPython prints it in error messages. */
export function pyTypeName(v: PyValue): string {
  if (v === null) return "NoneType";
  switch (typeof v) {
    case "boolean":
      return "bool";
    case "string":
      return "str";
    case "bigint":
      return "int";
    case "number":
      return "float";
  }
  return Array.isArray(v) ? "list" : "dict";
}

/**
 * Convert a plain JS value (e.g. from `JSON.parse` or an object literal) into a PyValue.
 * JS has one number type, so integral numbers become Python ints and the rest floats — the
 * same reading `json.loads` gives text that was written without a fractional part.
 */
export function fromJs(v: unknown): PyValue {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case "boolean":
    case "string":
    case "bigint":
      return v;
    case "number":
      return Number.isInteger(v) ? BigInt(v) : v;
  }
  if (Array.isArray(v)) return v.map(fromJs);
  if (v instanceof Map) {
    const out: PyDict = new Map();
    for (const [k, x] of v) out.set(String(k), fromJs(x));
    return out;
  }
  if (typeof v === "object") {
    const out: PyDict = new Map();
    for (const [k, x] of Object.entries(v as Record<string, unknown>)) out.set(k, fromJs(x));
    return out;
  }
  throw new TypeError(`cannot represent a ${typeof v} as JSON`);
}

/** Convert a PyValue back to plain JS (ints become numbers, dicts plain objects). */
export function toJs(v: PyValue): unknown {
  if (typeof v === "bigint") return Number(v);
  if (Array.isArray(v)) return v.map(toJs);
  if (v instanceof Map) {
    const out: Record<string, unknown> = {};
    for (const [k, x] of v) out[k] = toJs(x);
    return out;
  }
  return v;
}

/** Read a key of a dict-valued PyValue; `undefined` when `v` is not a dict or lacks the key. */
export function getKey(v: PyValue | undefined, key: string): PyValue | undefined {
  return v instanceof Map ? v.get(key) : undefined;
}
