/**
 * What every lane and item of one run shares: the queue, the worker pools and gateways, the
 * scorer, the stop switch and the progress count. Built once by `runArenas`; lanes and items only
 * read it (and add to the counters), so the order of the run path is the order of the files.
 */
import type { ArenaConfig } from "../config/arena-config.ts";
import type { LaneTranscriptFile } from "../report/html/transcript.ts";
import type { WorkerPool } from "../supervisor/pool.ts";
import type { AdapterEntry, ItemTiming, LaneWitnessTiming, ProgressEvent, RunOptions } from "./options.ts";
import type { RunGateway } from "./run-gateway.ts";
import type { LegAttempt } from "./provider-faults.ts";
import type { RunQueue } from "./run-queue.ts";
import type { Scorer } from "./scorer.ts";

/** One adapter's worker pool, shared by its lanes; it closes after the last of them. */
export interface SharedPool {
  readonly pool: WorkerPool;
  lanesLeft: number;
}

/** A second (or late) answer for a cell that was already recorded: applied once every worker is gone. */
export interface LateViolation {
  readonly arena: string;
  readonly framework: string;
  readonly cell: string;
  readonly message: string;
}

export interface RunContext {
  readonly options: RunOptions;
  readonly config: ArenaConfig;
  readonly concurrency: number;
  readonly queue: RunQueue;
  readonly legDeadlineMs: number;
  /** Every tool any arena of the run declares: a delegate must not collide with one. */
  readonly allArenaTools: readonly string[];
  /** The canonical tool output for a call, as the witness compares tool messages with it. */
  readonly canonical: (name: string, args: string) => string;
  readonly scorer: Scorer;
  readonly pools: ReadonlyMap<AdapterEntry, SharedPool>;
  readonly gateways: ReadonlyMap<string, RunGateway>;
  readonly timings: ItemTiming[];
  readonly laneWitnessTimings: LaneWitnessTiming[];
  readonly lateViolations: LateViolation[];
  /** Each lane's transcripts, as the witness recorded them (written by the CLI). */
  readonly transcripts: LaneTranscriptFile[];
  /** True once the run stops scheduling (an interrupt, or a refused lane). */
  stopped(): boolean;
  /** A lane's refusal stops the whole run, as an interrupt does; the first reason is kept. */
  refuse(reason: string): void;
  /**
   * A finished item's attempts, per leg, for the circuit breaker (breaker.ts): when they bring the
   * provider's faults in a row to the threshold, the run stops dispatching (in-flight items finish).
   */
  observeAttempts(legs: readonly (readonly LegAttempt[])[]): void;
  /** Count `cells` as done, and tell the progress listener when there is an event to tell. */
  advance(cells: number, event?: Omit<ProgressEvent, "done" | "total">): void;
}
