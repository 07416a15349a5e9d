/** `extract_json(text)` (arena-format.md §5.3): the first JSON value a model put in its answer. */
import { parsePyJson, pyStrip, PY_WS_CLASS_BODY, PyJsonError, type PyValue } from "@agentic-arena/py-semantics";

export const NO_JSON = "no JSON value found in output";

export type JsonExtraction = { readonly ok: true; readonly value: PyValue } | { readonly ok: false; readonly reason: string };

const WS = `[${PY_WS_CLASS_BODY}]*`;
// `u` so `json` folds like Python's Unicode IGNORECASE (e.g. U+017F matches `s`).
const FENCE = new RegExp(`\`\`\`(?:json)?${WS}(\\{[\\s\\S]*?\\}|\\[[\\s\\S]*?\\])${WS}\`\`\``, "iu");

/** The first `{…}` or `[…]` span, counting only the opening bracket's own kind (strings are not special). */
export function balancedSpan(t: string): string | undefined {
  const start = t.search(/[{[]/);
  if (start < 0) return undefined;
  const open = t[start]!;
  const close = open === "{" ? "}" : "]";
  let depth = 0;
  for (let i = start; i < t.length; i++) {
    const c = t[i];
    if (c === open) depth++;
    else if (c === close && --depth === 0) return t.slice(start, i + 1);
  }
  return undefined;
}

function* candidates(t: string): Generator<string> {
  yield t;
  const fenced = FENCE.exec(t)?.[1];
  if (fenced !== undefined) yield fenced;
  const span = balancedSpan(t);
  if (span !== undefined) yield span;
}

export function extractJson(text: string): JsonExtraction {
  for (const candidate of candidates(pyStrip(text))) {
    try {
      return { ok: true, value: parsePyJson(candidate) };
    } catch (e) {
      // RangeError: nesting deep enough to exhaust the stack is simply not a usable value.
      if (!(e instanceof PyJsonError) && !(e instanceof RangeError)) throw e;
    }
  }
  return { ok: false, reason: NO_JSON };
}
