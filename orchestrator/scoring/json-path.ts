/** Path reading and comparison for `json_path_equals` (arena-format.md §5.5). */
import { PyError, pyEquals, pyInt, pyRepr, pyStrip, pyTypeName, type PyValue } from "@agentic-arena/py-semantics";

export type PathRead = { readonly ok: true; readonly value: PyValue } | { readonly ok: false; readonly reason: string };

function step(current: PyValue, part: string): PathRead {
  if (Array.isArray(current)) {
    let index: bigint;
    try {
      index = pyInt(part);
    } catch (e) {
      if (e instanceof PyError) return { ok: false, reason: e.message };
      throw e;
    }
    // Python list indexing: a negative index counts from the end.
    const at = index < 0n ? index + BigInt(current.length) : index;
    if (at < 0n || at >= BigInt(current.length)) return { ok: false, reason: `index ${index} out of range` };
    return { ok: true, value: current[Number(at)]! };
  }
  if (current instanceof Map) {
    return current.has(part) ? { ok: true, value: current.get(part)! } : { ok: false, reason: `missing key ${pyRepr(part)}` };
  }
  return { ok: false, reason: `cannot read ${pyRepr(part)} from a value of type ${pyTypeName(current)}` };
}

/** Walk `path.split(".")` from `root`: list parts are Python `int()`s, dict parts exact keys. */
export function readPath(root: PyValue, path: string): PathRead {
  let value = root;
  for (const part of path.split(".")) {
    const read = step(value, part);
    if (!read.ok) return read;
    value = read.value;
  }
  return { ok: true, value };
}

/** Equality without `tol`: two strings compare stripped and lower-cased, anything else by Python `==`. */
export function pathValuesEqual(actual: PyValue, expected: PyValue): boolean {
  if (typeof actual === "string" && typeof expected === "string") {
    return pyStrip(actual).toLowerCase() === pyStrip(expected).toLowerCase();
  }
  return pyEquals(actual, expected);
}
