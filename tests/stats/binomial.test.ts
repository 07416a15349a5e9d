import { describe, expect, it } from "vitest";
import { binomialHalfCdf, logChoose } from "../../orchestrator/stats/binomial.ts";
import { choose, expectRelative, ratio } from "./helpers.ts";

/** Σ_{i <= j} C(n, i) for j = 0..upTo, exactly. */
function cumulativeChoose(n: number, upTo = n): bigint[] {
  const sums: bigint[] = [];
  let sum = 0n;
  let c = 1n;
  for (let i = 0; i <= upTo; i++) {
    if (i > 0) c = (c * BigInt(n - i + 1)) / BigInt(i);
    sum += c;
    sums.push(sum);
  }
  return sums;
}

/** P(X <= k) for X ~ Binomial(n, 1/2), from the exact fraction Σ C(n, i) / 2^n. */
const exactHalfCdf = (sums: bigint[], k: number, n: number): number => ratio(sums[k]!, 1n << BigInt(n));

describe("binomialHalfCdf", () => {
  it("is exact for every k when n <= 50, and to 1e-13 up to n = 200", () => {
    const off: string[] = [];
    for (let n = 0; n <= 200; n++) {
      cumulativeChoose(n).forEach((_, k, sums) => {
        const exact = exactHalfCdf(sums, k, n);
        const got = binomialHalfCdf(k, n);
        if (n <= 50 ? got !== exact : Math.abs(got - exact) > 1e-13 * exact) off.push(`${k} of ${n}: ${got} vs ${exact}`);
      });
    }
    expect(off).toEqual([]);
  });

  it("handles n = 10,000 with no overflow, tails included", () => {
    const sums = cumulativeChoose(10_000, 6000);
    for (const k of [0, 100, 3000, 4000, 4900, 4950, 4999, 5000, 5001, 6000]) {
      const exact = exactHalfCdf(sums, k, 10_000); // k = 0 and 100 fall below the smallest double
      if (exact === 0) expect(binomialHalfCdf(k, 10_000)).toBe(0);
      else expectRelative(binomialHalfCdf(k, 10_000), exact, 1e-10);
    }
    // Python exact fractions (tests/stats/reference.py) and R's pbinom(4900, 10000, 0.5).
    expectRelative(binomialHalfCdf(4900, 10_000), 0.023292763852473693, 1e-10);
    expectRelative(binomialHalfCdf(4900, 10_000), 0.0232927638524737, 1e-10);
    expectRelative(binomialHalfCdf(4000, 10_000), 8.702158206134392e-90, 1e-10);
  });

  it("handles n = 100,000 and 1,000,000", () => {
    // Python exact fractions; R pbinom gives 0.000791179939425798 and 4.30017082285778e-220.
    expectRelative(binomialHalfCdf(49_500, 100_000), 0.0007911799394257978, 1e-10);
    expectRelative(binomialHalfCdf(45_000, 100_000), 4.300170822857348e-220, 1e-10);
    // No exact reference at 10⁶ here: the normal approximation with continuity correction,
    // Φ((499000.5 - 500000)/500) = Q(1.999) = 0.0228041769 (reference.py), stands in, good to far better than 1e-4 at this n.
    expectRelative(binomialHalfCdf(499_000, 1_000_000), 0.022804176932658883, 1e-4);
  });

  it("is 0 below the support and 1 at or above n", () => {
    expect(binomialHalfCdf(-1, 10)).toBe(0);
    expect(binomialHalfCdf(10, 10)).toBe(1);
    expect(binomialHalfCdf(11, 10)).toBe(1);
    expect(binomialHalfCdf(0, 0)).toBe(1);
    expect(() => binomialHalfCdf(1.5, 10)).toThrow(RangeError);
    expect(() => binomialHalfCdf(1, -10)).toThrow(RangeError);
  });
});

describe("logChoose", () => {
  it("matches ln C(n, k) computed exactly", () => {
    for (const [n, k] of [[10, 3], [60, 30], [1000, 17], [5000, 2500]] as const) {
      const c = choose(n, k);
      // ln c = ln(c / 2^s) + s ln 2, with c / 2^s between 1 and 2^64.
      const s = Math.max(0, c.toString(2).length - 64);
      expectRelative(logChoose(n, k), Math.log(Number(c >> BigInt(s))) + s * Math.LN2, 1e-13);
    }
    expect(logChoose(7, 0)).toBe(0);
    expect(logChoose(7, 7)).toBe(0);
  });
});
