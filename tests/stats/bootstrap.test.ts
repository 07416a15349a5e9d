import { describe, expect, it } from "vitest";
import { bootstrapMeanInterval } from "../../orchestrator/stats/index.ts";
import { mulberry32 } from "../../orchestrator/stats/prng.ts";
import { quantileSorted } from "../../orchestrator/stats/quantile.ts";

describe("mulberry32", () => {
  it("gives the stream of Ettinger's C definition", () => {
    // tests/stats/reference.py: the C code transcribed into Python uint32 arithmetic.
    const reference: [number, number[]][] = [
      [0, [1144304738, 1416247, 958946056, 627933444, 2007157716]],
      [1, [2693262067, 11749833, 2265367787, 4213581821, 4159151403]],
      [42, [2581720956, 1925393290, 3661312704, 2876485805, 750819978]],
      [2 ** 32 + 42, [2581720956, 1925393290, 3661312704, 2876485805, 750819978]], // modulo 2³²
      [-1, [3850105811, 813802916, 3073704848, 4054706436, 3630262831]],
    ];
    for (const [seed, outputs] of reference) {
      const next = mulberry32(seed);
      expect(outputs.map(() => next() * 2 ** 32), `seed ${seed}`).toEqual(outputs);
    }
  });

  it("rejects a seed that is not an integer", () => {
    for (const seed of [0.5, Number.NaN, Infinity, 2 ** 60]) expect(() => mulberry32(seed)).toThrow(RangeError);
  });
});

describe("quantileSorted", () => {
  it("is R's type 7", () => {
    const oneToTen = Float64Array.from({ length: 10 }, (_, i) => i + 1);
    // R: quantile(1:10, c(0.025, 0.975)) = 1.225, 9.775; quantile(1:10, 0.5) = 5.5.
    expect(quantileSorted(oneToTen, 0.025)).toBeCloseTo(1.225, 14);
    expect(quantileSorted(oneToTen, 0.975)).toBeCloseTo(9.775, 14);
    expect(quantileSorted(oneToTen, 0.5)).toBe(5.5);
    expect(quantileSorted(oneToTen, 0)).toBe(1);
    expect(quantileSorted(oneToTen, 1)).toBe(10);
    expect(quantileSorted([3], 0.3)).toBe(3);
  });
});

// Values with no exact binary form, so bit-identity is a real claim.
const SAMPLE = [0.12, 3.5, 2.25, 7.0, 1.0, 0.5, 4.75, 2.0, 9.5, 3.3];

describe("bootstrapMeanInterval", () => {
  it("reproduces, bit for bit, the same procedure re-done in Python", () => {
    // tests/stats/reference.py: mulberry32, index floor(u/2³²·n), means about values[0],
    // type-7 quantiles, all in Python floats (IEEE doubles) in the same order.
    expect(bootstrapMeanInterval(SAMPLE, { seed: 42, resamples: 200 })).toEqual({
      mean: 3.392,
      low: 1.8001750000000003,
      high: 5.190875000000002,
    });
    expect(bootstrapMeanInterval(SAMPLE, { seed: 7, confidence: 0.9 })).toEqual({
      mean: 3.392,
      low: 1.9869499999999995,
      high: 4.975500000000001,
    });
  });

  it("gives the same output for the same seed and a different one for another seed", () => {
    const a = bootstrapMeanInterval(SAMPLE, { seed: 1 });
    expect(bootstrapMeanInterval(SAMPLE, { seed: 1 })).toEqual(a);
    const b = bootstrapMeanInterval(SAMPLE, { seed: 2 })!;
    expect(b.mean).toBe(a!.mean);
    expect([b.low, b.high]).not.toEqual([a!.low, a!.high]);
  });

  it("brackets the mean, and narrows as the confidence falls", () => {
    const w95 = bootstrapMeanInterval(SAMPLE, { seed: 3 })!;
    const w50 = bootstrapMeanInterval(SAMPLE, { seed: 3, confidence: 0.5 })!;
    expect(w95.low).toBeLessThan(w95.mean);
    expect(w95.high).toBeGreaterThan(w95.mean);
    expect(w50.low).toBeGreaterThan(w95.low);
    expect(w50.high).toBeLessThan(w95.high);
  });

  it("has about the width the normal approximation predicts for a pass rate", () => {
    // 100 passes in 200: standard error sqrt(0.25/200) = 0.0354, so ±1.96·0.0354 = ±0.0693.
    const passes = Array.from({ length: 200 }, (_, i) => i % 2);
    const w = bootstrapMeanInterval(passes, { seed: 11, resamples: 4000 })!;
    expect(w.mean).toBe(0.5);
    expect(Math.abs(w.high - w.low - 2 * 0.0693)).toBeLessThan(0.01);
  });

  it("collapses to the value itself for a constant sample", () => {
    // Naively, (0.1 + 0.1 + 0.1)/3 is 0.10000000000000002.
    expect(bootstrapMeanInterval([0.1, 0.1, 0.1], { seed: 5 })).toEqual({ mean: 0.1, low: 0.1, high: 0.1 });
    expect(bootstrapMeanInterval([7], { seed: 5 })).toEqual({ mean: 7, low: 7, high: 7 });
  });

  it("is n/a (undefined) for no values and rejects bad options and values", () => {
    expect(bootstrapMeanInterval([], { seed: 1 })).toBeUndefined();
    expect(() => bootstrapMeanInterval([1], { seed: 1, resamples: 0 })).toThrow(RangeError);
    expect(() => bootstrapMeanInterval([1], { seed: 1, resamples: 2.5 })).toThrow(RangeError);
    expect(() => bootstrapMeanInterval([1], { seed: 1, confidence: 1 })).toThrow(RangeError);
    expect(() => bootstrapMeanInterval([1], { seed: 0.5 })).toThrow(RangeError);
    expect(() => bootstrapMeanInterval([1, Number.NaN], { seed: 1 })).toThrow(RangeError);
  });
});
