import { assertConfidence } from "./validate.ts";

const SQRT_2PI = Math.sqrt(2 * Math.PI);

/** The standard normal density. */
function density(x: number): number {
  // x² rounds, and exp() magnifies that error by x²/2; splitting x so the big part squares
  // exactly (Cody's device) keeps the density to an ulp or so far into the tail.
  const xh = Math.trunc(x * 16) / 16;
  const rest = (x - xh) * (x + xh);
  return (Math.exp(-0.5 * xh * xh) * Math.exp(-0.5 * rest)) / SQRT_2PI;
}

/**
 * P(Z > x) for a standard normal Z and x >= 0, to within a few ulps *relative* to its value,
 * also far into the tail where 1 - Φ(x) would keep no digits.
 *
 * Two expansions with no fitted coefficients, so their accuracy can be checked rather than
 * trusted: below 1 the all-positive series Φ(x) - 1/2 = φ(x)·Σ x^(2n+1)/(2n+1)!! (the
 * subtraction from 1/2 costs at most a factor 3 there); from 1 on Laplace's continued fraction
 * for the Mills ratio, evaluated from its tail end, which is stable where forward evaluation
 * (Lentz) drifts by several ulps.
 */
export function upperTailNormal(x: number): number {
  if (x < 1) {
    let term = x;
    let sum = x;
    for (let n = 1; term > sum * 1e-17; n++) {
      term *= (x * x) / (2 * n + 1);
      sum += term;
    }
    return 0.5 - density(x) * sum;
  }
  // Q(x)/φ(x) = 1/(x + 1/(x + 2/(x + 3/(x + ...)))). The depth needed falls like 1/x²; this
  // one gives the same double as four times the depth over [1, 40].
  let f = x;
  for (let k = Math.ceil(40 + 600 / (x * x)); k >= 1; k--) f = x + k / f;
  return density(x) / f;
}

/**
 * The x >= 0 with P(Z > x) = q, for q in (0, 0.5].
 *
 * Bisection on the doubles themselves: the tail is monotone and accurate to an ulp or two, so
 * halving until no double lies between the bounds lands as close to the true quantile, with no
 * approximation constants to get wrong. About 60 steps; callers memoise.
 */
function upperQuantile(q: number): number {
  if (q === 0.5) return 0;
  let lo = 0;
  let hi = 40; // P(Z > 40) is below the smallest double.
  for (;;) {
    const mid = lo + (hi - lo) / 2;
    if (mid <= lo || mid >= hi) break;
    if (upperTailNormal(mid) > q) lo = mid;
    else hi = mid;
  }
  return Math.abs(upperTailNormal(lo) - q) <= Math.abs(upperTailNormal(hi) - q) ? lo : hi;
}

/**
 * The standard normal quantile Φ⁻¹(p), R's `qnorm(p)`, for p strictly between 0 and 1 (a
 * RangeError otherwise). Within about an ulp of the exact value.
 */
export function normalQuantile(p: number): number {
  if (!(p > 0 && p < 1)) throw new RangeError(`p must be strictly between 0 and 1, got ${p}`);
  // 1 - p is exact for p >= 0.5, and below 0.5 p is itself the tail: no digits lost either way.
  return p < 0.5 ? -upperQuantile(p) : upperQuantile(1 - p);
}

const zByConfidence = new Map<number, number>();

/**
 * The two-sided critical value z with P(|Z| <= z) = confidence, R's `qnorm((1 + confidence) / 2)`:
 * 1.959963984540054 for 0.95 (precisely 1.9599639845400538, the double nearest the quantile of
 * the tail (1 - 0.95)/2 as the double 0.95 gives it). Confidence must lie strictly between 0
 * and 1 (RangeError otherwise).
 */
export function zForConfidence(confidence: number): number {
  assertConfidence(confidence);
  let z = zByConfidence.get(confidence);
  if (z === undefined) {
    // Solving for the tail (1 - c)/2 directly keeps the digits that (1 + c)/2 would round away.
    z = upperQuantile((1 - confidence) / 2);
    zByConfidence.set(confidence, z);
  }
  return z;
}
