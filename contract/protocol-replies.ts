/**
 * The worker → orchestrator half of the protocol (contract/protocol.ts has the rest and says why
 * it is two files): what a worker answers, parsed by the orchestrator on every message.
 */
import * as z from "zod/mini";
import { AgentResultSchema, CAUSE_ENDPOINT_MAX, SeatSchema, UnavailableKindSchema } from "./protocol.ts";

export const ReadyMessage = z.object({ type: z.literal("ready"), pid: z.int() });
export const BuiltMessage = z.object({
  type: z.literal("built"),
  arena: z.string(),
  /** The seat built (echoed from the build). */
  seat: SeatSchema,
  libVersion: z.string(),
  resumable: z.boolean(),
  delegates: z.array(z.string()),
  /**
   * Request keys outside the baseline's envelope the adapter records as a mechanism requirement,
   * each with its reason (the probes judge that a reason is given; the witness reads the keys).
   */
  wireExceptions: z._default(z.array(z.object({ key: z.string(), reason: z.string() })), []),
});
export const BuildFailedMessage = z.object({
  type: z.literal("build_failed"),
  arena: z.string(),
  seat: SeatSchema,
  kind: UnavailableKindSchema,
  reason: z.string(),
  libVersion: z.string(),
  traceback: z._default(z.string(), ""),
});
/** A leg that finished (answered, or ended with `error` set by the adapter). */
export const ResultMessage = z.object({
  type: z.literal("result"),
  job: z.string(),
  result: AgentResultSchema,
  /** Time spent inside the adapter's run/resume, measured in the worker (seconds). */
  adapterSeconds: z.number().check(z.nonnegative()),
});
/** A leg that ended at a pause point; `result.resume_state` is what crosses to the next leg. */
export const SuspendedMessage = z.extend(ResultMessage, { type: z.literal("suspended") });
/**
 * One link of a thrown error's `cause` chain, as data: the orchestrator classifies the failure
 * (connection refused by the gateway is the provider's fault, not the framework's) from these,
 * not from prose. `address`/`port` are the endpoint a syscall error names (Node's `err.address`,
 * `err.port`, or the remote end of the socket an HTTP client error carries), `host` the name a
 * DNS lookup failed for: they tell a failure to reach the gateway from one to reach anything else.
 */
export const ErrorCauseSchema = z.object({
  name: z.string(),
  message: z.string(),
  code: z.optional(z.string()),
  status: z.optional(z.int()),
  address: z.optional(z.string().check(z.minLength(1), z.maxLength(CAUSE_ENDPOINT_MAX))),
  port: z.optional(z.int().check(z.minimum(0), z.maximum(65535))),
  host: z.optional(z.string().check(z.minLength(1), z.maxLength(CAUSE_ENDPOINT_MAX))),
});
export type ErrorCause = z.infer<typeof ErrorCauseSchema>;
/** run/resume threw: `<ErrorName>: <message>` with the stack kept for the record. */
export const ErrorMessage = z.object({
  type: z.literal("error"),
  job: z.string(),
  error: z.string(),
  traceback: z._default(z.string(), ""),
  /** The thrown error and its causes, outermost first. */
  causes: z._default(z.array(ErrorCauseSchema).check(z.maxLength(8)), []),
  adapterSeconds: z.number().check(z.nonnegative()),
});
export const LogMessage = z.object({
  type: z.literal("log"),
  level: z.enum(["debug", "info", "warn", "error"]),
  message: z.string(),
});

export const FromWorkerSchema = z.discriminatedUnion("type", [
  ReadyMessage,
  BuiltMessage,
  BuildFailedMessage,
  ResultMessage,
  SuspendedMessage,
  ErrorMessage,
  LogMessage,
]);
export type FromWorker = z.infer<typeof FromWorkerSchema>;
