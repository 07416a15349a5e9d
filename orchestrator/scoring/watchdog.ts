/**
 * Scoring on the calling thread with a clock on it. A data-file regex can backtrack for seconds,
 * and the orchestrator's loop also serves the mock gateway, so such an item used to go straight
 * to a scoring thread (regex-threads.ts). Such a thread takes ~80 ms of CPU to start here, ~60 of
 * them before it loads anything (scripts/scoring-routes.ts): more than the rest of a small run's
 * scoring put together, for patterns that take microseconds. So the item is first scored here
 * under V8's watchdog (`vm` `timeout`, which interrupts a running regex as it interrupts a loop);
 * only when the budget runs out does it go to the thread pool, scored again there from the start
 * under the run's full deadline.
 *
 * Why stopping the job midway is safe: V8's termination cannot be caught by the job's own
 * `catch` blocks, and what scoring keeps between items is only the compiled-pattern cache (an
 * entry is set whole or not at all) and module regexes that are either not global or reset by the
 * call that uses them (`matchAll` copies, `replace` starts at 0, a sticky one is positioned before
 * every `exec`). The watchdog measures wall time, so a thread descheduled past the budget sends a
 * harmless item to the pool: slower, never a different result.
 */
import vm from "node:vm";

/** How long an item may hold the loop before it goes to a thread: the same ~10 ms stall inline.ts accepts. */
export const WATCHDOG_BUDGET_MS = 10;

const JOB = Symbol.for("agentic-arena.watchdog-job");
/** Compiled once: the watchdog covers only what runs inside runInThisContext, so the job is called from there. */
const CALL_JOB = new vm.Script(`globalThis[Symbol.for(${JSON.stringify(JOB.description)})]()`, { filename: "scoring-watchdog" });

export type Watched<T> = { readonly finished: true; readonly value: T } | { readonly finished: false };

/**
 * Run `job` synchronously on this thread; stop it if it runs past `budgetMs` of wall time.
 * A job that finishes gives its value; one that was stopped gives `finished: false`. Any other
 * error the job throws is thrown on.
 */
export function runUnderWatchdog<T>(job: () => T, budgetMs: number = WATCHDOG_BUDGET_MS): Watched<T> {
  const slot = globalThis as unknown as Record<symbol, (() => unknown) | undefined>;
  if (slot[JOB] !== undefined) throw new Error("runUnderWatchdog is not re-entrant");
  slot[JOB] = job;
  try {
    return { finished: true, value: CALL_JOB.runInThisContext({ timeout: budgetMs }) as T };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ERR_SCRIPT_EXECUTION_TIMEOUT") return { finished: false };
    throw err;
  } finally {
    slot[JOB] = undefined;
  }
}
