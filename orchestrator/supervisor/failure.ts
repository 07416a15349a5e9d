/**
 * Why a worker could not finish a leg, as data (execa style: flags plus the log tail), so the
 * run records it as an item error and carries on with a replacement worker.
 */
export type WorkerFailureKind = "timed_out" | "exited" | "invalid_message" | "protocol_violation" | "spawn_failed";

export interface WorkerFailure {
  readonly kind: WorkerFailureKind;
  readonly message: string;
  readonly timedOut: boolean;
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** Last lines of the worker's stdout/stderr log. */
  readonly logTail: string;
}
