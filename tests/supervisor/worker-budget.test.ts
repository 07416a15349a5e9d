/**
 * The run-wide worker budget (orchestrator/supervisor/worker-budget.ts): outside the spares, the
 * workers alive never outnumber the slots; the idle one that waited longest goes first.
 */
import { describe, expect, it } from "vitest";
import { WorkerBudget, type BudgetCounts, type BudgetMember } from "../../orchestrator/supervisor/worker-budget.ts";

function member(name: string, evicted: string[]): BudgetMember {
  return { evict: () => evicted.push(name) };
}

describe("WorkerBudget", () => {
  it("keeps an idle worker while it fits in the slots, and stops the longest idle one to make room", () => {
    const evicted: string[] = [];
    const seen: BudgetCounts[] = [];
    const budget = new WorkerBudget({ slots: 2, onChange: (c) => seen.push(c) });
    const [a, b, c] = ["a", "b", "c"].map((n) => member(n, evicted)) as [BudgetMember, BudgetMember, BudgetMember];
    budget.beforeStart();
    budget.busyWith(a);
    budget.beforeStart();
    budget.busyWith(b);
    budget.idleNow(a); // a waits first
    budget.idleNow(b);
    expect(budget.counts()).toEqual({ busy: 0, idle: 2 });
    expect(evicted).toEqual([]);
    budget.beforeStart(); // another pool needs a process: the longest idle (a) goes
    expect(evicted).toEqual(["a"]);
    budget.busyWith(c);
    expect(budget.counts()).toEqual({ busy: 1, idle: 1 });
    budget.busyWith(b); // taken up again: no longer idle, never evicted
    budget.beforeStart();
    expect(evicted).toEqual(["a"]);
    expect(Math.max(...seen.map((s) => s.busy + s.idle))).toBeLessThanOrEqual(2);
  });

  it("stops a released worker at once when the slots are already full (a spare joining after its lane)", () => {
    const evicted: string[] = [];
    const budget = new WorkerBudget({ slots: 1 });
    const busy = member("busy", evicted);
    const spare = member("spare", evicted);
    budget.busyWith(busy);
    budget.idleNow(spare);
    expect(evicted).toEqual(["spare"]);
    expect(budget.counts()).toEqual({ busy: 1, idle: 0 });
    budget.gone(busy);
    expect(budget.counts()).toEqual({ busy: 0, idle: 0 });
  });

  it("refuses a slot count that is not a whole number ≥ 1", () => {
    expect(() => new WorkerBudget({ slots: 0 })).toThrow(RangeError);
    expect(() => new WorkerBudget({ slots: 1.5 })).toThrow(RangeError);
  });
});

describe("WorkerBudget with seats", () => {
  it("charges a worker of several seats that many slots: at 8 slots and 4 seats, two workers fill them", () => {
    const evicted: string[] = [];
    const budget = new WorkerBudget({ slots: 8 });
    const seated = (name: string): BudgetMember => ({ seats: 4, evict: () => evicted.push(name) });
    const [a, b, c] = [seated("a"), seated("b"), seated("c")];
    budget.beforeStart(4);
    budget.busyWith(a);
    budget.beforeStart(4);
    budget.busyWith(b);
    budget.idleNow(a);
    expect(evicted).toEqual([]); // 8 slots taken, none over
    budget.beforeStart(4); // a third worker of 4 seats: the idle one goes first
    expect(evicted).toEqual(["a"]);
    budget.busyWith(c);
    budget.idleNow(b);
    budget.idleNow(c);
    expect(evicted).toEqual(["a"]); // two idle workers of 4 seats still fit in 8 slots
  });

  it("charges at most every slot: a worker of more seats than slots still leaves room for itself alone", () => {
    const evicted: string[] = [];
    const budget = new WorkerBudget({ slots: 2 });
    const big: BudgetMember = { seats: 16, evict: () => evicted.push("big") };
    budget.busyWith(big);
    budget.idleNow(big);
    expect(evicted).toEqual([]);
    budget.beforeStart(16);
    expect(evicted).toEqual(["big"]);
  });
});
