/**
 * Driving one item through its legs (harness.md §4): run, and while the leg ended suspended,
 * resume (at most 3 times) with the frozen decision. On a durable arena the paused worker is
 * killed and the resume lands on a process that never saw the item, so only the JSON
 * resume_state and the checkpoint directory cross the gap.
 */
import { performance } from "node:perf_hooks";
import type { AgentResult, Json, WorkItem } from "../../contract/protocol.ts";
import { AgentResultSchema } from "../../contract/protocol.ts";
import type { ServedUsage } from "../gateway/index.ts";
import { isFailure, type WorkerFailure } from "../supervisor/failure.ts";
import type { LegOutcome } from "../supervisor/worker-outcomes.ts";
import type { Seat } from "../supervisor/seat.ts";
import type { WorkerPool } from "../supervisor/pool.ts";
import { mergeLegs, type MergedResult } from "./merge.ts";
import { classifyAdapterError, classifyWorkerFailure, type ErrorClass } from "./error-class.ts";
import type { Exchange, WitnessedLeg } from "../witness/types.ts";
import type { Body } from "../witness/wire.ts";
import type { LegAttempt } from "./provider-faults.ts";

export const MAX_RESUMES = 3;

export interface DriveOptions {
  /** The arena the item belongs to (names the runner in a worker that serves several). */
  readonly arena: string;
  readonly durable: boolean;
  /** Per-leg deadline for the worker's answer. */
  readonly legDeadlineMs: number;
  /**
   * Test-only: resume a durable arena on the same process instead of a fresh one. Exists to show
   * that the in-memory cheat passes without a real restart — never set it in a real run.
   */
  readonly reuseWorkerAcrossPause?: boolean;
  /** Names the item × repeat to the worker process, for a protocol violation pinned on it later. */
  readonly cell?: string;
  /**
   * The witness around a leg: started before the leg is sent to the worker tagged `tag`, ended
   * when it answers, it returns what the gateway served and recorded for that tag in between.
   */
  readonly watchLeg?: (tag: string) => LegWatch;
}

export interface LegWatch {
  end(): {
    readonly served: ServedUsage;
    readonly requests: readonly Body[];
    readonly exchanges: readonly Exchange[];
    /** Every completions attempt of the leg, served or not, with the provider fault the wire showed. */
    readonly attempts: readonly LegAttempt[];
  };
}

export interface DrivenLeg {
  readonly result: AgentResult;
  /** What the gateway served during this leg (mock mode). */
  readonly served?: ServedUsage;
  /** The leg's wall time on the harness's clock (sent to answered), seconds. */
  readonly seconds: number;
  /** Size of the JSON resume_state this leg handed over, when it paused. */
  readonly resumeStateBytes?: number;
}

export interface DrivenItem {
  readonly merged: MergedResult;
  readonly legs: readonly DrivenLeg[];
  /** Served usage summed over legs (mock mode). */
  readonly served?: ServedUsage;
  /** Every leg sent, failed ones included, as the witness saw it (empty without a watch). */
  readonly witnessed: readonly WitnessedLeg[];
  /** Per leg sent (as `witnessed`), its completions attempts as the gateway recorded them. */
  readonly attempts: readonly (readonly LegAttempt[])[];
  readonly traceback: string | null;
  /** Why the item errored, when it did (see error-class.ts). */
  readonly errorClass: ErrorClass | null;
  /** Seconds spent inside the adapter (measured in the workers), summed over legs. */
  readonly adapterSeconds: number;
  /** Wall seconds for the whole item as the orchestrator saw it (all legs and restarts). */
  readonly wallSeconds: number;
  /** Of `wallSeconds`, the time spent waiting for a worker's seat (its start and build included). */
  readonly seatSeconds: number;
  readonly restarts: number;
  /** Writes outside the item's folder and TMPDIR that its workers' private areas found (sealed only). */
  readonly strayWrites: readonly { readonly leg: number; readonly detail: string }[];
}

function failureText(f: WorkerFailure): string {
  return `WorkerFailure: ${f.message}`;
}

const NO_USAGE = { prompt_tokens: 0, completion_tokens: 0, llm_calls: 0 } as const;

export async function driveItem(pool: WorkerPool, item: WorkItem, options: DriveOptions): Promise<DrivenItem> {
  const started = performance.now();
  const legs: DrivenLeg[] = [];
  let adapterSeconds = 0;
  let seatMs = 0;
  /** A seat from the pool, its wait counted in `seatMs`. */
  const seated = async <T>(acquire: Promise<T>): Promise<T> => {
    const asked = performance.now();
    try {
      return await acquire;
    } finally {
      seatMs += performance.now() - asked;
    }
  };
  let traceback: string | null = null;
  let restarts = 0;
  let finalError: string | null = null;
  let errorClass: ErrorClass | null = null;
  let worker: Seat | undefined;
  const witnessed: WitnessedLeg[] = [];
  const attempts: (readonly LegAttempt[])[] = [];
  const strayWrites: { leg: number; detail: string }[] = [];
  let legsSent = 0;
  /** The gateway base URLs the item's workers were handed: a failure to reach anything else is the adapter's. */
  const gateways = new Set<string>();

  const fail = (failure: WorkerFailure) => {
    finalError = failureText(failure);
    errorClass = classifyWorkerFailure(failure);
    traceback = failure.logTail;
  };

  /** Run one leg on `worker`; null when it produced no result (error or worker failure). */
  const runLeg = async (w: Seat, send: () => Promise<LegOutcome | WorkerFailure>): Promise<AgentResult | null> => {
    const tag = w.tagFor(options.arena) ?? "";
    const gateway = w.gatewayFor(options.arena);
    if (gateway !== undefined) gateways.add(gateway);
    const watch = options.watchLeg?.(tag);
    const sentAt = performance.now();
    const outcome = await send();
    const seconds = (performance.now() - sentAt) / 1000;
    legsSent += 1;
    for (const detail of w.takeStrays()) strayWrites.push({ leg: legsSent, detail });
    const seen = watch?.end();
    if (seen) {
      const answer = !isFailure(outcome) && outcome.kind !== "error" ? outcome.result : undefined;
      const answered = answer !== undefined;
      const r = answer ?? NO_USAGE;
      const reported = { prompt_tokens: r.prompt_tokens, completion_tokens: r.completion_tokens, llm_calls: r.llm_calls };
      const result = answer ? { output_text: answer.output_text ?? "", tool_calls: answer.tool_calls, suspended: answer.suspended, error: answer.error } : undefined;
      attempts.push(seen.attempts);
      witnessed.push({ requests: seen.requests, served: seen.served, reported, answered, exchanges: seen.exchanges, ...(result ? { result } : {}) });
    }
    if (isFailure(outcome)) {
      fail(outcome);
      await pool.discard(w);
      return null;
    }
    adapterSeconds += outcome.adapterSeconds;
    if (outcome.kind === "error") {
      traceback = outcome.traceback;
      finalError = outcome.error;
      errorClass = classifyAdapterError(outcome.error, outcome.causes, [...gateways]);
      return null;
    }
    const result = outcome.result;
    legs.push({
      result,
      seconds,
      ...(seen ? { served: seen.served } : {}),
      ...(result.suspended ? { resumeStateBytes: Buffer.byteLength(JSON.stringify(result.resume_state)) } : {}),
    });
    return result;
  };

  try {
    const first = await seated(pool.acquire(options.arena));
    if (isFailure(first)) fail(first);
    else {
      worker = first;
      let leg = await runLeg(worker, () => first.run(options.arena, item, options.legDeadlineMs, options.cell));
      while (leg?.suspended && legs.length <= MAX_RESUMES) {
        const state = leg.resume_state as Json;
        if (options.durable && !options.reuseWorkerAcrossPause) {
          // The fresh worker is claimed while the old one dies; the resume starts only once it is gone.
          const paused: Seat = worker!;
          const [, fresh] = await seated(Promise.all([pool.killForRestart(paused), pool.acquire(options.arena, item.id)]));
          restarts += 1;
          if (isFailure(fresh)) {
            fail(fresh);
            worker = undefined;
            break;
          }
          worker = fresh;
        }
        const w: Seat = worker!;
        const decision = item.resume_with === "deny" ? "deny" : "approve";
        leg = await runLeg(w, () => w.resume(options.arena, item, state, decision, options.legDeadlineMs, options.cell));
      }
      if (leg?.suspended) {
        finalError = `still suspended after ${MAX_RESUMES} resumes`;
        errorClass = "adapter";
      }
    }
  } finally {
    if (worker?.alive) pool.release(worker);
  }

  // Finished legs keep their usage even when a later leg failed: nothing computed is lost.
  const results = legs.length > 0 ? legs.map((l) => l.result) : [AgentResultSchema.parse({})];
  const merged = mergeLegs(results);
  const servedLegs = legs.map((l) => l.served);
  const served = servedLegs.length > 0 && servedLegs.every((s) => s !== undefined)
    ? servedLegs.reduce((a, s) => ({
        prompt_tokens: a.prompt_tokens + s!.prompt_tokens,
        completion_tokens: a.completion_tokens + s!.completion_tokens,
        llm_calls: a.llm_calls + s!.llm_calls,
      }), { prompt_tokens: 0, completion_tokens: 0, llm_calls: 0 })
    : undefined;
  if (finalError === null && merged.error) errorClass = classifyAdapterError(merged.error, [], [...gateways]);
  return {
    merged: finalError !== null ? { ...merged, error: finalError } : merged,
    errorClass,
    legs,
    witnessed,
    attempts,
    ...(served ? { served } : {}),
    traceback,
    adapterSeconds,
    wallSeconds: (performance.now() - started) / 1000,
    seatSeconds: seatMs / 1000,
    restarts,
    strayWrites,
  };
}
