/**
 * The orchestrator ↔ worker protocol: every message that crosses the process boundary, as zod
 * schemas validated on both ends. Only plain JSON crosses (Node IPC with `serialization: "json"`),
 * so a worker in another language can speak it. A worker's stdout/stderr are never parsed: they
 * go to a per-worker log file.
 *
 * Written with zod/mini, zod's functional API: unlike the classic API's methods, its functions are
 * left out of a bundle when unused, so a worker's script carries only the zod this file uses (the
 * classic API cost every Node worker start ~20 ms of CPU; docs/performance.md, target 1a). Classic
 * schemas elsewhere may still wrap these (the same zod core).
 *
 * Two files, one protocol: this one holds what both ends share and the orchestrator → worker
 * messages; protocol-replies.ts the worker → orchestrator ones, which only the orchestrator parses
 * (a Node worker builds its replies from their types alone, so its script leaves their schemas
 * out: ~4 ms of CPU off every start, docs/performance.md).
 */
import * as z from "zod/mini";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export const JsonSchema: z.ZodMiniType<Json> = z.lazy(() =>
  z.union([z.null(), z.boolean(), z.number(), z.string(), z.array(JsonSchema), z.record(z.string(), JsonSchema)]),
);
export type { Json };

/** The arena as an adapter may see it (harness.md §2): nothing about the dataset or the script. */
export const ArenaSpecSchema = z.object({
  id: z.string(),
  /** Declared tool names, as in arena.toml (resolve with `namesFor`). */
  tools: z.array(z.string()),
  systemPrompt: z.string(),
  durable: z.boolean(),
});
export type ArenaSpec = z.infer<typeof ArenaSpecSchema>;

/** The shared controls, identical for every adapter in a run (harness.md §1). */
export const AdapterConfigSchema = z.object({
  model: z.string(),
  baseUrl: z.string(),
  apiKey: z.string(),
  temperature: z.number(),
  requestTimeoutS: z.number().check(z.positive()),
  maxToolIterations: z.int().check(z.positive()),
});
export type AdapterConfig = z.infer<typeof AdapterConfigSchema>;

export const WorkItemSchema = z.object({
  id: z.string(),
  input: z.string(),
  resume_with: z.string(),
  /**
   * Harness-owned, fresh for each item × repeat, and the same for every leg of it (also when a
   * resume runs in another process): the only place an adapter may persist anything. Per item, so
   * nothing one item leaves behind can be found by the next.
   */
  checkpointDir: z.string(),
});
export type WorkItem = z.infer<typeof WorkItemSchema>;

export const ToolCallSchema = z.object({ name: z.string(), arguments: z.string() });

/** One leg's result (harness.md §3). */
export const AgentResultSchema = z.object({
  output_text: z._default(z.string(), ""),
  tool_calls: z._default(z.array(ToolCallSchema), []),
  prompt_tokens: z._default(z.int().check(z.nonnegative()), 0),
  completion_tokens: z._default(z.int().check(z.nonnegative()), 0),
  llm_calls: z._default(z.int().check(z.nonnegative()), 0),
  latency_s: z._default(z.number().check(z.nonnegative()), 0),
  error: z._default(z.nullable(z.string()), null),
  raw: z._default(z.nullable(JsonSchema), null),
  suspended: z._default(z.boolean(), false),
  suspend_request: z._default(z.string(), ""),
  resume_state: z._default(z.nullable(JsonSchema), null),
});
export type AgentResult = z.infer<typeof AgentResultSchema>;
export type AgentResultInput = z.input<typeof AgentResultSchema>;

/** Where the adapter module comes from: a catalogue name, or a module path (fixtures, tests). */
export const AdapterRefSchema = z.object({ name: z.string(), module: z.string() });
export type AdapterRef = z.infer<typeof AdapterRefSchema>;

export const UnavailableKindSchema = z.enum(["unsupported", "stub", "not_installed", "load_failed", "build_failed"]);
export type UnavailableKind = z.infer<typeof UnavailableKindSchema>;

// ---------------------------------------------------------------- parent → worker

/**
 * Which of a worker's seats a message is for. A worker on a non-durable arena may carry several
 * items at once (`--items-per-worker`), one per seat: each seat has its own runner per arena,
 * built with its own gateway identity, and legs of different seats run concurrently; messages of
 * one seat are handled strictly in order, as a single-seat worker handles all of its own. 0, the
 * default, is the only seat a one-item worker (and the Python host's caller) ever names.
 */
export const SeatSchema = z._default(z.int().check(z.nonnegative()), 0);

/** Build a runner for one arena; a worker serves one adapter, so every build names the same module. */
export const BuildMessage = z.object({
  type: z.literal("build"),
  adapter: AdapterRefSchema,
  arena: ArenaSpecSchema,
  config: AdapterConfigSchema,
  /** The search corpus file the tools read. */
  corpusPath: z.string(),
  seat: SeatSchema,
});
/** `arena` names the runner: one worker may hold a built runner for several arenas of a run. */
export const RunMessage = z.object({ type: z.literal("run"), job: z.string(), arena: z.string(), item: WorkItemSchema, seat: SeatSchema });
/** The human's answer at a pause, injected by the harness on resume. */
export const DECISIONS = ["approve", "deny"] as const;

export const ResumeMessage = z.object({
  type: z.literal("resume"),
  job: z.string(),
  arena: z.string(),
  item: WorkItemSchema,
  state: JsonSchema,
  decision: z.enum(DECISIONS),
  seat: SeatSchema,
});
export const ShutdownMessage = z.object({ type: z.literal("shutdown") });

export const ToWorkerSchema = z.discriminatedUnion("type", [BuildMessage, RunMessage, ResumeMessage, ShutdownMessage]);
export type ToWorker = z.infer<typeof ToWorkerSchema>;

/** The longest `address` or `host` a cause may carry (a DNS name is at most 253 characters). */
export const CAUSE_ENDPOINT_MAX = 255;
