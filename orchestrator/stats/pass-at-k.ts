import { assertCount } from "./validate.ts";

/** One item's attempts: `n` runs, `c` of them passed. */
export interface ItemCounts {
  readonly n: number;
  readonly c: number;
}

function check(n: number, c: number, k: number): void {
  assertCount("n", n);
  assertCount("c", c);
  if (c > n) throw new RangeError(`c (${c}) must not exceed n (${n})`);
  if (!Number.isSafeInteger(k) || k < 1) throw new RangeError(`k must be a positive integer, got ${k}`);
}

/**
 * pass@k, the unbiased estimator of Chen et al. 2021 ("Evaluating Large Language Models Trained
 * on Code"): 1 - C(n-c, k)/C(n, k), the chance that at least one of k attempts drawn without
 * replacement from the n made passes.
 *
 * `n`, `c` are non-negative integers with c <= n and `k` a positive integer (RangeError
 * otherwise). n < k returns `undefined` ("n/a"): k attempts were never made, and reporting
 * 1.0 or any other number would be invented. c = 0 gives 0; n - c < k gives 1.
 */
export function passAtK(n: number, c: number, k: number): number | undefined {
  check(n, c, k);
  if (n < k) return undefined;
  if (n - c < k) return 1;
  // C(n-c, k)/C(n, k) = Π_{i=n-c+1..n} (1 - k/i): no binomial coefficient, so no overflow.
  let allFail = 1;
  for (let i = n - c + 1; i <= n; i++) allFail *= 1 - k / i;
  return 1 - allFail;
}

/**
 * pass^k as τ-bench defines it (Yao et al. 2024): C(c, k)/C(n, k), the chance that all k of k
 * attempts drawn without replacement from the n made pass; a measure of consistency.
 *
 * Same inputs and `undefined` for n < k as {@link passAtK}. c < k gives 0; c = n gives 1.
 */
export function passHatK(n: number, c: number, k: number): number | undefined {
  check(n, c, k);
  if (n < k) return undefined;
  if (c < k) return 0;
  let allPass = 1;
  for (let i = 0; i < k; i++) allPass *= (c - i) / (n - i);
  return allPass;
}

function meanOver(items: readonly ItemCounts[], k: number, estimate: typeof passAtK): number | undefined {
  if (items.length === 0) return undefined;
  let sum = 0;
  for (const { n, c } of items) {
    const v = estimate(n, c, k);
    if (v === undefined) return undefined;
    sum += v;
  }
  return sum / items.length;
}

/**
 * A framework's pass@k: the mean of {@link passAtK} over its items, each weighted equally.
 * `undefined` for no items, or if any item has fewer than k attempts: averaging over only the
 * items that have enough would quietly change what the number measures.
 */
export function meanPassAtK(items: readonly ItemCounts[], k: number): number | undefined {
  return meanOver(items, k, passAtK);
}

/** A framework's pass^k: the mean of {@link passHatK} over its items, as {@link meanPassAtK}. */
export function meanPassHatK(items: readonly ItemCounts[], k: number): number | undefined {
  return meanOver(items, k, passHatK);
}
