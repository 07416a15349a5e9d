/**
 * Gateway options (gateway.md §1). Everything the gateway does is a function of these and of the
 * request body; nothing else (time, order of other clients' requests) changes a reply except the
 * lifetime attempt counter that indexes `faults`.
 */
import type { IdentityPolicy } from "./identity.ts";
import type { MockScript, Turn } from "../arena/schemas.ts";
import type { PyDict } from "@agentic-arena/py-semantics";

/**
 * A mock script as the gateway accepts it: the loader's normalised {@link MockScript} (a missing
 * `default` means the built-in one), the raw `mock_script.json` shape (parsed with `parsePyJson`,
 * or a plain object literal — integral JS numbers then count as Python ints), or a file path.
 */
export type ScriptSource =
  | MockScript
  | {
      readonly scenarios: readonly { readonly match: string; readonly turns: readonly Turn[] }[];
      readonly default?: { readonly turns: readonly Turn[] };
    }
  | PyDict
  | { readonly [key: string]: unknown }
  | string;

export interface GatewayOptions {
  /** Whose requests are accepted (identity.ts); default a standalone gateway's. */
  readonly identity?: IdentityPolicy;
  /** The scripted turns to replay: parsed mock script or a path to `mock_script.json`. Required. */
  readonly script: ScriptSource;
  /**
   * The arena's resolved tool names (`namesFor(arena.declaredTools)`), or `null` for a bare probe
   * gateway. Known tools enable declared-delegate recognition (§5.1) and the exact "holds no arena
   * tools" test of the skip rule (§4.1). Default `null`.
   */
  readonly arenaTools?: readonly string[] | null;
  /**
   * HTTP status per completions attempt, indexed by the gateway-lifetime attempt number (all
   * clients, all tags); attempts past the end get 200. Default `[]`.
   */
  readonly faults?: readonly number[];
  /** Seconds for a `Retry-After` header on injected 429 and 503 responses; `null` = no header. */
  readonly retryAfter?: number | null;
  /** Hold every non-faulted attempt this many seconds before reading its body (a hung provider). Default 0. */
  readonly stallSeconds?: number;
  /**
   * Hold every answer this many seconds after its request is read, then send it as usual: a
   * provider's generation time, so a mock run waits the way a live one does (a stand-in for
   * measuring a wide live run). Unlike a stall it is never a fault. Default 0.
   */
  readonly holdSeconds?: number;
  /** Text appended (after a blank line) to the task handed to a delegate (§5.1). Default `""`. */
  readonly forwardContext?: string;
  /** Port to listen on (127.0.0.1 only). Default 0 = ephemeral. */
  readonly port?: number;
  /** Largest accepted request body in bytes; larger bodies get 413. Default 8 MiB. */
  readonly maxBodyBytes?: number;
  /**
   * Bytes of recorded request bodies (and large response messages) kept in memory; records past it
   * go to a spill file and are read back when the records are read. Default 64 MiB.
   */
  readonly recordBudgetBytes?: number;
  /** Directory for spill files (the harness passes `runs/<run-id>/gateway/`). Default: a private temp dir made on first spill. */
  readonly spillDir?: string;
  /** Leave the spill files on disk at `stop()` (they are unlinked by default). Default false. */
  readonly keepSpillFiles?: boolean;
  /**
   * Seconds a client has to send a request's headers; then 408 and the connection is closed.
   * Default 30; 0 = no limit.
   */
  readonly headersTimeoutSeconds?: number;
  /**
   * Seconds a client has to send a whole request (headers and body), not counting a deliberate
   * stall (`stallSeconds` is added to it); then 408 and the connection is closed. A body of at
   * most {@link maxBodyBytes} over loopback takes milliseconds. Default 120; 0 = no limit.
   */
  readonly requestTimeoutSeconds?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;
export const DEFAULT_HEADERS_TIMEOUT_SECONDS = 30;
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 120;

/** Options with defaults applied and the script compiled; what the request path reads. */
export interface ResolvedOptions {
  readonly arenaTools: ReadonlySet<string> | null;
  readonly faults: readonly number[];
  readonly retryAfter: number | null;
  readonly stallMs: number;
  readonly holdMs: number;
  readonly forwardContext: string;
  readonly port: number;
  readonly maxBodyBytes: number;
  /** Node's `headersTimeout` / `requestTimeout` in ms (the stall already added to the latter); 0 = off. */
  readonly headersTimeoutMs: number;
  readonly requestTimeoutMs: number;
}

function seconds(name: string, v: number): number {
  if (!(v >= 0) || !Number.isFinite(v)) throw new RangeError(`${name} must be a finite number >= 0, got ${v}`);
  return v;
}

export function resolveOptions(o: GatewayOptions): ResolvedOptions {
  const stall = seconds("stallSeconds", o.stallSeconds ?? 0);
  const hold = seconds("holdSeconds", o.holdSeconds ?? 0);
  const headersS = seconds("headersTimeoutSeconds", o.headersTimeoutSeconds ?? DEFAULT_HEADERS_TIMEOUT_SECONDS);
  const requestS = seconds("requestTimeoutSeconds", o.requestTimeoutSeconds ?? DEFAULT_REQUEST_TIMEOUT_SECONDS);
  // Node refuses a headers timeout longer than the request timeout; say so in our own terms.
  if (headersS > 0 && requestS > 0 && headersS > requestS) {
    throw new RangeError(`headersTimeoutSeconds (${headersS}) must not exceed requestTimeoutSeconds (${requestS})`);
  }
  const faults = [...(o.faults ?? [])];
  for (const s of faults) {
    if (!Number.isInteger(s) || s < 100 || s > 599) throw new RangeError(`faults: ${s} is not an HTTP status`);
  }
  const retryAfter = o.retryAfter ?? null;
  if (retryAfter !== null && !(Number.isInteger(retryAfter) && retryAfter >= 0)) {
    throw new RangeError(`retryAfter must be a non-negative integer, got ${retryAfter}`);
  }
  return {
    arenaTools: o.arenaTools == null ? null : new Set(o.arenaTools),
    faults,
    retryAfter,
    stallMs: stall * 1000,
    holdMs: hold * 1000,
    forwardContext: o.forwardContext ?? "",
    port: o.port ?? 0,
    maxBodyBytes: o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    headersTimeoutMs: Math.round(headersS * 1000),
    // The stall holds the body unread, so a large body is still arriving while the gateway itself
    // waits: the request deadline starts after it.
    requestTimeoutMs: requestS === 0 ? 0 : Math.round((requestS + stall) * 1000),
  };
}
