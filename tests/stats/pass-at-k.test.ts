import { describe, expect, it } from "vitest";
import { meanPassAtK, meanPassHatK, passAtK, passHatK } from "../../orchestrator/stats/index.ts";
import { choose, expectRelative, ratio } from "./helpers.ts";

describe("passAtK", () => {
  it("matches the worked values", () => {
    expectRelative(passAtK(10, 3, 1), 0.3, 1e-15); // = c/n for k = 1
    expectRelative(passAtK(10, 3, 5), 1 - 21 / 252, 1e-15); // 1 - C(7,5)/C(10,5) = 11/12
    expectRelative(passAtK(10, 3, 2), 8 / 15, 1e-15); // 1 - C(7,2)/C(10,2) = 1 - 21/45
    expect(passAtK(5, 0, 3)).toBe(0);
    expect(passAtK(10, 9, 2)).toBe(1); // n - c < k: every pair holds a pass
    // Python exact fraction (tests/stats/reference.py): 528754522/1730224405.
    expectRelative(passAtK(200, 7, 10), 0.3055988116177335, 1e-14);
  });

  it("is n/a (undefined, never 1) when fewer than k attempts were made", () => {
    expect(passAtK(3, 3, 5)).toBeUndefined();
    expect(passAtK(0, 0, 1)).toBeUndefined();
    expect(passAtK(5, 5, 5)).toBe(1);
  });

  it("equals 1 - C(n-c, k)/C(n, k) computed exactly, for all n <= 25", () => {
    const off: string[] = [];
    for (let n = 1; n <= 25; n++) {
      for (let c = 0; c <= n; c++) {
        for (let k = 1; k <= n; k++) {
          const exact = 1 - ratio(choose(n - c, k), choose(n, k));
          const got = passAtK(n, c, k)!;
          if (!(Math.abs(got - exact) <= 1e-14)) off.push(`n=${n} c=${c} k=${k}: ${got} vs ${exact}`);
        }
      }
    }
    expect(off).toEqual([]);
  });
});

describe("passHatK", () => {
  it("matches the worked values", () => {
    expectRelative(passHatK(10, 3, 1), 0.3, 1e-15);
    expectRelative(passHatK(10, 3, 2), 1 / 15, 1e-15); // C(3,2)/C(10,2) = 3/45
    expectRelative(passHatK(20, 15, 4), 91 / 323, 1e-15); // C(15,4)/C(20,4) = 1365/4845
    expect(passHatK(10, 3, 5)).toBe(0);
    expect(passHatK(4, 4, 4)).toBe(1);
    expect(passHatK(3, 3, 4)).toBeUndefined();
  });

  it("equals C(c, k)/C(n, k) computed exactly, for all n <= 25", () => {
    const off: string[] = [];
    for (let n = 1; n <= 25; n++) {
      for (let c = 0; c <= n; c++) {
        for (let k = 1; k <= n; k++) {
          const exact = ratio(choose(c, k), choose(n, k));
          const got = passHatK(n, c, k)!;
          if (!(Math.abs(got - exact) <= 1e-14 * exact)) off.push(`n=${n} c=${c} k=${k}: ${got} vs ${exact}`);
        }
      }
    }
    expect(off).toEqual([]);
  });

  it("is never above pass@k", () => {
    for (const [n, c, k] of [[10, 3, 2], [8, 8, 3], [6, 1, 6], [30, 12, 7]] as const) {
      expect(passHatK(n, c, k)!).toBeLessThanOrEqual(passAtK(n, c, k)!);
    }
  });
});

describe("rejecting impossible counts", () => {
  it("throws a RangeError", () => {
    for (const f of [passAtK, passHatK]) {
      expect(() => f(3, 4, 1)).toThrow(RangeError);
      expect(() => f(3, 1, 0)).toThrow(RangeError);
      expect(() => f(-1, 0, 1)).toThrow(RangeError);
      expect(() => f(3, 1.5, 1)).toThrow(RangeError);
    }
  });
});

describe("meanPassAtK / meanPassHatK", () => {
  const items = [
    { n: 10, c: 3 },
    { n: 10, c: 0 },
    { n: 5, c: 5 },
  ];

  it("average the per-item estimates with equal weight", () => {
    expectRelative(meanPassAtK(items, 1), (0.3 + 0 + 1) / 3, 1e-15);
    expectRelative(meanPassAtK(items, 2), (8 / 15 + 0 + 1) / 3, 1e-15);
    expectRelative(meanPassHatK(items, 2), (1 / 15 + 0 + 1) / 3, 1e-15);
  });

  it("are n/a (undefined) with no items or when any item has fewer than k attempts", () => {
    expect(meanPassAtK([], 1)).toBeUndefined();
    expect(meanPassHatK([], 1)).toBeUndefined();
    expect(meanPassAtK(items, 6)).toBeUndefined();
    expect(meanPassHatK(items, 6)).toBeUndefined();
  });
});
