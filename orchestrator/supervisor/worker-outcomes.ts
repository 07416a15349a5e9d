/**
 * What the orchestrator is told about one worker: the spec it is started from, what it needs per
 * arena, and the outcomes of a build and of a leg, mapped from the protocol's messages so callers
 * never read a raw message.
 */
import type { AdapterConfig, AdapterRef, AgentResult, ArenaSpec, UnavailableKind } from "../../contract/protocol.ts";
import type { ErrorCause, FromWorker } from "../../contract/protocol-replies.ts";
import type { Isolation } from "./sandbox/index.ts";
import type { Violation } from "./job-ledger.ts";

export interface WorkerSpec {
  /** Names this process within its pool (`w3`): part of its log file name and its gateway tags. */
  readonly id: string;
  readonly adapter: AdapterRef;
  readonly corpusPath: string;
  /** File that receives the worker's stdout and stderr. */
  readonly logFile: string;
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  /** Sealed or watched (sandbox/index.ts); absent: a plain child process (harness scripts). */
  readonly isolation?: Isolation;
  /**
   * A protocol violation, reported as well as ending the worker: one that arrives after its
   * item was already answered (a duplicate result) can only be pinned on that item this way.
   */
  readonly onProtocolViolation?: (violation: Violation & { readonly message: string }) => void;
}

/** What a worker needs to serve one arena. */
export interface ArenaBuild {
  readonly arena: ArenaSpec;
  /** `baseUrl` carries `tag`, so the gateway can attribute this worker's traffic on this arena. */
  readonly config: AdapterConfig;
  readonly tag: string;
  /** Which of the worker's seats gets the runner (contract/protocol.ts SeatSchema); default 0. */
  readonly seat?: number;
}

export type BuildOutcome =
  | {
      readonly ok: true;
      readonly libVersion: string;
      readonly resumable: boolean;
      readonly delegates: readonly string[];
      readonly wireExceptions: readonly { readonly key: string; readonly reason: string }[];
    }
  | { readonly ok: false; readonly kind: UnavailableKind; readonly reason: string; readonly libVersion: string; readonly traceback: string };

export type LegOutcome =
  | { readonly kind: "result" | "suspended"; readonly result: AgentResult; readonly adapterSeconds: number }
  | {
      readonly kind: "error";
      readonly error: string;
      readonly traceback: string;
      readonly causes: readonly ErrorCause[];
      readonly adapterSeconds: number;
    };

type BuildReply = Extract<FromWorker, { type: "built" | "build_failed" }>;
type LegReply = Extract<FromWorker, { type: "result" | "suspended" | "error" }>;

export function buildOutcomeOf(built: BuildReply): BuildOutcome {
  if (built.type === "built") {
    return { ok: true, libVersion: built.libVersion, resumable: built.resumable, delegates: built.delegates, wireExceptions: built.wireExceptions };
  }
  return { ok: false, kind: built.kind, reason: built.reason, libVersion: built.libVersion, traceback: built.traceback };
}

export function legOutcomeOf(reply: LegReply): LegOutcome {
  if (reply.type === "error") {
    return { kind: "error", error: reply.error, traceback: reply.traceback, causes: reply.causes, adapterSeconds: reply.adapterSeconds };
  }
  return { kind: reply.type, result: reply.result, adapterSeconds: reply.adapterSeconds };
}
