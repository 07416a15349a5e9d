/**
 * Scoring for a run. An item whose checks cannot hang (no regex from a data file, a text short
 * enough for our own patterns to be cheap; see scoring/inline.ts) is scored inline. Any other item
 * is scored on this thread too, but under a watchdog (scoring/watchdog.ts): the orchestrator's
 * loop also serves the mock gateway, so it may hold it for ~10 ms at most. An item still running
 * then goes to the thread pool, which gives it the run's full deadline without stalling the loop.
 * The pool starts only then, so a run whose patterns are all quick never pays a thread's start,
 * nor the load of piscina and node:worker_threads (+14 to +44 ms of CPU here; docs/performance.md).
 * Every path runs the same `scoreItem`, so they give the same result.
 */
import type { Check } from "../arena/schemas.ts";
import { scoresInline } from "../scoring/inline.ts";
import type { ScoringPool } from "../scoring/regex-threads.ts";
import { scoreItem } from "../scoring/score.ts";
import type { ItemScore, ScoreInput } from "../scoring/types.ts";
import { runUnderWatchdog, WATCHDOG_BUDGET_MS } from "../scoring/watchdog.ts";

export interface ScorerStats {
  /** Items scored on the calling thread with no watchdog (they cannot hang). */
  readonly mainThread: number;
  /** Items scored on the calling thread within the watchdog's budget. */
  readonly underWatchdog: number;
  /** Items the watchdog stopped, scored again by the thread pool. */
  readonly offLoop: number;
  readonly poolStarted: boolean;
}

export interface Scorer {
  score(checks: readonly Check[], input: ScoreInput): Promise<ItemScore>;
  stats(): ScorerStats;
  close(): Promise<void>;
}

export interface ScorerOptions {
  /** Wall-clock budget for an item in the thread pool once its thread has started it. */
  readonly deadlineMs: number;
  /**
   * How long an item that may hang may run on the calling thread before it goes to the pool.
   * 0: such items go straight to the pool. Default: {@link WATCHDOG_BUDGET_MS}.
   */
  readonly watchdogMs?: number;
}

export function createScorer(options: ScorerOptions): Scorer {
  let pool: Promise<ScoringPool> | undefined;
  let closing: Promise<void> | undefined;
  let mainThread = 0;
  let underWatchdog = 0;
  let offLoop = 0;

  return {
    async score(checks, input) {
      // Same error as the pool's, whichever path the item would have taken.
      if (closing) throw new Error("scoring pool destroyed");
      if (scoresInline(checks, input)) {
        mainThread++;
        return scoreItem(checks, input);
      }
      const budgetMs = options.watchdogMs ?? WATCHDOG_BUDGET_MS;
      const watched = budgetMs > 0 ? runUnderWatchdog(() => scoreItem(checks, input), budgetMs) : { finished: false as const };
      if (watched.finished) {
        underWatchdog++;
        return watched.value;
      }
      offLoop++;
      pool ??= import("../scoring/regex-threads.ts").then((threads) => threads.createScoringPool());
      return (await pool).scoreOffLoop(checks, input, { deadlineMs: options.deadlineMs });
    },
    stats: () => ({ mainThread, underWatchdog, offLoop, poolStarted: pool !== undefined }),
    close() {
      closing ??= pool ? pool.then((started) => started.destroy()) : Promise.resolve();
      return closing;
    },
  };
}
