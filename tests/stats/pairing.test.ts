import { describe, expect, it } from "vitest";
import { pairedMcNemar, pairOutcomes, type Outcome } from "../../orchestrator/stats/index.ts";

const o = (item_id: string, repeat: number, passed: boolean): Outcome => ({ item_id, repeat, passed });

describe("pairOutcomes", () => {
  it("pairs by (item_id, repeat) and counts what had no partner", () => {
    const first = [o("a", 1, true), o("a", 2, false), o("b", 1, true), o("c", 1, false)];
    const second = [o("b", 1, false), o("a", 2, true), o("a", 1, true), o("d", 1, true), o("a", 3, true)];
    expect(pairOutcomes(first, second)).toEqual({
      pairs: [
        { item_id: "a", repeat: 1, first: true, second: true },
        { item_id: "a", repeat: 2, first: false, second: true },
        { item_id: "b", repeat: 1, first: true, second: false },
      ],
      unpairedFirst: 1,
      unpairedSecond: 2,
    });
  });

  it("keeps apart (id, repeat) pairs that run together as text", () => {
    const r = pairOutcomes([o("a1", 2, true), o("a", 12, true)], [o("a", 12, false)]);
    expect(r.pairs).toEqual([{ item_id: "a", repeat: 12, first: true, second: false }]);
    expect(r.unpairedFirst).toBe(1);
  });

  it("refuses a list with the same (item_id, repeat) twice", () => {
    expect(() => pairOutcomes([o("a", 1, true), o("a", 1, false)], [])).toThrow(/a repeat 1 twice/);
    expect(() => pairOutcomes([], [o("x", 2, true), o("x", 2, true)])).toThrow(/second list/);
  });
});

describe("pairedMcNemar", () => {
  it("counts b (first passes, second fails) and c (the reverse) over pairs only", () => {
    // 1 item where only the first passes, 9 where only the second does, 5 where both pass,
    // 5 where both fail, and 3 unpaired: b = 1, c = 9, p = binom.test(1, 10) = 0.021484375.
    const first: Outcome[] = [o("i0", 1, true)];
    const second: Outcome[] = [o("i0", 1, false)];
    for (let i = 1; i <= 9; i++) first.push(o(`i${i}`, 1, false)), second.push(o(`i${i}`, 1, true));
    for (let i = 10; i < 20; i++) first.push(o(`i${i}`, 1, i < 15)), second.push(o(`i${i}`, 1, i < 15));
    first.push(o("only-first", 1, true), o("i0", 2, true));
    second.push(o("only-second", 1, false));
    expect(pairedMcNemar(first, second)).toEqual({
      b: 1,
      c: 9,
      pValue: 0.021484375,
      paired: 20,
      unpairedFirst: 2,
      unpairedSecond: 1,
    });
    expect(pairedMcNemar(second, first)).toMatchObject({ b: 9, c: 1, pValue: 0.021484375 });
  });

  it("reports nothing paired as p = 1 with paired = 0", () => {
    expect(pairedMcNemar([o("a", 1, true)], [o("b", 1, false)])).toEqual({
      b: 0,
      c: 0,
      pValue: 1,
      paired: 0,
      unpairedFirst: 1,
      unpairedSecond: 1,
    });
  });
});
