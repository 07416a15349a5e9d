import { assertConfidence, assertCount } from "./validate.ts";
import { wilsonScoreBounds } from "./wilson.ts";

/**
 * One item's repeats folded into one unit: how many of its runs passed. The repeats of an item
 * are not independent evidence about a framework (on a deterministic provider they are copies),
 * so every figure here treats the item, not the run, as the sample.
 */
export interface ItemOutcomes {
  readonly id: string;
  readonly passes: number;
  readonly runs: number;
}

/**
 * Folds cells (one per item × repeat) into one {@link ItemOutcomes} per item, in the order each
 * item first appears. The caller chooses the cells: a report passes only the served ones.
 */
export function itemOutcomes(cells: readonly { item_id: string; passed: boolean }[]): ItemOutcomes[] {
  const byId = new Map<string, { passes: number; runs: number }>();
  for (const cell of cells) {
    const counts = byId.get(cell.item_id) ?? { passes: 0, runs: 0 };
    counts.runs++;
    if (cell.passed) counts.passes++;
    byId.set(cell.item_id, counts);
  }
  return [...byId].map(([id, { passes, runs }]) => ({ id, passes, runs }));
}

/**
 * Throws unless each item is a possible count (1 <= runs, 0 <= passes <= runs, integers) and no
 * id is listed twice; `list` names the argument in the message ("first items").
 */
export function checkItems(items: readonly ItemOutcomes[], list: string): void {
  const seen = new Set<string>();
  for (const item of items) {
    assertCount(`${list}: item ${item.id} passes`, item.passes);
    assertCount(`${list}: item ${item.id} runs`, item.runs);
    if (item.runs === 0) throw new RangeError(`${list}: item ${item.id} has no runs`);
    if (item.passes > item.runs) throw new RangeError(`${list}: item ${item.id} passes (${item.passes}) exceed its runs (${item.runs})`);
    // Two entries for one id would count that item twice: a bug upstream, not data to guess at.
    if (seen.has(item.id)) throw new Error(`${list}: item ${item.id} listed twice`);
    seen.add(item.id);
  }
}

export interface ClusteredInterval {
  readonly low: number;
  readonly high: number;
  /** The mean of the items' pass fractions: each item weighs the same, however often it ran. */
  readonly estimate: number;
  /** The number of items: the sample size the interval is built on. */
  readonly items: number;
}

/**
 * A confidence interval for a pass rate whose unit is the item: the Wilson score interval with
 * n = the number of items and p̂ = the mean of their pass fractions (orchestrator/stats/README.md
 * says why this one).
 *
 * - Deterministic repeats (every item all-pass or all-fail) give exactly
 *   `wilsonInterval(passingItems, items)`, the interval of one repeat, bit for bit.
 * - More repeats never narrow it: n stays the number of items.
 * - No items gives `undefined` (a report shows "n/a"); an impossible item (no runs, more passes
 *   than runs, an id twice) or a confidence outside (0, 1) throws.
 */
export function clusteredPassInterval(items: readonly ItemOutcomes[], confidence = 0.95): ClusteredInterval | undefined {
  checkItems(items, "items");
  assertConfidence(confidence);
  if (items.length === 0) return undefined;
  let fractions = 0;
  // A whole item adds exactly 1 or 0, so a deterministic lane's total is the integer count of
  // passing items, and the bounds below are the one-repeat Wilson bounds to the last bit.
  for (const item of items) fractions += item.passes === item.runs ? 1 : item.passes === 0 ? 0 : item.passes / item.runs;
  // Rounding must not carry a sum of fractions each at most 1 past the item count.
  fractions = Math.min(fractions, items.length);
  const { low, high } = wilsonScoreBounds(fractions, items.length, confidence);
  return { low, high, estimate: fractions / items.length, items: items.length };
}
