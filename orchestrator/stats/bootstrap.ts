import { mulberry32 } from "./prng.ts";
import { quantileSorted } from "./quantile.ts";
import { assertConfidence } from "./validate.ts";

export interface BootstrapOptions {
  /** Seeds the resampling (see {@link mulberry32}); the same seed gives the same interval. */
  readonly seed: number;
  /** Number of resamples, a positive integer; default 2000. */
  readonly resamples?: number;
  /** Strictly between 0 and 1; default 0.95. */
  readonly confidence?: number;
}

/** A sample mean with an interval around it. */
export interface MeanInterval {
  readonly mean: number;
  readonly low: number;
  readonly high: number;
}

/**
 * The sample mean and a percentile-bootstrap interval for it: `resamples` resamples of the
 * same size drawn with replacement, and the (1 - confidence)/2 and (1 + confidence)/2 quantiles
 * (R type 7) of their means.
 *
 * - Empty `values` returns `undefined` (a report shows "n/a"); a non-finite value, a
 *   non-integer or non-positive `resamples` or a confidence outside (0, 1) throws a RangeError.
 * - Reproducible: the same values (in the same order), seed and options give bit-identical
 *   output on any machine, since the generator is integer-only and the arithmetic is in a fixed
 *   order.
 * - A constant sample gives low = high = mean = that value, exactly.
 * - The percentile interval is only as good as the sample: with few values it is too narrow.
 */
export function bootstrapMeanInterval(values: readonly number[], options: BootstrapOptions): MeanInterval | undefined {
  const { seed, resamples = 2000, confidence = 0.95 } = options;
  if (!Number.isSafeInteger(resamples) || resamples < 1) {
    throw new RangeError(`resamples must be a positive integer, got ${resamples}`);
  }
  assertConfidence(confidence);
  for (const v of values) if (!Number.isFinite(v)) throw new RangeError(`values must be finite, got ${v}`);
  const random = mulberry32(seed);
  const n = values.length;
  if (n === 0) return undefined;

  // Every mean is taken relative to the same origin, so a constant sample's means are exact.
  const origin = values[0]!;
  const shifted = Float64Array.from(values, (v) => v - origin);
  const mean = origin + shiftedSum(shifted) / n;
  // A constant sample: every resample's mean is the origin (sums of zeros), so is every quantile.
  if (shifted.every((d) => d === 0)) return { mean, low: mean, high: mean };
  const means = new Float64Array(resamples);
  for (let r = 0; r < resamples; r++) {
    let sum = 0;
    for (let i = 0; i < n; i++) sum += shifted[Math.floor(random() * n)]!;
    means[r] = origin + sum / n;
  }
  means.sort();
  const alpha = 1 - confidence;
  return { mean, low: quantileSorted(means, alpha / 2), high: quantileSorted(means, 1 - alpha / 2) };
}

function shiftedSum(shifted: Float64Array): number {
  let sum = 0;
  for (const d of shifted) sum += d;
  return sum;
}
