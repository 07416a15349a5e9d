/**
 * The figures of one lane across two runs, over the cells both runs served (report/not-served.ts):
 * the paired test with each item's repeats one unit (stats/item-test.ts: baseline A first,
 * candidate B second, so `worse` counts items that got better in B), and the change in mean
 * tokens, cost and latency per cell, B − A and relative to A.
 */
import { itemOutcomes, pairedItemTest, type PairedItemResult } from "../stats/index.ts";
import { servedPairs } from "../report/not-served.ts";
import { costUsd, hasPricing, type Pricing } from "../report/pricing.ts";
import type { ItemRecord } from "../report/record.ts";

export const DELTA_METRICS = ["promptTokens", "completionTokens", "costUsd", "latencyS"] as const;
export type DeltaMetric = (typeof DELTA_METRICS)[number];

export interface Delta {
  /** Mean per compared cell in each run. */
  readonly a: number;
  readonly b: number;
  /** b − a. */
  readonly change: number;
  /** (b − a) / a; absent when a is 0 (no base to be relative to). */
  readonly relative?: number;
}

export interface PairedLane {
  readonly test: PairedItemResult;
  /** Absent for a metric neither run can state: cost where neither run was priced, or no cell compared. */
  readonly deltas: Partial<Record<DeltaMetric, Delta>>;
  /** (item, repeat) pairs both ran that were left out: the provider failed either side. */
  readonly dropped: number;
}

type Cell = Pick<ItemRecord, "item_id" | "repeat" | "passed" | "error_class" | "prompt_tokens" | "completion_tokens" | "latency_s">;

function value(cell: Cell, metric: DeltaMetric, pricing: Pricing): number {
  switch (metric) {
    case "promptTokens":
      return cell.prompt_tokens;
    case "completionTokens":
      return cell.completion_tokens;
    case "latencyS":
      return cell.latency_s;
    case "costUsd":
      return costUsd(cell.prompt_tokens, cell.completion_tokens, pricing);
  }
}

const priced = (p: Pricing | undefined) => p !== undefined && hasPricing(p);

function mean(values: readonly number[]): number {
  return values.reduce((s, v) => s + v, 0) / values.length;
}

/**
 * `aCells` and `bCells` whole: unserved pairs are dropped here. The deltas use only items present
 * on both sides, so an item added to B does not move B's mean tokens.
 */
export function pairLane(aCells: readonly Cell[], bCells: readonly Cell[], pricing: { a?: Pricing; b?: Pricing } = {}): PairedLane {
  const { first, second, dropped } = servedPairs(aCells, bCells);
  const test = pairedItemTest(itemOutcomes(first), itemOutcomes(second));
  const inB = new Set(second.map((c) => c.item_id));
  const inA = new Set(first.map((c) => c.item_id));
  const comparedA = first.filter((c) => inB.has(c.item_id));
  const comparedB = second.filter((c) => inA.has(c.item_id));
  const deltas: Partial<Record<DeltaMetric, Delta>> = {};
  if (comparedA.length > 0 && comparedB.length > 0) {
    for (const metric of DELTA_METRICS) {
      // An unpriced run's cost is unknown, not zero: no delta rather than a made-up one.
      if (metric === "costUsd" && !(priced(pricing.a) && priced(pricing.b))) continue;
      const zero = { input_per_m: 0, output_per_m: 0 };
      const a = mean(comparedA.map((c) => value(c, metric, pricing.a ?? zero)));
      const b = mean(comparedB.map((c) => value(c, metric, pricing.b ?? zero)));
      deltas[metric] = { a, b, change: b - a, ...(a !== 0 ? { relative: (b - a) / a } : {}) };
    }
  }
  return { test, deltas, dropped };
}

/** `+12.5 (+3.1%)`, `−0.002 (−40.0%)`: the change, then relative to A where A is not 0. */
export function deltaText(d: Delta | undefined, digits: number): string {
  if (d === undefined) return "-";
  const signed = (x: number, text: string) => (x > 0 ? `+${text}` : x < 0 ? `−${text.replace("-", "")}` : text);
  const change = signed(d.change, d.change.toFixed(digits));
  if (d.relative === undefined) return change;
  return `${change} (${signed(d.relative, (d.relative * 100).toFixed(1))}%)`;
}
