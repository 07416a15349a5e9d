import { describe, expect, it } from "vitest";
import { clusteredPassInterval, itemOutcomes, wilsonInterval, type ItemOutcomes } from "../../orchestrator/stats/index.ts";

const item = (id: string, passes: number, runs: number): ItemOutcomes => ({ id, passes, runs });

/** `count` items passing every one of `runs` repeats, then `failing` items failing every one. */
function deterministic(count: number, failing: number, runs: number): ItemOutcomes[] {
  return [...Array.from({ length: count }, (_, i) => item(`p${i}`, runs, runs)), ...Array.from({ length: failing }, (_, i) => item(`f${i}`, 0, runs))];
}

describe("itemOutcomes", () => {
  it("folds cells into one entry per item, in first-seen order, counting passes and runs", () => {
    const cells = [
      { item_id: "b", passed: true },
      { item_id: "a", passed: false },
      { item_id: "b", passed: false },
      { item_id: "b", passed: true },
      { item_id: "a", passed: false },
    ];
    expect(itemOutcomes(cells)).toEqual([item("b", 2, 3), item("a", 0, 2)]);
    expect(itemOutcomes([])).toEqual([]);
  });
});

describe("clusteredPassInterval", () => {
  it("deterministic repeats give the one-repeat Wilson interval bit for bit, at any repeat count", () => {
    for (const [passing, failing] of [[12, 0], [11, 1], [7, 11], [0, 5], [1, 0], [50, 50], [999, 1]] as const) {
      const once = wilsonInterval(passing, passing + failing)!;
      for (const runs of [1, 3, 10, 97]) {
        const c = clusteredPassInterval(deterministic(passing, failing, runs))!;
        expect(c, `${passing}/${passing + failing} × ${runs}`).toEqual({ low: once.low, high: once.high, estimate: passing / (passing + failing), items: passing + failing });
      }
    }
  });

  it("is the Wilson score interval at n = items and p = the mean pass fraction (tests/stats/reference.py)", () => {
    // Fractions 1, 1, 1/2, 0: p = 0.625, n = 4.
    const c = clusteredPassInterval([item("a", 3, 3), item("b", 2, 2), item("c", 5, 10), item("d", 0, 4)])!;
    expect(c.estimate).toBe(0.625);
    expect(c.items).toBe(4);
    expect(c.low).toBeCloseTo(0.21942652006536284, 14);
    expect(c.high).toBeCloseTo(0.9081007708209878, 14);
    // Fractions 2/3, 1/3, 1 (different repeat counts per item: each item still weighs one).
    const d = clusteredPassInterval([item("a", 2, 3), item("b", 1, 3), item("c", 1, 1)])!;
    expect(d.estimate).toBeCloseTo(2 / 3, 15);
    expect(d.low).toBeCloseTo(0.20765960080204776, 14);
    expect(d.high).toBeCloseTo(0.9385080552796038, 14);
  });

  it("disagreeing repeats widen it; counting repeats as samples would narrow it", () => {
    // Ten items, nine passing every repeat and one passing 5 of 10: p = 0.95 over 10 items.
    const mixed = [...deterministic(9, 0, 10), item("flaky", 5, 10)];
    const c = clusteredPassInterval(mixed)!;
    expect(c.low).toBeCloseTo(0.6554627816930775, 14);
    expect(c.high).toBeCloseTo(0.9947576984303222, 14);
    // Against the same ten items all passing (the flaky item's repeats agreeing), the interval
    // moves down and widens: the disagreement is information, and it is uncertainty.
    const allPass = clusteredPassInterval(deterministic(10, 0, 10))!;
    expect(c.low).toBeLessThan(allPass.low);
    expect(c.high - c.low).toBeGreaterThan(allPass.high - allPass.low);
    // The 100 cells as independent samples (95/100) claim far more than ten items can show.
    const naive = wilsonInterval(95, 100)!;
    expect(c.low).toBeLessThan(naive.low);
    expect(c.high).toBeGreaterThan(naive.high);
    // The same fractions at 2 repeats or at 1000: more repeats never narrow it.
    const fewer = clusteredPassInterval([...deterministic(9, 0, 2), item("flaky", 1, 2)])!;
    const more = clusteredPassInterval([...deterministic(9, 0, 1000), item("flaky", 500, 1000)])!;
    expect(fewer).toEqual(c);
    expect(more).toEqual(c);
  });

  it("edge cases: no items, one item, every item passing, a confidence level", () => {
    expect(clusteredPassInterval([])).toBeUndefined();
    // One item passing: R prop.test(1, 1, correct = FALSE) gives 0.206549314377238–1.
    const one = clusteredPassInterval([item("a", 4, 4)])!;
    expect(one.low).toBeCloseTo(0.206549314377238, 14);
    expect(one.high).toBe(1);
    // One item passing half its repeats: Wilson at p = 1/2, n = 1 (reference.py).
    const half = clusteredPassInterval([item("a", 1, 2)])!;
    expect(half.low).toBeCloseTo(0.054620755528851976, 14);
    expect(half.high).toBeCloseTo(0.9453792444711481, 14);
    // 18 items, all passing: 0.824120776353342–1, as R's prop.test(18, 18).
    const all = clusteredPassInterval(deterministic(18, 0, 3))!;
    expect(all.low).toBeCloseTo(0.824120776353342, 14);
    expect(all.high).toBe(1);
    expect(clusteredPassInterval(deterministic(0, 7, 2))!.low).toBe(0);
    expect(clusteredPassInterval(deterministic(7, 11, 4), 0.9)).toMatchObject(wilsonInterval(7, 18, 0.9)!);
  });

  it("refuses impossible items: no runs, more passes than runs, fractional counts, an id twice", () => {
    expect(() => clusteredPassInterval([item("a", 0, 0)])).toThrow(/item a has no runs/);
    expect(() => clusteredPassInterval([item("a", 3, 2)])).toThrow(/item a passes \(3\) exceed its runs \(2\)/);
    expect(() => clusteredPassInterval([item("a", 0.5, 2)])).toThrow(RangeError);
    expect(() => clusteredPassInterval([item("a", 1, 2), item("a", 2, 2)])).toThrow(/items: item a listed twice/);
    expect(() => clusteredPassInterval([item("a", 1, 2)], 1)).toThrow(RangeError);
  });
});
