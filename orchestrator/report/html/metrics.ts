/**
 * Per-lane figures: means as the scorecard takes them (over every served item of the lane, errored
 * ones included, so the report and the scorecard never disagree), plus intervals when a provider is
 * given. Bootstrap seeds come from the figure's name, so rebuilding a report gives the same bars.
 */
import type { AdapterRecord, ItemRecord, RunRecord } from "../record.ts";
import type { ErrorClass } from "../../run/error-class.ts";
import { servedItems } from "../not-served.ts";
import { costUsd, hasPricing } from "../pricing.ts";
import { METRICS, type ReportStatistics, type Metric, type MetricName } from "./types.ts";

/** FNV-1a over the UTF-16 code units: small, stable, and enough to decorrelate seeds. */
export function seedOf(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export function mean(values: readonly number[]): number {
  return values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;
}


function itemValue(item: ItemRecord, metric: MetricName, pricing: RunRecord["pricing"]): number {
  switch (metric) {
    case "promptTokens":
      return item.prompt_tokens;
    case "completionTokens":
      return item.completion_tokens;
    case "llmCalls":
      return item.llm_calls;
    case "latencyS":
      return item.latency_s;
    case "costUsd":
      return costUsd(item.prompt_tokens, item.completion_tokens, pricing);
  }
}

export function laneMetrics(
  items: readonly ItemRecord[],
  pricing: RunRecord["pricing"],
  seedKey: string,
  intervals: ReportStatistics | undefined,
): Partial<Record<MetricName, Metric>> {
  const out: Partial<Record<MetricName, Metric>> = {};
  if (items.length === 0) return out;
  for (const metric of METRICS) {
    if (metric === "costUsd" && !hasPricing(pricing)) continue;
    const values = items.map((i) => itemValue(i, metric, pricing));
    const interval = intervals?.bootstrapMeanInterval(values, { seed: seedOf(`${seedKey}/${metric}`) });
    out[metric] = {
      mean: mean(values),
      n: values.length,
      ...(interval ? { meanInterval: { low: interval.low, high: interval.high } } : {}),
    };
  }
  return out;
}

export function errorsByClass(items: readonly ItemRecord[]): Partial<Record<ErrorClass, number>> {
  const counts: Partial<Record<ErrorClass, number>> = {};
  for (const i of items) {
    if (!i.error) continue;
    // A record from before error classes counts as the framework's own error, as the scorecard does.
    const c = i.error_class ?? "adapter";
    counts[c] = (counts[c] ?? 0) + 1;
  }
  return counts;
}

export function violationsByRule(items: readonly ItemRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const i of items) for (const rule of new Set((i.violations ?? []).map((v) => v.rule))) counts[rule] = (counts[rule] ?? 0) + 1;
  return counts;
}

/** Over the cells the provider served, as every other figure. */
export function meanPrompt(adapterRecord: AdapterRecord | undefined): number | undefined {
  const items = adapterRecord?.available ? servedItems(adapterRecord.items) : [];
  if (items.length === 0) return undefined;
  return mean(items.map((i) => i.prompt_tokens));
}
