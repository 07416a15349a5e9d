import { assertCount } from "./validate.ts";

/**
 * ln C(n, k) for integers 0 <= k <= n (callers check), to a few ulps: a compensated sum of
 * ln(1 + (n-k)/i) over min(k, n-k) steps, so no log-gamma approximation is involved.
 */
export function logChoose(n: number, k: number): number {
  const m = Math.min(k, n - k);
  const rest = n - m;
  let sum = 0;
  let carry = 0; // Neumaier: tens of thousands of positive terms would otherwise drift.
  for (let i = 1; i <= m; i++) {
    const term = Math.log1p(rest / i);
    const t = sum + term;
    carry += Math.abs(sum) >= Math.abs(term) ? sum - t + term : term - t + sum;
    sum = t;
  }
  return sum + carry;
}

/**
 * P(X <= k) for X ~ Binomial(n, 1/2), R's `pbinom(k, n, 0.5)`. `n` is a non-negative integer
 * (RangeError otherwise); any integer k is allowed (k < 0 gives 0, k >= n gives 1).
 *
 * Exact for n <= 50; beyond, accurate to about 1e-11 relative for n up to 10⁶ and more, tails
 * included, as no factorial or 2^n is ever formed. Results below the smallest double (e.g.
 * P(X = 0) for n = 10⁵) are 0.
 */
export function binomialHalfCdf(k: number, n: number): number {
  assertCount("n", n);
  if (!Number.isSafeInteger(k)) throw new RangeError(`k must be an integer, got ${k}`);
  if (k < 0) return 0;
  if (k >= n) return 1;
  // Below the mode every term is smaller than the last, which the summation below relies on.
  if (2 * k > n) return 1 - binomialHalfCdf(n - k - 1, n);

  if (n <= 50) {
    // C(n, i)·i stays below 2^53, so every term and the sum are exact integers: the few
    // discordant pairs a benchmark usually has get their p-value to the last bit.
    let term = 1;
    let sum = 1;
    for (let i = 1; i <= k; i++) {
      term = (term * (n - i + 1)) / i;
      sum += term;
    }
    return sum / 2 ** n;
  }
  // Sum the terms relative to the largest, P(X = k), going down: term(i-1)/term(i) = i/(n-i+1).
  let term = 1;
  let sum = 1;
  for (let i = k; i > 0; i--) {
    const ratio = i / (n - i + 1);
    term *= ratio;
    sum += term;
    // The ratios shrink as i falls, so all that is left is below term·ratio/(1 - ratio).
    if ((term * ratio) / (1 - ratio) < sum * 1e-17) break;
  }
  return Math.exp(logChoose(n, k) - n * Math.LN2) * sum;
}
