/**
 * Two runs item by item: per arena × framework, each item's repeats folded into its pass fraction
 * (history/item-diff.ts says what fixed, broke and unchanged mean), with the paired sign-flip test
 * over items (stats/item-test.ts; exact McNemar on items when every fraction is 0 or 1). Repeats
 * are never counted as independent samples. The regression rule is here, pure, so the CLI, its
 * help text and the README state one rule:
 *
 *   a lane (arena × framework) regresses when it was available in A and not in B, or when more
 *   than `threshold` of its items broke (pass fraction lower in B) — and, only when `alpha` is
 *   given, that loss is also significant: the paired test's two-sided p < alpha, with more items
 *   broken than fixed.
 *
 * Only cells the provider served in both runs are paired (report/not-served.ts): a cell it failed
 * in either run is named apart, and can neither lose nor gain.
 */
import { clusteredPassInterval, itemOutcomes, pairOutcomes, wilsonInterval } from "../stats/index.ts";
import { servedItems, servedPairs, unservedItems } from "../report/not-served.ts";
import type { RunRecord } from "../report/record.ts";
import { countChanges, diffItems, type ChangeCounts, type ItemDiff } from "./item-diff.ts";
import { pairLane, type PairedLane } from "./paired-items.ts";

export interface CompareRule {
  /** Broken items a lane may have and still not regress (default 0: any broken item regresses). */
  readonly threshold: number;
  /** When set, a loss must also be significant at this level. */
  readonly alpha?: number;
}

export interface Cell {
  readonly item_id: string;
  readonly repeat: number;
}

export interface LaneDiff {
  readonly arena: string;
  readonly framework: string;
  /** Pass counts over each side's own served cells; undefined: the lane is not in that run. */
  readonly a?: SideRate;
  readonly b?: SideRate;
  /** Each side's pass-rate interval over items; absent where that side has no served item. */
  readonly intervals: { readonly a?: Interval; readonly b?: Interval };
  /** Cells (same item, same repeat) that passed in A and fail in B; failed in A and pass in B. */
  readonly lost: readonly Cell[];
  readonly gained: readonly Cell[];
  /** Every item of either side with what became of it, and the count per kind. */
  readonly items: readonly ItemDiff[];
  readonly changes: ChangeCounts;
  /** The paired test over items both runs served, and the tokens / cost / latency deltas. */
  readonly paired: PairedLane;
  /** The paired test's two-sided p (items, repeats one unit). */
  readonly pValue: number;
  readonly unpairedA: number;
  readonly unpairedB: number;
  /** Cells the provider failed in A, and in B: in no count above. */
  readonly notServedA: readonly Cell[];
  readonly notServedB: readonly Cell[];
  /** Pairs both runs had that were left out because the provider failed either side. */
  readonly dropped: number;
  readonly regression: boolean;
}

/** A lane's pass count over its served cells. */
export interface SideRate {
  readonly passed: number;
  readonly cells: number;
  readonly available: boolean;
}

export interface Interval {
  readonly low: number;
  readonly high: number;
}

type Lane = RunRecord["frameworks"][number];

function side(adapterRecord: Lane | undefined): SideRate | undefined {
  if (!adapterRecord) return undefined;
  const served = servedItems(adapterRecord.items);
  return { passed: served.filter((i) => i.passed).length, cells: served.length, available: adapterRecord.available };
}

/** The 95% interval over items (each item's repeats one unit), so more repeats never narrow it. */
function itemInterval(adapterRecord: Lane | undefined): Interval | undefined {
  const served = adapterRecord?.available ? servedItems(adapterRecord.items) : [];
  const ci = clusteredPassInterval(itemOutcomes(served));
  return ci ? { low: ci.low, high: ci.high } : undefined;
}

const cellsOf = (items: Lane["items"]): Cell[] => items.map(({ item_id, repeat }) => ({ item_id, repeat }));

/** Each run's prices, for the cost delta (absent: cost is not compared). */
export interface LanePricing {
  readonly a?: RunRecord["pricing"];
  readonly b?: RunRecord["pricing"];
}

export function compareLane(arena: string, adapter: string, a: Lane | undefined, b: Lane | undefined, rule: CompareRule, pricing: LanePricing = {}): LaneDiff {
  const { first, second, dropped } = servedPairs(a?.items ?? [], b?.items ?? []);
  const { pairs, unpairedFirst, unpairedSecond } = pairOutcomes(first, second);
  const lost = pairs.filter((p) => p.first && !p.second).map(({ item_id, repeat }) => ({ item_id, repeat }));
  const gained = pairs.filter((p) => !p.first && p.second).map(({ item_id, repeat }) => ({ item_id, repeat }));
  const items = diffItems(a?.items ?? [], b?.items ?? []);
  const changes = countChanges(items);
  const paired = pairLane(a?.items ?? [], b?.items ?? [], pricing);
  const pValue = paired.test.pValue;
  const vanished = a?.available === true && b !== undefined && !b.available;
  const significant = rule.alpha === undefined || (pValue < rule.alpha && changes.broke > changes.fixed);
  return {
    arena,
    framework: adapter,
    ...(a ? { a: side(a) } : {}),
    ...(b ? { b: side(b) } : {}),
    intervals: { ...(itemInterval(a) ? { a: itemInterval(a) } : {}), ...(itemInterval(b) ? { b: itemInterval(b) } : {}) },
    lost,
    gained,
    items,
    changes,
    paired,
    pValue,
    unpairedA: unpairedFirst,
    unpairedB: unpairedSecond,
    notServedA: cellsOf(unservedItems(a?.items ?? [])),
    notServedB: cellsOf(unservedItems(b?.items ?? [])),
    dropped,
    regression: vanished || (changes.broke > rule.threshold && significant),
  };
}

/** Every lane of either run, in A's order then B's new ones. */
export function compareRuns(a: readonly RunRecord[], b: readonly RunRecord[], rule: CompareRule): LaneDiff[] {
  const keys: [string, string][] = [];
  const seen = new Set<string>();
  for (const r of [...a, ...b]) {
    for (const adapterRecord of r.frameworks) {
      const key = JSON.stringify([r.arena, adapterRecord.framework]);
      if (!seen.has(key)) keys.push([r.arena, adapterRecord.framework]);
      seen.add(key);
    }
  }
  const lane = (records: readonly RunRecord[], arena: string, adapter: string) =>
    records.find((r) => r.arena === arena)?.frameworks.find((f) => f.framework === adapter);
  const pricing = (records: readonly RunRecord[], arena: string) => records.find((r) => r.arena === arena)?.pricing;
  return keys.map(([arena, adapter]) => {
    const prices = { ...(pricing(a, arena) ? { a: pricing(a, arena) } : {}), ...(pricing(b, arena) ? { b: pricing(b, arena) } : {}) };
    return compareLane(arena, adapter, lane(a, arena, adapter), lane(b, arena, adapter), rule, prices);
  });
}

/**
 * `17/18 94% [74–99]`: the pass count, rate and its 95% interval — `interval` when given (the
 * lane's interval over items: Wilson's at one repeat, never narrower with more), else Wilson's.
 */
export function rateText(s: SideRate | undefined, interval?: Interval): string {
  if (s === undefined) return "-";
  if (!s.available) return "not available";
  const ci = interval ?? wilsonInterval(s.passed, s.cells);
  if (ci === undefined) return `0/0`;
  const pct = (x: number) => Math.round(x * 100);
  return `${s.passed}/${s.cells} ${pct(s.passed / s.cells)}% [${pct(ci.low)}–${pct(ci.high)}]`;
}
