/** Shared builders for the scoring tests: checks are written as JSON text, as in dataset.jsonl. */
import { parsePyJson, type PyDict } from "@agentic-arena/py-semantics";
import type { ScoreInput } from "../../orchestrator/scoring/types.ts";

export function check(json: string): PyDict {
  const v = parsePyJson(json);
  if (!(v instanceof Map)) throw new Error(`not an object: ${json}`);
  return v;
}

export function input(overrides: Partial<ScoreInput> = {}): ScoreInput {
  return { outputText: "", toolNames: [], beforeSuspend: [], suspends: 0, error: null, ...overrides };
}
