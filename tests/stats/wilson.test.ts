import { describe, expect, it } from "vitest";
import { wilsonInterval } from "../../orchestrator/stats/index.ts";

describe("wilsonInterval", () => {
  it("matches R's prop.test(x, n, correct = FALSE)$conf.int", () => {
    // R 4.2.2, printed with sprintf("%.15f"); also tests/stats/reference.py (90-digit formula).
    const r: [number, number, number, number][] = [
      [7, 18, 0.203052465721636, 0.613809583977621],
      [0, 18, 0, 0.175879223646658],
      [18, 18, 0.824120776353342, 1],
      [1, 1, 0.206549314377238, 1],
      [50, 100, 0.403831530365996, 0.596168469634004],
      [0, 10, 0, 0.277532799862889],
      [3, 7, 0.15821985525147, 0.749541635472343],
      [1, 1000, 0.000176546370626, 0.005642558597958],
    ];
    for (const [x, n, low, high] of r) {
      const w = wilsonInterval(x, n)!;
      expect(w.low, `${x}/${n} low`).toBeCloseTo(low, 14);
      expect(w.high, `${x}/${n} high`).toBeCloseTo(high, 14);
    }
    // prop.test(7, 18, correct = FALSE, conf.level = 0.9 and 0.99)
    expect(wilsonInterval(7, 18, 0.9)!.low).toBeCloseTo(0.226589785631397, 14);
    expect(wilsonInterval(7, 18, 0.9)!.high).toBeCloseTo(0.580225234275321, 14);
    expect(wilsonInterval(7, 18, 0.99)!.low).toBeCloseTo(0.164054117857301, 14);
    expect(wilsonInterval(7, 18, 0.99)!.high).toBeCloseTo(0.673574589712181, 14);
  });

  it("matches published values", () => {
    // 0/10: upper bound 0.2775328; 18/18: lower bound 0.8241208 (= 1 - z²/(18 + z²)).
    expect(wilsonInterval(0, 10)!.high.toFixed(7)).toBe("0.2775328");
    expect(wilsonInterval(18, 18)!.low.toFixed(7)).toBe("0.8241208");
    // Newcombe (1998), Statistics in Medicine 17:857-872, Table II, Wilson score method
    // without continuity correction, to 4 decimals.
    const newcombe: [number, number, string, string][] = [
      [81, 263, "0.2553", "0.3662"],
      [15, 148, "0.0624", "0.1605"],
      [0, 20, "0.0000", "0.1611"],
      [1, 29, "0.0061", "0.1718"],
    ];
    for (const [x, n, low, high] of newcombe) {
      const w = wilsonInterval(x, n)!;
      expect([w.low.toFixed(4), w.high.toFixed(4)]).toEqual([low, high]);
    }
  });

  it("agrees with the textbook centre ± half-width form for every x, n <= 40", () => {
    // (p + z²/2n ± z·sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n), computed independently here.
    const z = 1.959963984540054;
    for (let n = 1; n <= 40; n++) {
      for (let x = 0; x <= n; x++) {
        const p = x / n;
        const centre = p + (z * z) / (2 * n);
        const half = z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n));
        const w = wilsonInterval(x, n)!;
        expect(w.low).toBeCloseTo(Math.max(0, (centre - half) / (1 + (z * z) / n)), 13);
        expect(w.high).toBeCloseTo(Math.min(1, (centre + half) / (1 + (z * z) / n)), 13);
        expect(w.low).toBeLessThanOrEqual(p);
        expect(w.high).toBeGreaterThanOrEqual(p);
      }
    }
  });

  it("is symmetric, pins the ends at 0 and 1, and widens with confidence", () => {
    for (const [x, n] of [[0, 5], [2, 9], [13, 30], [15, 30], [999, 1000]] as const) {
      const w = wilsonInterval(x, n)!;
      const m = wilsonInterval(n - x, n)!;
      expect(w.low).toBeCloseTo(1 - m.high, 15);
      expect(w.high).toBeCloseTo(1 - m.low, 15);
    }
    expect(wilsonInterval(0, 7)!.low).toBe(0);
    expect(wilsonInterval(7, 7)!.high).toBe(1);
    const w95 = wilsonInterval(7, 18)!;
    const w99 = wilsonInterval(7, 18, 0.99)!;
    expect(w99.low).toBeLessThan(w95.low);
    expect(w99.high).toBeGreaterThan(w95.high);
  });

  it("keeps its digits for a rare success in a huge sample", () => {
    // Reference (tests/stats/reference.py, 90 digits): 1 in 10⁹ has low = 1.7652455495696318e-10.
    // Centre minus half-width in doubles is off by 3.7e-15 relative here; the product form is not.
    const w = wilsonInterval(1, 1e9)!;
    expect(Math.abs(w.low / 1.7652455495696318e-10 - 1)).toBeLessThan(5e-16);
    expect(w.high).toBeCloseTo(5.664934243297438e-9, 22);
  });

  it("is n/a (undefined) for n = 0 and rejects impossible counts", () => {
    expect(wilsonInterval(0, 0)).toBeUndefined();
    expect(() => wilsonInterval(3, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 2)).toThrow(RangeError);
    expect(() => wilsonInterval(1, 2, 1)).toThrow(RangeError);
  });
});
