import { describe, expect, it } from "vitest";
import { exactMcNemar, pairedItemTest, type ItemOutcomes } from "../../orchestrator/stats/index.ts";
import { signFlipPValue, type Fraction } from "../../orchestrator/stats/item-test.ts";
import { mulberry32 } from "../../orchestrator/stats/prng.ts";

const item = (id: string, passes: number, runs: number): ItemOutcomes => ({ id, passes, runs });

/** Items a, b, c… with these passes out of `runs` each. */
const lane = (passes: readonly number[], runs: number) => passes.map((p, i) => item(String.fromCharCode(97 + i), p, runs));

/** P(|Σ ±dᵢ| >= |Σ dᵢ|) by listing all 2^m sign vectors: the definition, independent of the code under test. */
function bruteForce(differences: readonly number[]): number {
  const ds = differences.filter((d) => d !== 0);
  const observed = Math.abs(ds.reduce((a, d) => a + d, 0));
  if (observed === 0) return 1;
  let hits = 0;
  for (let mask = 0; mask < 2 ** ds.length; mask++) {
    const sum = ds.reduce((a, d, i) => a + ((mask >> i) & 1 ? -d : d), 0);
    if (Math.abs(sum) >= observed - 1e-9) hits++;
  }
  return hits / 2 ** ds.length;
}

describe("pairedItemTest", () => {
  it("with 0/1 fractions it is the exact McNemar test on items, at any repeat count", () => {
    // 1 item only the first passes, 9 only the second, 5 both, 5 neither: binom.test(1, 10) = 0.021484375.
    const first = [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0];
    const second = [0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0];
    for (const runs of [1, 3, 10]) {
      const r = pairedItemTest(lane(first.map((p) => p * runs), runs), lane(second.map((p) => p * runs), runs));
      expect(r).toEqual({ better: 1, worse: 9, tied: 10, paired: 20, pValue: 0.021484375 });
    }
    // Far past exact enumeration: 4900 better, 5100 worse is binom.test(4900, 10000), R 0.0465855277049474.
    const many = (side: 0 | 1) => Array.from({ length: 10_000 }, (_, i) => item(`i${i}`, (i < 4900) === (side === 0) ? 3 : 0, 3));
    const big = pairedItemTest(many(0), many(1));
    expect(big).toMatchObject({ better: 4900, worse: 5100, tied: 0, paired: 10_000 });
    expect(big.pValue).toBe(exactMcNemar(4900, 5100).pValue);
  });

  it("pairs items by id, whatever the order, and leaves one-sided items out", () => {
    const r = pairedItemTest([item("x", 1, 1), item("a", 2, 2), item("only-first", 1, 1)], [item("a", 0, 2), item("only-second", 0, 1), item("x", 1, 1)]);
    expect(r).toEqual({ better: 1, worse: 0, tied: 1, paired: 2, pValue: 1 });
    expect(pairedItemTest([item("a", 1, 1)], [item("b", 0, 1)])).toEqual({ better: 0, worse: 0, tied: 0, paired: 0, pValue: 1 });
    expect(pairedItemTest([], [])).toEqual({ better: 0, worse: 0, tied: 0, paired: 0, pValue: 1 });
  });

  it("fractional differences: the exact sign-flip p (hand-enumerated; tests/stats/reference.py)", () => {
    // Ten repeats: d = 6/10, 0, −2/10, 7/10, 0, 5/10. Σd = 16/10; of the 16 sign vectors of
    // (6, 2, 7, 5) only +6+7+5±2 reach 16, and their mirrors −16: p = 4/16.
    const r = pairedItemTest(lane([10, 7, 3, 9, 5, 6], 10), lane([4, 7, 5, 2, 5, 1], 10));
    expect(r).toEqual({ better: 3, worse: 1, tied: 2, paired: 6, pValue: 0.25 });
    // d = 3/4, 1/2, 1/2, 1/4 (different repeat counts): all one way, Σd the largest: p = 2/16.
    expect(pairedItemTest([item("a", 3, 4), item("b", 1, 2), item("c", 4, 4), item("d", 1, 4)], [item("a", 0, 4), item("b", 0, 2), item("c", 2, 4), item("d", 0, 4)]).pValue).toBe(0.125);
    // d = 2/3 − 1/2, 1, −1/3, 1/2 − 1/4 (runs 3 vs 2, 1 vs 1, 3 vs 3, 2 vs 4): p = 1/2.
    const mixed = pairedItemTest([item("a", 2, 3), item("b", 1, 1), item("c", 0, 3), item("d", 1, 2)], [item("a", 1, 2), item("b", 0, 1), item("c", 1, 3), item("d", 1, 4)]);
    expect(mixed).toEqual({ better: 3, worse: 1, tied: 0, paired: 4, pValue: 0.5 });
    // Five items one way by 1 and seven smaller mixed ones: p = 29/1024.
    const d: Fraction[] = [1, 1, 1, 1, 1].map(() => ({ num: 1, den: 1 }));
    d.push({ num: -1, den: 2 }, { num: 1, den: 3 }, { num: -1, den: 10 }, { num: 1, den: 5 }, { num: 2, den: 5 }, { num: -3, den: 10 }, { num: 1, den: 10 });
    expect(signFlipPValue(d)).toBe(29 / 1024);
  });

  it("agrees with brute-force enumeration on 300 seeded random pairs of lanes", () => {
    const random = mulberry32(20261202);
    const int = (n: number) => Math.floor(random() * n);
    for (let trial = 0; trial < 300; trial++) {
      const items = 1 + int(12);
      const first: ItemOutcomes[] = [];
      const second: ItemOutcomes[] = [];
      const differences: number[] = [];
      for (let i = 0; i < items; i++) {
        const [ra, rb] = [1 + int(5), 1 + int(5)];
        const [pa, pb] = [int(ra + 1), int(rb + 1)];
        first.push(item(`i${i}`, pa, ra));
        second.push(item(`i${i}`, pb, rb));
        differences.push(pa / ra - pb / rb);
      }
      const r = pairedItemTest(first, second);
      expect(r.pValue, JSON.stringify({ first, second })).toBeCloseTo(bruteForce(differences), 12);
      expect(r.better + r.worse + r.tied).toBe(items);
      expect(pairedItemTest(second, first).pValue).toBe(r.pValue);
    }
  });

  it("samples, seeded, past its exact budget: within Monte Carlo error of the exact p, the same every time", () => {
    const d: Fraction[] = [6, -2, 7, 5, 3, -1, 4, 8, -6, 9].map((n) => ({ num: n, den: 10 }));
    const exact = bruteForce(d.map((x) => x.num / x.den));
    const sampled = signFlipPValue(d, { exactBudget: 0 });
    // 20,000 resamples: the standard error is at most 0.0036; 5 of them is far past chance.
    expect(Math.abs(sampled - exact)).toBeLessThan(5 * Math.sqrt((exact * (1 - exact)) / 20_000));
    expect(signFlipPValue(d, { exactBudget: 0 })).toBe(sampled);
    expect(signFlipPValue(d, { exactBudget: 0, seed: 1 })).not.toBe(sampled);
    // Denominators with no common grid in doubles (three large primes): sampled on the doubles.
    const primes: Fraction[] = [
      { num: 999_983, den: 1_000_003 },
      { num: -999_979, den: 1_000_033 },
      { num: 999_961, den: 1_000_037 },
    ];
    const far = bruteForce(primes.map((x) => x.num / x.den));
    expect(far).toBe(0.75); // ±(a+b+c), ±(a+b−c), ±(a−b+c) of the eight reach |a−b+c|
    expect(Math.abs(signFlipPValue(primes) - far)).toBeLessThan(0.02);
  });

  it("refuses impossible items", () => {
    expect(() => pairedItemTest([item("a", 2, 1)], [])).toThrow(/first items: item a passes \(2\) exceed its runs \(1\)/);
    expect(() => pairedItemTest([], [item("b", 0, 0)])).toThrow(/second items: item b has no runs/);
    expect(() => pairedItemTest([item("a", 1, 1), item("a", 1, 1)], [])).toThrow(/first items: item a listed twice/);
  });
});
