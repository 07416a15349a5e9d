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
  items: z.number().int().nonnegative(),
  pass_rate: z.number().min(0).max(1),
  passed: z.number().int().nonnegative(),
  errors: z.number().int().nonnegative(),
  /** Errors by class (run/error-class.ts); only classes that occurred. */
  errors_by_class: z.partialRecord(z.enum(ERROR_CLASSES), z.number().int().positive()),
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

export const ScorecardJsonSchema = z.object({
  /** The run record without its per-framework items. */
  meta: RunRecordSchema.omit({ frameworks: true }),
  rows: z.array(ScorecardRowSchema),
});
