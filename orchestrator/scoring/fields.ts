/**
 * Reading and coercing check fields the way the original did (`int(check["value"])`,
 * `float(check.get("tol", 0))`). The original crashed on a field Python could not coerce; the
 * port fails that one check instead, so a bad field surfaces as {@link FieldError}.
 */
import { PyError, pyFloat, pyInt, pyTypeName, reprString, type PyDict, type PyValue } from "@agentic-arena/py-semantics";
import type { Check } from "../arena/schemas.ts";

export class FieldError extends Error {
  override readonly name = "FieldError";
}

export function field(check: Check, name: string): PyValue;
export function field(check: Check, name: string, fallback: PyValue): PyValue;
export function field(check: Check, name: string, fallback?: PyValue): PyValue {
  const v = check.get(name);
  if (v !== undefined) return v;
  if (fallback !== undefined) return fallback;
  throw new FieldError(`missing ${reprString(name)}`);
}

function coerce<T>(name: string, v: PyValue, convert: (v: PyValue) => T): T {
  try {
    return convert(v);
  } catch (e) {
    if (e instanceof PyError) throw new FieldError(`invalid ${reprString(name)} (${e.message})`);
    throw e;
  }
}

/** Python `int(check[name])`. */
export function intField(check: Check, name: string, fallback?: bigint): bigint {
  const v = fallback === undefined ? field(check, name) : field(check, name, fallback);
  return coerce(name, v, pyInt);
}

/** Python `float(check[name])`. */
export function floatField(check: Check, name: string, fallback?: number): number {
  const v = fallback === undefined ? field(check, name) : field(check, name, fallback);
  return coerce(name, v, pyFloat);
}

/** A field the original used as a string method receiver (`path.split`), where `str()` was never applied. */
export function stringField(check: Check, name: string): string {
  const v = field(check, name);
  if (typeof v === "string") return v;
  throw new FieldError(`invalid ${reprString(name)} (must be a string, got ${pyTypeName(v)})`);
}

export function dictField(check: Check, name: string): PyDict {
  const v = field(check, name);
  if (v instanceof Map) return v;
  throw new FieldError(`invalid ${reprString(name)} (must be an object, got ${pyTypeName(v)})`);
}
