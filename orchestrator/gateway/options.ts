/**
 * Gateway options (gateway.md §1). Everything the gateway does is a function of these and of the
 * request body; nothing else (time, order of other clients' requests) changes a reply except the
 * lifetime attempt counter that indexes `faults`.
 */
import type { MockScript, Turn } from "../arena/schemas.ts";
import type { PyDict } from "../../workers/py/index.ts";

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
  /** Text appended (after a blank line) to the task handed to a delegate (§5.1). Default `""`. */
  readonly forwardContext?: string;
  /** Port to listen on (127.0.0.1 only). Default 0 = ephemeral. */
  readonly port?: number;
  /** Largest accepted request body in bytes; larger bodies get 413. Default 8 MiB. */
  readonly maxBodyBytes?: number;
}

export const DEFAULT_MAX_BODY_BYTES = 8 * 1024 * 1024;

/** Options with defaults applied and the script compiled; what the request path reads. */
export interface ResolvedOptions {
  readonly arenaTools: ReadonlySet<string> | null;
  readonly faults: readonly number[];
  readonly retryAfter: number | null;
  readonly stallMs: number;
  readonly forwardContext: string;
  readonly port: number;
  readonly maxBodyBytes: number;
}

export function resolveOptions(o: GatewayOptions): ResolvedOptions {
  const stall = o.stallSeconds ?? 0;
  if (!(stall >= 0) || !Number.isFinite(stall)) throw new RangeError(`stallSeconds must be a finite number >= 0, got ${stall}`);
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
    forwardContext: o.forwardContext ?? "",
    port: o.port ?? 0,
    maxBodyBytes: o.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
  };
}
