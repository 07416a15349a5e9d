/**
 * Two runs item by item: per arena × framework, cells paired by (item_id, repeat), with the exact
 * McNemar test on the discordant pairs. The regression rule is here, pure, so the CLI, its help
 * text and the README state one rule:
 *
 *   a lane (arena × framework) regresses when it was available in A and not in B, or when more
 *   than `threshold` of its paired cells passed in A and fail in B — and, only when `alpha` is
 *   given, that loss is also significant: McNemar's exact two-sided p < alpha, with more losses
 *   than gains.
 *
 * Only cells the provider served in both runs are paired (report/not-served.ts): a cell it failed
 * in either run is named apart, and can neither lose nor gain.
 */
import { pairOutcomes, pairedMcNemar, wilsonInterval } from "../stats/index.ts";
import { servedItems, servedPairs, unservedItems } from "../report/not-served.ts";
import type { RunRecord } from "../report/record.ts";

export interface CompareRule {
  /** Lost cells a lane may have and still not regress (default 0: any lost cell regresses). */
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
  readonly a?: { passed: number; cells: number; available: boolean };
  readonly b?: { passed: number; cells: number; available: boolean };
  /** Passed in A, fail in B; failed in A, pass in B. */
  readonly lost: readonly Cell[];
  readonly gained: readonly Cell[];
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

type Lane = RunRecord["frameworks"][number];

function side(adapterRecord: Lane | undefined) {
  if (!adapterRecord) return undefined;
  const served = servedItems(adapterRecord.items);
  return { passed: served.filter((i) => i.passed).length, cells: served.length, available: adapterRecord.available };
}

const cellsOf = (items: Lane["items"]): Cell[] => items.map(({ item_id, repeat }) => ({ item_id, repeat }));

export function compareLane(arena: string, adapter: string, a: Lane | undefined, b: Lane | undefined, rule: CompareRule): LaneDiff {
  const { first, second, dropped } = servedPairs(a?.items ?? [], b?.items ?? []);
  const { pairs, unpairedFirst, unpairedSecond } = pairOutcomes(first, second);
  const lost = pairs.filter((p) => p.first && !p.second).map(({ item_id, repeat }) => ({ item_id, repeat }));
  const gained = pairs.filter((p) => !p.first && p.second).map(({ item_id, repeat }) => ({ item_id, repeat }));
  const { pValue } = pairedMcNemar(first, second);
  const vanished = a?.available === true && b !== undefined && !b.available;
  const significant = rule.alpha === undefined || (pValue < rule.alpha && lost.length > gained.length);
  return {
    arena,
    framework: adapter,
    ...(a ? { a: side(a) } : {}),
    ...(b ? { b: side(b) } : {}),
    lost,
    gained,
    pValue,
    unpairedA: unpairedFirst,
    unpairedB: unpairedSecond,
    notServedA: cellsOf(unservedItems(a?.items ?? [])),
    notServedB: cellsOf(unservedItems(b?.items ?? [])),
    dropped,
    regression: vanished || (lost.length > rule.threshold && significant),
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
  return keys.map(([arena, adapterRecord]) => compareLane(arena, adapterRecord, lane(a, arena, adapterRecord), lane(b, arena, adapterRecord), rule));
}

/** `17/18 94% [74–99]`: the pass count, rate and its 95% Wilson interval. */
export function rateText(s: { passed: number; cells: number; available: boolean } | undefined): string {
  if (s === undefined) return "-";
  if (!s.available) return "not available";
  const ci = wilsonInterval(s.passed, s.cells);
  if (ci === undefined) return `0/0`;
  const pct = (x: number) => Math.round(x * 100);
  return `${s.passed}/${s.cells} ${pct(s.passed / s.cells)}% [${pct(ci.low)}–${pct(ci.high)}]`;
}
