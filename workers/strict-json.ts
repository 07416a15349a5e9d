/**
 * What may cross a restart: only null, booleans, finite numbers, strings, arrays and plain objects.
 * `JSON.stringify` silently drops `undefined`, turns a Map into `{}` and NaN into `null`, so an
 * adapter handing back a live object would "pass" with a mangled state; this check makes that a
 * clear error instead (harness.md §4 strictJsonRoundTrip).
 */
export class NotJsonError extends Error {
  override readonly name = "NotJsonError";
}

export function assertStrictJson(value: unknown, path = "resume_state", seen = new Set<object>()): void {
  if (value === null || typeof value === "boolean" || typeof value === "string") return;
  if (typeof value === "number") {
    if (!Number.isFinite(value)) throw new NotJsonError(`${path} is ${value}, which JSON cannot represent`);
    return;
  }
  if (typeof value !== "object") throw new NotJsonError(`${path} is a ${typeof value}`);
  if (seen.has(value)) throw new NotJsonError(`${path} is a circular reference`);
  seen.add(value);
  if (Array.isArray(value)) {
    value.forEach((v, i) => assertStrictJson(v, `${path}[${i}]`, seen));
  } else {
    const proto = Object.getPrototypeOf(value);
    if (proto !== Object.prototype && proto !== null) {
      throw new NotJsonError(`${path} is a ${value.constructor?.name ?? "non-plain object"}, not a plain object`);
    }
    for (const [k, v] of Object.entries(value)) assertStrictJson(v, `${path}.${k}`, seen);
  }
  seen.delete(value);
}
