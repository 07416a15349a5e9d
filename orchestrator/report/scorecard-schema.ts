/**
 * The scorecard JSON (`scorecards/<arena>.json`: `{ meta, rows }`) as a zod schema, so the rows'
 * TypeScript types and the published JSON Schema (docs/schema/) come from one definition.
 */
import { z } from "zod";
import { ERROR_CLASSES } from "../run/error-class.ts";
import { RunRecordSchema } from "./record.ts";

export const AvailableRowSchema = z.object({
  framework: z.string(),
  available: z.literal(true),
  lib_version: z.string(),
  /** Cells the provider served: the denominator of every figure in the row. */
  items: z.number().int().nonnegative(),
  pass_rate: z.number().min(0).max(1),
  passed: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  /** Errors by class (run/error-class.ts); only classes that occurred. */
  errors_by_class: z.partialRecord(z.enum(ERROR_CLASSES), z.number().int().positive()),
  /** Cells the provider failed (error class `infra`): counted here, in no other figure of the row. */
  not_served: z.number().int().nonnegative(),
  /** Those cells by cause (an HTTP status such as `503`, `reset`, `timeout`, …), most first. */
  not_served_by_cause: z.record(z.string(), z.number().int().positive()),
  /** Items on which the witness saw a rule broken. */
  violations: z.number().int().nonnegative(),
  /** Each broken rule's item count. */
  violations_by_rule: z.record(z.string(), z.number().int().positive()),
  mean_latency_s: z.number().nonnegative(),
  total_tokens: z.number().int().nonnegative(),
  mean_tokens: z.number().nonnegative(),
  mean_llm_calls: z.number().nonnegative(),
  est_cost_usd: z.number().nonnegative(),
  repeats: z.number().int().nonnegative(),
  pass_rate_by_repeat: z.array(z.number()),
  /** Population standard deviation of the per-repeat pass rates; null with fewer than two repeats. */
  pass_rate_stddev: z.number().nullable(),
  unstable_items: z.number().int().nonnegative(),
  unstable_item_ids: z.array(z.string()),
});
export type AvailableRow = z.infer<typeof AvailableRowSchema>;

export const UnavailableRowSchema = z.object({
  framework: z.string(),
  available: z.literal(false),
  reason: z.string(),
});
export type UnavailableRow = z.infer<typeof UnavailableRowSchema>;

export const ScorecardRowSchema = z.discriminatedUnion("available", [AvailableRowSchema, UnavailableRowSchema]);
export type ScorecardRow = z.infer<typeof ScorecardRowSchema>;

/**
 * Where a published row (`results/<arena>/`) comes from: every row names its run, and a row a
 * later run did not replace (its provider failed too many of that lane's cells) names that run
 * and why (report/publish.ts).
 */
export const PublishedSourceSchema = z.object({
  framework: z.string(),
  run_id: z.string(),
  started_at: z.string(),
  kept_over: z.object({ run_id: z.string(), reason: z.string() }).optional(),
});
export type PublishedSource = z.infer<typeof PublishedSourceSchema>;

export const ScorecardJsonSchema = z.object({
  /** The run record without its per-framework items (in results/: the newest run a row was published from). */
  meta: RunRecordSchema.omit({ frameworks: true }),
  rows: z.array(ScorecardRowSchema),
  /** Published scorecards only: each row's run. */
  sources: z.array(PublishedSourceSchema).optional(),
});
