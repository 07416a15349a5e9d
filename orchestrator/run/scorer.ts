/**
 * Scoring for a run. Checks run off the orchestrator's event loop (the mock gateway shares that
 * loop, and a pathological regex from a data file must neither stall it nor distort latency).
 */
import type { Check } from "../arena/schemas.ts";
import type { ItemScore, ScoreInput } from "../scoring/types.ts";
import { createScoringPool } from "../scoring/pool.ts";

export interface Scorer {
  score(checks: readonly Check[], input: ScoreInput): Promise<ItemScore>;
  close(): Promise<void>;
}

export function createScorer(options: { deadlineMs: number }): Scorer {
  const pool = createScoringPool();
  return {
    score: (checks, input) => pool.scoreOffLoop(checks, input, { deadlineMs: options.deadlineMs }),
    close: () => pool.destroy(),
  };
}
