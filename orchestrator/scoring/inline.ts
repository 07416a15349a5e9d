/**
 * Which items may be scored on the orchestrator's own event loop with no watchdog (run/scorer.ts
 * says what happens to the rest). Only what the check catalogue and the input's size guarantee
 * counts here, never the pattern itself: telling a safe regex from a catastrophic one is the
 * problem we avoid solving.
 */
import type { Check } from "../arena/schemas.ts";
import { runsDataRegex } from "./catalogue.ts";
import type { ScoreInput } from "./types.ts";

/**
 * Longest `outputText` (UTF-16 code units) scored inline. Without data regexes the remaining
 * cost is our own fixed patterns, and some are superlinear in the text: the fence regex of
 * extract-json.ts is quadratic (`"```{"` repeated costs ~1–3 ms per JSON check at 8 Ki, but
 * ~0.2–0.4 s at 64 Ki, and a structured-output item runs five JSON checks). Bounding the text
 * bounds that stall to ~10 ms at worst; real answers are far shorter, and a longer one is still
 * scored, just off-loop.
 */
export const INLINE_TEXT_LIMIT = 8 * 1024;

export function runsAnyDataRegex(checks: readonly Check[]): boolean {
  return checks.some((c) => runsDataRegex(c.get("type")));
}

export function scoresInline(checks: readonly Check[], input: ScoreInput): boolean {
  // scoreItem runs no check at all for an adapter error (Python truthiness: "" is no error).
  if (input.error !== null && input.error !== "") return true;
  // Tool names are only compared whole (`includes`, `===`), which is linear: no bound needed.
  return input.outputText.length <= INLINE_TEXT_LIMIT && !runsAnyDataRegex(checks);
}
