/**
 * The raw run record (harness.md §10): one JSON file per arena run, from which every scorecard
 * and summary is derived. Read back through zod, so a hand-edited or truncated record gives a
 * clear error instead of a wrong table.
 */
import { z } from "zod";
import { ERROR_CLASSES } from "../run/error-class.ts";
import { PROVIDER_FAULTS } from "../gateway/record-types.ts";
import { ProvenanceSchema } from "./provenance.ts";

export const CheckRecordSchema = z.object({
  type: z.string(),
  ok: z.boolean(),
  detail: z.string(),
  spec: z.unknown(),
});
export type CheckRecord = z.infer<typeof CheckRecordSchema>;

/** Usage as the gateway served it (mock mode): what the adapter's own report is checked against. */
export const ServedSchema = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  llm_calls: z.number().int().nonnegative(),
});

/** One leg of a paused item (port addition): per-leg usage is where double counting hides. */
export const LegRecordSchema = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  llm_calls: z.number().int().nonnegative(),
  tool_calls: z.array(z.string()),
  suspended: z.boolean(),
  /** The harness's clock for the leg (sent to answered), rounded to 4 dp. */
  latency_s: z.number().nonnegative().optional(),
  served: ServedSchema.optional(),
  resume_state_bytes: z.number().int().nonnegative().optional(),
});
export type LegRecord = z.infer<typeof LegRecordSchema>;

/** One rule the witness saw broken (orchestrator/witness/rules.ts), with its evidence cut short. */
export const RuleViolationSchema = z.object({
  rule: z.string(),
  leg: z.number().int().positive(),
  request: z.number().int().positive().optional(),
  detail: z.string(),
});

/** What the adapter said about itself; the record's figures are the witness's. */
export const ReportedSchema = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  llm_calls: z.number().int().nonnegative(),
  latency_s: z.number().nonnegative(),
  /** The answer and tool calls the adapter reported; the record's own are the served ones. */
  output_text: z.string().optional(),
  tool_calls: z.array(z.string()).optional(),
});

export const ItemRecordSchema = z.object({
  repeat: z.number().int().nonnegative(),
  item_id: z.string(),
  passed: z.boolean(),
  checks: z.array(CheckRecordSchema),
  output_text: z.string(),
  tool_calls: z.array(z.string()),
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  latency_s: z.number().nonnegative(),
  llm_calls: z.number().int().nonnegative(),
  error: z.string().nullable(),
  /** Set with `error`: infra, adapter, protocol, timeout or harness (run/error-class.ts). */
  error_class: z.enum(ERROR_CLASSES).optional(),
  suspends: z.number().int().optional(),
  tool_calls_before_suspend: z.array(z.string()).optional(),
  served: ServedSchema.optional(),
  /** The adapter's own figures, when the witness's replaced them (a mismatch is a violation). */
  reported: ReportedSchema.optional(),
  /** Rules the witness saw broken on this item's requests; absent when it saw none. */
  violations: z.array(RuleViolationSchema).optional(),
  /**
   * The provider's faults the gateway saw on this item's attempts (run/provider-faults.ts), in
   * order: the leg, what went wrong on the wire, the status (null without one). Absent when none.
   */
  provider_faults: z
    .array(z.object({ leg: z.number().int().positive(), fault: z.enum(PROVIDER_FAULTS), status: z.number().int().nullable() }))
    .optional(),
  /** Attempts the framework made again after a provider fault on the same leg: credited, never a violation. */
  retries: z.number().int().nonnegative().optional(),
  /** Violations a provider fault on their leg caused: charged to nobody; `waived` says which fault. */
  waived_violations: z.array(RuleViolationSchema.extend({ waived: z.string() })).optional(),
  legs: z.array(LegRecordSchema).optional(),
  traceback: z.string().optional(),
});
export type ItemRecord = z.infer<typeof ItemRecordSchema>;

export const UnavailableKindSchema = z.enum(["unsupported", "stub", "not_installed", "load_failed", "build_failed"]);

/**
 * How the lane's workers were isolated (orchestrator/supervisor/sandbox/): `sandbox` = sealed in
 * bubblewrap, `watched` = unsealed but checked for survivors and stray writes; `violations` are
 * what watching saw, each reported on the first lane record written after the worker stopped.
 */
export const IsolationRecordSchema = z.object({
  level: z.enum(["sandbox", "watched"]),
  network: z.enum(["sealed", "shared"]),
  tool: z.string(),
  reason: z.string().optional(),
  violations: z.array(z.string()).optional(),
});
export type IsolationRecord = z.infer<typeof IsolationRecordSchema>;

/**
 * One declared departure from the witness's exact rules (contract/declarations.ts): published per
 * lane so a reader of the record or the report sees what the adapter was allowed to do differently.
 */
export const DeclaredLineSchema = z.object({ kind: z.string(), what: z.string(), why: z.string() });

export const AdapterRecordSchema = z.object({
  framework: z.string(),
  available: z.boolean(),
  lib_version: z.string(),
  /** Variant entries (adapters scoped to some arenas) are marked in the summary. */
  variant: z.boolean().default(false),
  reason: z.string().optional(),
  unavailable_kind: UnavailableKindSchema.optional(),
  traceback: z.string().optional(),
  isolation: IsolationRecordSchema.optional(),
  /** The adapter's wire declarations the witness held this lane to; absent when it declared none. */
  declarations: z.array(DeclaredLineSchema).optional(),
  items: z.array(ItemRecordSchema),
});
export type AdapterRecord = z.infer<typeof AdapterRecordSchema>;

/**
 * The version of the files this harness writes. A reader skips (with one warning) a record of any
 * other version instead of misreading it; bump it when a field changes meaning.
 */
export const FORMAT_VERSION = 2;

export const RunStatusSchema = z.enum(["complete", "interrupted"]);
export type RunStatus = z.infer<typeof RunStatusSchema>;

export const RunRecordSchema = z.object({
  schema: z.literal(1),
  format_version: z.literal(FORMAT_VERSION),
  /** The run folder this record belongs to (`runs/<run_id>/`). */
  run_id: z.string(),
  /** `interrupted`: a signal stopped the run; the record holds what had finished. */
  status: RunStatusSchema,
  arena: z.string(),
  arena_description: z.string(),
  mode: z.enum(["mock", "live"]),
  model: z.string(),
  temperature: z.number(),
  repeat: z.number().int().positive(),
  dataset_size: z.number().int().nonnegative(),
  filtered_to: z.array(z.string()).optional(),
  started_at: z.string(),
  duration_s: z.number(),
  harness_version: z.string(),
  node: z.string(),
  platform: z.string(),
  pricing: z.object({ input_per_m: z.number(), output_per_m: z.number() }),
  /** The command, code, provider host, configuration, data hashes and machine (absent in older records). */
  provenance: ProvenanceSchema.optional(),
  frameworks: z.array(AdapterRecordSchema),
});
export type RunRecord = z.infer<typeof RunRecordSchema>;

export const HARNESS_VERSION = "0.1.0";

/** `YYYY-MM-DDTHH:MM:SSZ`, as records carry it. */
export function isoSeconds(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, "Z");
}
