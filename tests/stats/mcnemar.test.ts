import { describe, expect, it } from "vitest";
import { exactMcNemar } from "../../orchestrator/stats/index.ts";
import { expectRelative } from "./helpers.ts";

describe("exactMcNemar", () => {
  it("equals R's binom.test(b, b + c, 0.5)$p.value", () => {
    // R 4.2.2; the small ones are exact dyadic fractions, checked in tests/stats/reference.py.
    const r: [number, number, number][] = [
      [1, 9, 0.021484375], // binom.test(1, 10)
      [9, 1, 0.021484375], // binom.test(9, 10)
      [3, 9, 0.14599609375], // binom.test(3, 12)
      [0, 5, 0.0625], // binom.test(0, 5)
      [4, 4, 1], // binom.test(4, 8)
      [0, 1, 1], // binom.test(0, 1)
      [10, 10, 1], // binom.test(10, 20)
    ];
    for (const [b, c, p] of r) expect(exactMcNemar(b, c)).toEqual({ b, c, pValue: p });
  });

  it("stays exact for thousands of discordant pairs", () => {
    // binom.test(4900, 10000): R 0.0465855277049474, Python exact 0.04658552770494739.
    expectRelative(exactMcNemar(4900, 5100).pValue, 0.04658552770494739, 1e-10);
    expectRelative(exactMcNemar(5100, 4900).pValue, 0.0465855277049474, 1e-10);
    // binom.test(4950, 10000): R 0.322174199795312.
    expectRelative(exactMcNemar(4950, 5050).pValue, 0.322174199795312, 1e-10);
    // binom.test(49500, 100000): R 0.0015823598788516, Python exact 0.0015823598788515956.
    expectRelative(exactMcNemar(49_500, 50_500).pValue, 0.0015823598788515956, 1e-10);
  });

  it("is the exact test, not R's mcnemar.test chi-square", () => {
    // mcnemar.test(matrix(c(5, 1, 9, 5), 2)) has b = 9, c = 1 and p = 0.0268566955075243
    // (continuity-corrected chi-square); the exact p is binom.test(1, 10) = 0.021484375.
    expect(exactMcNemar(9, 1).pValue).toBe(0.021484375);
    expect(exactMcNemar(9, 1).pValue).not.toBeCloseTo(0.0268566955075243, 3);
  });

  it("gives p = 1 with no discordant pairs and rejects bad counts", () => {
    expect(exactMcNemar(0, 0)).toEqual({ b: 0, c: 0, pValue: 1 });
    expect(() => exactMcNemar(-1, 3)).toThrow(RangeError);
    expect(() => exactMcNemar(1, 2.5)).toThrow(RangeError);
  });
});
