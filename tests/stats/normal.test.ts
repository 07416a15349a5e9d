import { describe, expect, it } from "vitest";
import { normalQuantile, upperTailNormal, zForConfidence } from "../../orchestrator/stats/normal.ts";
import { expectRelative } from "./helpers.ts";

// "Reference" values are from tests/stats/reference.py: a 90-digit bisection on the series
// Q(x) = 1/2 - φ(x)·Σ x^(2n+1)/(2n+1)!!, rounded to the nearest double. "R" values are R 4.2.2.
const ULP = 2.3e-16;

describe("zForConfidence", () => {
  it("gives the 95% critical value 1.959963984540054", () => {
    const z = zForConfidence(0.95);
    expect(Math.abs(z - 1.959963984540054)).toBeLessThan(1e-15);
    // Reference: the exact quantile of the tail (1 - 0.95)/2 as a double, 0.025000000000000022.
    expectRelative(z, 1.9599639845400538, ULP);
    // R: qnorm(0.975) = 1.9599639845400536 (R's own rounding is one ulp lower).
    expectRelative(z, 1.9599639845400536, 2 * ULP);
  });

  it("derives other levels as accurately", () => {
    expectRelative(zForConfidence(0.9), 1.6448536269514729, ULP); // reference
    expectRelative(zForConfidence(0.99), 2.5758293035489004, ULP); // reference
    expectRelative(zForConfidence(0.9), 1.6448536269514715, 1e-15); // R qnorm(0.95)
    expectRelative(zForConfidence(0.99), 2.5758293035488999, 1e-15); // R qnorm(0.995)
    expect(zForConfidence(0.5)).toBeCloseTo(0.6744897501960817, 14); // R qnorm(0.75)
  });

  it("rejects levels outside (0, 1)", () => {
    for (const c of [0, 1, -0.5, 1.5, Number.NaN]) expect(() => zForConfidence(c)).toThrow(RangeError);
  });
});

describe("normalQuantile", () => {
  it("matches the reference quantiles to an ulp, both signs", () => {
    expectRelative(normalQuantile(0.975), 1.9599639845400538, ULP);
    expectRelative(normalQuantile(0.95), 1.6448536269514722, ULP);
    expectRelative(normalQuantile(0.9995), 3.290526731491926, ULP);
    expectRelative(normalQuantile(1 - 1e-10), 6.361340889697422, ULP); // R: 6.3613408896974208
    expectRelative(normalQuantile(0.025), -1.9599639845400543, ULP); // the double 0.025 is a hair above 1/40
    expect(normalQuantile(0.5)).toBe(0);
    expect(normalQuantile(0.25)).toBe(-normalQuantile(0.75)); // 1 - 0.75 is exactly 0.25
  });

  it("rejects p outside (0, 1)", () => {
    for (const p of [0, 1, 2, Number.NaN]) expect(() => normalQuantile(p)).toThrow(RangeError);
  });
});

describe("upperTailNormal", () => {
  it("keeps its relative accuracy deep in the tail", () => {
    const reference: [number, number][] = [
      [0, 0.5],
      [0.5, 0.3085375387259869],
      [1, 0.15865525393145705],
      [1.959963984540054, 0.025000000000000012],
      [3, 0.0013498980316300946],
      [5, 2.866515718791939e-7],
      [8, 6.220960574271784e-16], // 1 - Φ(8) in doubles would be 0 or 1.1e-16
      [10, 7.619853024160525e-24],
    ];
    for (const [x, q] of reference) expectRelative(upperTailNormal(x), q, 4 * ULP);
  });
});
