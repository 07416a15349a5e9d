import { zForConfidence } from "./normal.ts";
import { assertConfidence, assertCount } from "./validate.ts";

/** A closed interval `[low, high]`. */
export interface Interval {
  readonly low: number;
  readonly high: number;
}

/**
 * The Wilson score interval for a binomial proportion: the bounds R's
 * `prop.test(successes, n, conf.level = confidence, correct = FALSE)$conf.int` reports.
 *
 * - `successes` and `n` are integers with 0 <= successes <= n; `confidence` lies strictly
 *   between 0 and 1 (default 0.95, z = 1.959963984540054). Anything else throws a RangeError.
 * - `n = 0` returns `undefined`: there is no proportion to bound, and a report shows "n/a".
 * - 0 successes gives `low` exactly 0 and n successes gives `high` exactly 1, as in R.
 * - The interval for n - successes is the mirror image (1 - high, 1 - low), up to rounding.
 */
export function wilsonInterval(successes: number, n: number, confidence = 0.95): Interval | undefined {
  assertCount("successes", successes);
  assertCount("n", n);
  if (successes > n) throw new RangeError(`successes (${successes}) must not exceed n (${n})`);
  assertConfidence(confidence);
  if (n === 0) return undefined;
  return wilsonScoreBounds(successes, n, confidence);
}

/**
 * The Wilson bounds for a success total that may be fractional (0 <= successes <= n, n >= 1;
 * callers check): the clustered interval passes the sum of per-item pass fractions here, and an
 * integer total takes exactly the arithmetic of {@link wilsonInterval}, bit for bit.
 */
export function wilsonScoreBounds(successes: number, n: number, confidence: number): Interval {
  if (2 * successes > n) {
    // Work from the rarer outcome, where the formula below has no cancellation, and mirror.
    const m = fewerSideInterval(n - successes, n, confidence);
    return { low: 1 - m.high, high: 1 - m.low };
  }
  return fewerSideInterval(successes, n, confidence);
}

/** The interval for successes <= n/2, n >= 1. */
function fewerSideInterval(successes: number, n: number, confidence: number): Interval {
  const z = zForConfidence(confidence);
  const p = successes / n;
  const z2n = (z * z) / n;
  const scale = 1 + z2n;
  const high = (p + z2n / 2 + z * Math.sqrt((p * (1 - p)) / n + z2n / (4 * n))) / scale;
  // The bounds are the roots of scale·π² - (2p + z²/n)·π + p² = 0, so low·high = p²/scale.
  // Taking low from the product avoids subtracting two nearly equal numbers when p is small.
  const low = successes === 0 ? 0 : (p * p) / (scale * high);
  return { low, high };
}
