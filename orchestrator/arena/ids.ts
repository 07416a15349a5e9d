/**
 * Arena and item ids name folders and files of a run (records, checkpoints, scorecards), so one
 * that could climb out of its root (`../../x`, `/tmp/x`) is refused when the arena is read, long
 * before anything is written or deleted. The loader and the validator share this text.
 */
import { pyRepr } from "@agentic-arena/py-semantics";
import { isSafeId } from "../files/safe-path.ts";

/** `SAFE_ID` (files/safe-path.ts) in words. */
const SAFE_ID_RULE = "letters, digits, '_', '.', '-'; must start with a letter or digit; at most 128 characters";

/** Long enough to recognise the id, short enough that a hostile one cannot flood the terminal. */
const SHOWN_CHARS = 64;

/** The message for an id that is not a safe name, or `undefined` when it is one. */
export function unsafeIdProblem(id: string): string | undefined {
  if (isSafeId(id)) return undefined;
  const chars = Array.from(id);
  const shown = chars.length > SHOWN_CHARS ? `${pyRepr(chars.slice(0, SHOWN_CHARS).join(""))}… (${chars.length} characters)` : pyRepr(id);
  return `id ${shown} is not a safe name (${SAFE_ID_RULE})`;
}
