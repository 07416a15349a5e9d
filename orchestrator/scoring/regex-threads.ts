/**
 * Scoring off the main event loop, for the items that may not be scored on it. Regexes come from
 * data files and run against untrusted model output, and the orchestrator's loop also serves the
 * mock gateway, so a catastrophically backtracking pattern must not stall it. An item is tried on
 * the loop under a ~10 ms watchdog first (watchdog.ts, run/scorer.ts); one still running then is
 * scored here, in a piscina worker thread, where it gets the run's full deadline without the loop
 * waiting on it; a task that overruns that deadline is aborted, which makes piscina terminate the
 * thread.
 *
 * On a deadline every check of the item fails with {@link deadlineDetail}: which check hung is
 * unknown from outside the thread, and a result computed on the main thread could hang it too.
 */
import { getCompileCacheDir } from "node:module";
import { availableParallelism } from "node:os";
import path from "node:path";
import { MessageChannel } from "node:worker_threads";
import { Piscina } from "piscina";
import type { Check } from "../arena/schemas.ts";
import { failAll } from "./score.ts";
import type { ItemScore, ScoreInput } from "./types.ts";
import type { ScoreTask } from "./worker.ts";

const WORKER_FILE = new URL("./worker.ts", import.meta.url);

export interface ScoringPoolOptions {
  /** Default: 2, or 1 on a single-core machine. */
  readonly maxThreads?: number;
}

export interface ScoreOffLoopOptions {
  /** Wall-clock budget for scoring once the worker has started the task (queueing is not counted). */
  readonly deadlineMs: number;
}

export interface ScoringPool {
  /** Never rejects for bad data or a slow pattern; rejects only after {@link ScoringPool.destroy}. */
  scoreOffLoop(checks: readonly Check[], input: ScoreInput, options: ScoreOffLoopOptions): Promise<ItemScore>;
  destroy(): Promise<void>;
}

export function deadlineDetail(deadlineMs: number): string {
  return `skipped: scoring exceeded its deadline of ${deadlineMs} ms`;
}

/**
 * The thread's environment. `module.enableCompileCache()` (what the CLI calls) caches for the
 * calling thread only; a worker thread reads NODE_COMPILE_CACHE from its own environment, and
 * without a cache it strips the scorer's TypeScript again, which is most of its start-up cost.
 * Pointing it at the main thread's directory also lets it reuse the entries already there.
 */
function threadEnv(): NodeJS.ProcessEnv | undefined {
  const dir = getCompileCacheDir();
  if (dir === undefined) return undefined;
  // The directory in use is a per-Node-build subdirectory of the one NODE_COMPILE_CACHE names.
  const base = path.basename(dir).startsWith(`v${process.versions.node}-`) ? path.dirname(dir) : dir;
  return { ...process.env, NODE_COMPILE_CACHE: base };
}

export function createScoringPool(options: ScoringPoolOptions = {}): ScoringPool {
  const maxThreads = options.maxThreads ?? Math.min(2, availableParallelism());
  const pool = new Piscina<ScoreTask, ItemScore>({
    filename: WORKER_FILE.href,
    minThreads: 1,
    maxThreads,
    idleTimeout: 30_000,
    env: threadEnv(),
  });
  let destroyed = false;

  async function scoreOffLoop(checks: readonly Check[], input: ScoreInput, { deadlineMs }: ScoreOffLoopOptions): Promise<ItemScore> {
    if (destroyed) throw new Error("scoring pool destroyed");
    const abort = new AbortController();
    const { port1, port2 } = new MessageChannel();
    let timer: NodeJS.Timeout | undefined;
    port1.once("message", () => {
      timer = setTimeout(() => abort.abort(), deadlineMs);
    });
    try {
      return await pool.run({ checks, input, started: port2 }, { signal: abort.signal, transferList: [port2] });
    } catch (e) {
      if (abort.signal.aborted) return failAll(checks, deadlineDetail(deadlineMs));
      if (destroyed) throw e;
      return failAll(checks, `skipped: scoring failed (${e instanceof Error ? e.message : String(e)})`);
    } finally {
      clearTimeout(timer);
      port1.close();
    }
  }

  return {
    scoreOffLoop,
    async destroy() {
      destroyed = true;
      await pool.destroy();
    },
  };
}
