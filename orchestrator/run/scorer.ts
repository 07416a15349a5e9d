/**
 * Scoring for a run. An item that might run long (a regex from a data file, or a text too long
 * for our own patterns to be cheap; see scoring/inline.ts) is scored off the orchestrator's
 * event loop, which the mock gateway shares: it must neither stall it nor distort latency. Every
 * other item is scored inline, saving the thread hop per item, and the thread pool is only
 * started once an item needs it (or is known to come), so a run without such items never pays a
 * thread's start-up. Both paths run the same `scoreItem`, so they give the same result.
 */
import type { Check } from "../arena/schemas.ts";
import { runsAnyDataRegex, scoresInline } from "../scoring/inline.ts";
import { createScoringPool, type ScoringPool } from "../scoring/regex-threads.ts";
import { scoreItem } from "../scoring/score.ts";
import type { ItemScore, ScoreInput } from "../scoring/types.ts";

export interface ScorerStats {
  /** Items scored on the calling thread. */
  readonly mainThread: number;
  /** Items handed to the thread pool. */
  readonly offLoop: number;
  readonly poolStarted: boolean;
}

export interface Scorer {
  score(checks: readonly Check[], input: ScoreInput): Promise<ItemScore>;
  stats(): ScorerStats;
  close(): Promise<void>;
}

export interface ScorerOptions {
  readonly deadlineMs: number;
  /**
   * The checks of the items the run will score, when known. If one runs a data regex the pool
   * starts now, so its start-up overlaps the first items' adapter time instead of delaying the
   * score of the first item that needs it (150–350 ms on a 2-core machine).
   */
  readonly expectedChecks?: Iterable<readonly Check[]>;
}

export function createScorer(options: ScorerOptions): Scorer {
  let pool: ScoringPool | undefined;
  let closing: Promise<void> | undefined;
  let mainThread = 0;
  let offLoop = 0;
  if ([...(options.expectedChecks ?? [])].some(runsAnyDataRegex)) pool = createScoringPool();

  return {
    async score(checks, input) {
      // Same error as the pool's, whichever path the item would have taken.
      if (closing) throw new Error("scoring pool destroyed");
      if (scoresInline(checks, input)) {
        mainThread++;
        return scoreItem(checks, input);
      }
      offLoop++;
      pool ??= createScoringPool();
      return pool.scoreOffLoop(checks, input, { deadlineMs: options.deadlineMs });
    },
    stats: () => ({ mainThread, offLoop, poolStarted: pool !== undefined }),
    close() {
      closing ??= pool ? pool.destroy() : Promise.resolve();
      return closing;
    },
  };
}
