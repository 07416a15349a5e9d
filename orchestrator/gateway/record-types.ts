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

/**
 * What went wrong on the provider's side of an attempt, as the gateway saw it on the wire (never
 * read off a framework's error text): the status it answered, the connection it broke, the body it
 * sent. A mock gateway's injected faults are recorded the same way.
 *
 * - `rate_limited`: HTTP 429;
 * - `server_error`: HTTP 5xx;
 * - `reset`: the connection was reset before any reply;
 * - `unreachable`: no connection (refused, DNS, TLS, host or network unreachable);
 * - `incomplete`: the reply was cut off before it ended (a body or a stream);
 * - `timeout`: the worker gave up waiting (it closed its connection, or its leg ended, before the
 *   reply was complete): the provider was slower than the run's request timeout;
 * - `malformed`: a 2xx whose body is not a JSON object.
 */
export const PROVIDER_FAULTS = ["rate_limited", "server_error", "reset", "unreachable", "incomplete", "timeout", "malformed"] as const;
export type ProviderFault = (typeof PROVIDER_FAULTS)[number];

/** The fault an upstream (or injected) HTTP status is, if any: 429 and 5xx; other statuses are answers. */
export function faultOfStatus(status: number): ProviderFault | null {
  if (status === 429) return "rate_limited";
  if (status >= 500 && status <= 599) return "server_error";
  return null;
}

export interface AttemptRecord {
  /** Lifetime attempt number (the index into `faults`). */
  readonly attempt: number;
  readonly tag: string;
  /** When the gateway read the request (`nowMs()` clock): what a hold or a stall is timed from. */
  readonly at: number;
  /**
   * The earliest start this process can vouch for (gateway/arrival.ts): the read, or for a
   * connection's first request its accept, never after {@link at}. What a worker's wait before
   * hanging up is timed from (run/provider-faults.ts), so a late read is not charged to it.
   */
  readonly startedAt: number;
  /** Status sent (or being sent); `null` while pending or when the client left first. */
  readonly status: number | null;
  readonly outcome: AttemptOutcome;
  /** When the client closed the connection before the response was complete; else `null`. */
  readonly closedAt: number | null;
  /** When the response was completely handed to the socket; else `null`. */
  readonly endedAt: number | null;
  /** The provider's fault on this attempt, as the wire showed it; `null` when there was none. */
  readonly providerFault: ProviderFault | null;
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
  readonly startedAt: number;
  status: number | null;
  outcome: AttemptOutcome;
  closedAt: number | null;
  endedAt: number | null;
  /** Set once, by whoever saw the fault first (see {@link AttemptRecord.providerFault}). */
  providerFault: ProviderFault | null;
}
