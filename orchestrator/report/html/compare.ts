/**
 * The run-vs-run view of a combined report: for each pair of consecutive runs, every arena ×
 * framework lane item by item (history/item-diff.ts: fixed, broke, unchanged, on one side only,
 * not served), the paired test over the items both runs served and the deltas
 * (history/paired-items.ts), and per item a link to it in each run's column.
 */
import { diffItems, countChanges, type ItemDiff } from "../../history/item-diff.ts";
import { pairLane } from "../../history/paired-items.ts";
import type { RunRecord } from "../record.ts";
import type { ComparedItem, ComparedLane, ComparedRun, RunComparison } from "./compare-types.ts";

type Lane = RunRecord["frameworks"][number];

/** What a run must offer to be compared: data.ts's ComparableRun fits (not imported: data.ts imports this file). */
export interface ComparableRun {
  readonly runId: string;
  readonly manifest?: { readonly mode: "mock" | "live" };
  readonly records: readonly RunRecord[];
}

/** The link format the item view opens: every part URI-encoded, the repeat 1-based. */
export function itemLink(arena: string, itemId: string, series: string, repeat: number): string {
  return `#${[arena, itemId, series, String(repeat + 1)].map(encodeURIComponent).join("/")}`;
}

function lanesOf(records: readonly RunRecord[]): Map<string, { arena: string; lane: Lane; pricing: RunRecord["pricing"] }> {
  const out = new Map<string, { arena: string; lane: Lane; pricing: RunRecord["pricing"] }>();
  for (const r of [...records].sort((x, y) => x.arena.localeCompare(y.arena))) {
    for (const lane of r.frameworks) out.set(JSON.stringify([r.arena, lane.framework]), { arena: r.arena, lane, pricing: r.pricing });
  }
  return out;
}

function comparedItem(arena: string, d: ItemDiff, seriesA: string | undefined, seriesB: string | undefined): ComparedItem {
  // The first repeat that ran: the item view shows its siblings from there.
  const firstA = d.repeatsA[0];
  const firstB = d.repeatsB[0];
  return {
    itemId: d.itemId,
    change: d.change,
    ...(d.a ? { a: d.a } : {}),
    ...(d.b ? { b: d.b } : {}),
    ...(seriesA !== undefined && firstA !== undefined ? { linkA: itemLink(arena, d.itemId, seriesA, firstA) } : {}),
    ...(seriesB !== undefined && firstB !== undefined ? { linkB: itemLink(arena, d.itemId, seriesB, firstB) } : {}),
  };
}

function compareTwo(a: ComparableRun, b: ComparableRun, sideA: ComparedRun, sideB: ComparedRun): RunComparison {
  const lanesA = lanesOf(a.records);
  const lanesB = lanesOf(b.records);
  const keys = [...new Set([...lanesA.keys(), ...lanesB.keys()])].sort();
  const lanes: ComparedLane[] = keys.map((key) => {
    const [arena, framework] = JSON.parse(key) as [string, string];
    const inA = lanesA.get(key);
    const inB = lanesB.get(key);
    const seriesA = inA ? `${sideA.label}/${framework}` : undefined;
    const seriesB = inB ? `${sideB.label}/${framework}` : undefined;
    const diffs = diffItems(inA?.lane.items ?? [], inB?.lane.items ?? []);
    const paired = pairLane(inA?.lane.items ?? [], inB?.lane.items ?? [], { ...(inA ? { a: inA.pricing } : {}), ...(inB ? { b: inB.pricing } : {}) });
    const { better, worse, tied, paired: n, pValue } = paired.test;
    return {
      arena,
      framework,
      ...(seriesA ? { seriesA } : {}),
      ...(seriesB ? { seriesB } : {}),
      changes: countChanges(diffs),
      test: { better, worse, tied, paired: n, pValue },
      dropped: paired.dropped,
      deltas: paired.deltas,
      items: diffs.map((d) => comparedItem(arena, d, seriesA, seriesB)),
    };
  });
  return { a: sideA, b: sideB, lanes };
}

/**
 * `labels[i]` is the combined report's label of `runs[i]` (`R1`…), which its column ids start with.
 * Fewer than two runs compare nothing.
 */
export function runComparisons(runs: readonly ComparableRun[], labels: readonly string[]): RunComparison[] {
  const side = (i: number): ComparedRun => ({ runId: runs[i]!.runId, label: labels[i]!, mode: runs[i]!.manifest?.mode ?? runs[i]!.records[0]?.mode ?? "mock" });
  const out: RunComparison[] = [];
  for (let i = 1; i < runs.length; i++) out.push(compareTwo(runs[i - 1]!, runs[i]!, side(i - 1), side(i)));
  return out;
}
