/**
 * Why a worker could not finish a leg, as data (execa style: flags plus the log tail), so the
 * run records it as an item error and carries on with a replacement worker. Every failure is
 * made by this one class, so `isFailure` is an `instanceof`, not a guess at an object's shape.
 */
export type WorkerFailureKind = "timed_out" | "exited" | "invalid_message" | "protocol_violation" | "spawn_failed";

export interface WorkerFailureDetails {
  readonly exitCode?: number | null;
  readonly signal?: string | null;
  /** Last lines of the worker's stdout/stderr log. */
  readonly logTail?: string;
  readonly cause?: unknown;
}

export class WorkerFailure extends Error {
  override readonly name = "WorkerFailure";
  readonly kind: WorkerFailureKind;
  /** The worker did not answer within its deadline (and was killed for it). */
  readonly timedOut: boolean;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly logTail: string;

  constructor(kind: WorkerFailureKind, message: string, details: WorkerFailureDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.kind = kind;
    this.timedOut = kind === "timed_out";
    this.exitCode = details.exitCode ?? null;
    this.signal = details.signal ?? null;
    this.logTail = details.logTail ?? "";
  }
}

export function isFailure(v: unknown): v is WorkerFailure {
  return v instanceof WorkerFailure;
}
