/**
 * Driving one item through its legs (harness.md §4): run, and while the leg ended suspended,
 * resume (at most 3 times) with the frozen decision. On a durable arena the paused worker is
 * killed and the resume lands on a process that never saw the item, so only the JSON
 * resume_state and the checkpoint directory cross the gap.
 */
import { performance } from "node:perf_hooks";
import type { AgentResult, Json, WorkItem } from "../../workers/protocol.ts";
import { AgentResultSchema } from "../../workers/protocol.ts";
import type { WorkerFailure } from "../workers/failure.ts";
import { isFailure, type LegOutcome, type WorkerProcess } from "../workers/worker-process.ts";
import type { WorkerPool } from "../workers/pool.ts";
import { mergeLegs, type MergedResult } from "./merge.ts";

export const MAX_RESUMES = 3;

export interface DriveOptions {
  readonly durable: boolean;
  /** Per-leg deadline for the worker's answer. */
  readonly legDeadlineMs: number;
  /**
   * Test-only: resume a durable arena on the same process instead of a fresh one. Exists to show
   * that the in-memory cheat passes without a real restart — never set it in a real run.
   */
  readonly reuseWorkerAcrossPause?: boolean;
}

export interface DrivenItem {
  readonly merged: MergedResult;
  readonly legs: readonly AgentResult[];
  readonly traceback: string | null;
  /** Seconds spent inside the adapter (measured in the workers), summed over legs. */
  readonly adapterSeconds: number;
  /** Wall seconds for the whole item as the orchestrator saw it (all legs and restarts). */
  readonly wallSeconds: number;
  readonly restarts: number;
}

const failedLeg = (error: string): AgentResult => AgentResultSchema.parse({ error });

function failureText(f: WorkerFailure): string {
  return `WorkerFailure: ${f.message}`;
}

export async function driveItem(pool: WorkerPool, item: WorkItem, options: DriveOptions): Promise<DrivenItem> {
  const started = performance.now();
  const legs: AgentResult[] = [];
  let adapterSeconds = 0;
  let traceback: string | null = null;
  let restarts = 0;
  let finalError: string | null = null;

  let acquired = await pool.acquire();
  if (isFailure(acquired)) {
    return finish([failedLeg(failureText(acquired))], acquired.logTail, 0);
  }
  let worker: WorkerProcess = acquired;

  const settle = async (outcome: LegOutcome): Promise<AgentResult | null> => {
    if (outcome.kind === "failure") {
      traceback = outcome.failure.logTail;
      finalError = failureText(outcome.failure);
      await pool.discard(worker);
      return null;
    }
    adapterSeconds += outcome.adapterSeconds;
    if (outcome.kind === "error") {
      traceback = outcome.traceback;
      finalError = outcome.error;
      return null;
    }
    return outcome.result;
  };

  try {
    let leg = await settle(await worker.run(item, options.legDeadlineMs));
    if (leg) legs.push(leg);
    while (leg?.suspended && legs.length <= MAX_RESUMES) {
      const state = leg.resume_state as Json;
      if (options.durable && !options.reuseWorkerAcrossPause) {
        await pool.killForRestart(worker);
        restarts += 1;
        acquired = await pool.acquire(item.id);
        if (isFailure(acquired)) {
          finalError = failureText(acquired);
          traceback = acquired.logTail;
          leg = null;
          break;
        }
        worker = acquired;
      }
      const decision = item.resume_with === "deny" ? "deny" : "approve";
      leg = await settle(await worker.resume(item, state, decision, options.legDeadlineMs));
      if (leg) legs.push(leg);
    }
    if (leg?.suspended) finalError = `still suspended after ${MAX_RESUMES} resumes`;
  } finally {
    if (worker.alive) pool.release(worker);
  }
  return finish(legs, traceback, restarts);

  function finish(done: AgentResult[], tb: string | null, restartCount: number): DrivenItem {
    // Finished legs keep their usage even when a later leg failed: nothing computed is lost.
    const all = done.length > 0 ? done : [failedLeg(finalError ?? "no result")];
    const merged = mergeLegs(all);
    const withError = finalError !== null ? { ...merged, error: finalError } : merged;
    return {
      merged: withError,
      legs: all,
      traceback: tb,
      adapterSeconds,
      wallSeconds: (performance.now() - started) / 1000,
      restarts: restartCount,
    };
  }
}
