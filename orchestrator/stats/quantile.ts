/**
 * The q-quantile of ascending-sorted, non-empty `sorted`, q in [0, 1], by linear interpolation
 * between order statistics: R's default `quantile(x, q, type = 7)`. Equal neighbours give
 * their value exactly, so a constant sample has every quantile equal to it.
 */
export function quantileSorted(sorted: ArrayLike<number>, q: number): number {
  const h = (sorted.length - 1) * q;
  const lo = Math.floor(h);
  const a = sorted[lo]!;
  const b = sorted[Math.min(lo + 1, sorted.length - 1)]!;
  return a === b ? a : a + (h - lo) * (b - a);
}
