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
