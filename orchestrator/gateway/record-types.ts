/**
 * The shapes of what the gateway recorded (gateway.md §10), apart from the recorder that keeps
 * them, so the store, the wire form and the readers depend on the shapes and not on each other.
 */
import type { PyDict } from "@agentic-arena/py-semantics";
import type { Usage } from "./usage.ts";

export type AttemptOutcome =
  /** Still being handled (stalled, reading its body, …). */
  | "pending"
  | "served"
  /** Answered with an injected fault status. */
  | "faulted"
  /** Refused by the gateway: invalid JSON, bad shape, body too large. */
  | "rejected"
  /** The client closed the connection before any response. */
  | "aborted";

export interface AttemptRecord {
  /** Lifetime attempt number (the index into `faults`). */
  readonly attempt: number;
  readonly tag: string;
  /** When the request arrived (`nowMs()` in recorder.ts). */
  readonly at: number;
  /** Status sent (or being sent); `null` while pending or when the client left first. */
  readonly status: number | null;
  readonly outcome: AttemptOutcome;
  /** When the client closed the connection before the response was complete; else `null`. */
  readonly closedAt: number | null;
  /** When the response was completely handed to the socket; else `null`. */
  readonly endedAt: number | null;
}

export interface RequestRecord {
  readonly attempt: number;
  readonly tag: string;
  /**
   * The parsed body (ints as bigint, floats as number, objects as Map in wire order). Parsed on
   * access, from memory or the spill file; a spilled body that cannot be read back throws
   * `SpillReadError` (spill.ts).
   */
  readonly body: PyDict;
  /**
   * The same body as plain JSON values, for a reader that judges rather than bills (the witness):
   * `JSON.parse` of the text as received, several times cheaper than the Python-faithful parse and
   * equal to `toJs(body)` (ints are numbers there too); a body only Python's json reads (`NaN`,
   * `Infinity`) falls back to that. Parsed anew on each read; the reader keeps what it needs.
   */
  readonly plain: unknown;
}

export interface ServedRecord extends Usage {
  readonly attempt: number;
  readonly tag: string;
}

export interface ResponseMessageRecord {
  readonly attempt: number;
  readonly tag: string;
  /** The assistant message as sent, after rewrites and rendering. */
  readonly message: PyDict;
}

export interface ServedUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly llm_calls: number;
}

export interface GatewayRecords {
  /** Served request bodies in arrival order (no faulted or rejected attempts). */
  readonly requests: readonly RequestRecord[];
  /** Every completions attempt, faulted or not, in arrival order. */
  readonly attempts: readonly AttemptRecord[];
  readonly served: readonly ServedRecord[];
  readonly servedUsage: ServedUsage;
  readonly responseMessages: readonly ResponseMessageRecord[];
}

/** Mutable view of an attempt, held by the request handler while it runs. */
export interface LiveAttempt {
  readonly attempt: number;
  readonly tag: string;
  readonly at: number;
  status: number | null;
  outcome: AttemptOutcome;
  closedAt: number | null;
  endedAt: number | null;
}
