import { binomialHalfCdf } from "./binomial.ts";
import { assertCount } from "./validate.ts";

/** The discordant counts of a paired comparison and the exact two-sided p-value. */
export interface McNemarResult {
  /** Pairs where the first framework passed and the second failed. */
  readonly b: number;
  /** Pairs where the first framework failed and the second passed. */
  readonly c: number;
  readonly pValue: number;
}

/**
 * The exact (binomial) McNemar test on the discordant pair counts `b` and `c` (non-negative
 * integers; RangeError otherwise). Under the null hypothesis that both frameworks pass equally
 * often, b ~ Binomial(b + c, 1/2); the two-sided p-value is min(1, 2·P(X <= min(b, c))),
 * which equals R's `binom.test(b, b + c, 0.5)$p.value`. (R's `mcnemar.test` is the chi-square
 * approximation, not this.) Concordant pairs carry no information and are not inputs.
 *
 * b + c = 0 (no discordant pair) gives p = 1. Exact for b + c up to 10⁶ and beyond.
 */
export function exactMcNemar(b: number, c: number): McNemarResult {
  assertCount("b", b);
  assertCount("c", c);
  const n = b + c;
  if (n === 0) return { b, c, pValue: 1 };
  return { b, c, pValue: Math.min(1, 2 * binomialHalfCdf(Math.min(b, c), n)) };
}
