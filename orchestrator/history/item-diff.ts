/**
 * One lane of two runs, item by item: what became of each item from run A (the baseline) to run B
 * (the candidate). An item's repeats are one unit: its outcome in a run is its pass fraction over
 * the repeats the provider served, so `--repeat 3` and `--repeat 1` of a deterministic lane give the
 * same verdicts.
 *
 *   fixed      B's pass fraction is higher than A's (0/1 → 1/1, or 1/3 → 2/3)
 *   broke      B's pass fraction is lower than A's
 *   unchanged  the fractions are equal (pass → pass, fail → fail, or 2/3 → 2/3)
 *   only-a / only-b  the item ran in one run only
 *   not-served the item ran in both, but after dropping every (item, repeat) pair the provider
 *              failed in either run, one side has no cell left: a provider fault is never a
 *              framework's regression, nor its fix
 */
import { servedPairs } from "../report/not-served.ts";
import type { ItemRecord } from "../report/record.ts";

export const ITEM_CHANGES = ["fixed", "broke", "unchanged", "only-a", "only-b", "not-served"] as const;
export type ItemChange = (typeof ITEM_CHANGES)[number];

/** Passes over served runs of one item in one run. */
export interface ItemScore {
  readonly passes: number;
  readonly runs: number;
}

export interface ItemDiff {
  readonly itemId: string;
  readonly change: ItemChange;
  /** Over the cells compared (served in both runs); absent where the item did not run on that side. */
  readonly a?: ItemScore;
  readonly b?: ItemScore;
  /** The repeats each run recorded for the item (0-based, as records hold them), served or not. */
  readonly repeatsA: readonly number[];
  readonly repeatsB: readonly number[];
}

export type ChangeCounts = Record<ItemChange, number>;

type Cell = Pick<ItemRecord, "item_id" | "repeat" | "passed" | "error_class">;

function scores(cells: readonly Cell[]): Map<string, ItemScore> {
  const out = new Map<string, ItemScore>();
  for (const c of cells) {
    const s = out.get(c.item_id) ?? { passes: 0, runs: 0 };
    out.set(c.item_id, { passes: s.passes + (c.passed ? 1 : 0), runs: s.runs + 1 });
  }
  return out;
}

function repeatsOf(cells: readonly Cell[]): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const c of cells) out.set(c.item_id, [...(out.get(c.item_id) ?? []), c.repeat].sort((x, y) => x - y));
  return out;
}

/** Compares pass fractions exactly (cross-multiplied integers, no rounding). */
function changeOf(a: ItemScore, b: ItemScore): ItemChange {
  const num = b.passes * a.runs - a.passes * b.runs;
  return num > 0 ? "fixed" : num < 0 ? "broke" : "unchanged";
}

/** Every item of either lane, in A's order then B's new ones. */
export function diffItems(aCells: readonly Cell[], bCells: readonly Cell[]): ItemDiff[] {
  const { first, second } = servedPairs(aCells, bCells);
  const servedA = scores(first);
  const servedB = scores(second);
  const repeatsA = repeatsOf(aCells);
  const repeatsB = repeatsOf(bCells);
  const ids = [...new Set([...aCells, ...bCells].map((c) => c.item_id))];
  return ids.map((itemId) => {
    const inA = repeatsA.get(itemId) ?? [];
    const inB = repeatsB.get(itemId) ?? [];
    const a = servedA.get(itemId);
    const b = servedB.get(itemId);
    const base = { itemId, repeatsA: inA, repeatsB: inB, ...(a ? { a } : {}), ...(b ? { b } : {}) };
    if (inB.length === 0) return { ...base, change: "only-a" };
    if (inA.length === 0) return { ...base, change: "only-b" };
    if (!a || !b) return { ...base, change: "not-served" };
    return { ...base, change: changeOf(a, b) };
  });
}

export function countChanges(diffs: readonly ItemDiff[]): ChangeCounts {
  const counts = Object.fromEntries(ITEM_CHANGES.map((c) => [c, 0])) as ChangeCounts;
  for (const d of diffs) counts[d.change]++;
  return counts;
}

/** `2/3`: an item's passes over its compared runs. */
export function scoreText(s: ItemScore | undefined): string {
  return s === undefined ? "-" : `${s.passes}/${s.runs}`;
}
