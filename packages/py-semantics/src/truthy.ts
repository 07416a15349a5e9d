import type { PyValue } from "./value.ts";

/** Python truthiness of a JSON value; the original tests `if not x` on ids, matches and faults. */
export function pyTruthy(v: PyValue | undefined): boolean {
  if (v === undefined || v === null || v === false || v === "" || v === 0 || v === 0n) return false;
  if (Array.isArray(v)) return v.length > 0;
  if (v instanceof Map) return v.size > 0;
  return true;
}
