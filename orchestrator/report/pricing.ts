/**
 * What tokens cost at a run's prices, in one place: the scorecard's estimate, the report's cost
 * figures and the run-against-run deltas all price a cell the same way.
 */
import type { RunRecord } from "./record.ts";

export type Pricing = RunRecord["pricing"];

/** Estimated dollars for these tokens at the prices per million prompt and completion tokens. */
export function costUsd(promptTokens: number, completionTokens: number, pricing: Pricing): number {
  return (promptTokens / 1e6) * pricing.input_per_m + (completionTokens / 1e6) * pricing.output_per_m;
}

/** Whether the run was priced at all: an unpriced run's cost is unknown, and a zero price would chart a row of zeros as data. */
export function hasPricing(pricing: Pricing): boolean {
  return pricing.input_per_m > 0 || pricing.output_per_m > 0;
}
