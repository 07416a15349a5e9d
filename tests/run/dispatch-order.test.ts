/**
 * The order a lane hands its cells to the queue (orchestrator/run/plan.ts dispatchOrder): dataset
 * order with one item at a time or when the run does not wait on a provider, longest expected
 * first at width while it does, on the project's own arenas.
 * And the reason it exists: on `tool_use`'s real call counts, longest first packs 64 slots into a
 * shorter zero-overhead wall than dataset order does.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { dispatchOrder, laneCells } from "../../orchestrator/run/plan.ts";
import { itemCost } from "../../orchestrator/run/shard.ts";
import { REPO_ROOT } from "../support/reference.ts";

const toolUse = loadArena(path.join(REPO_ROOT, "arenas", "tool_use"));
const durable = loadArena(path.join(REPO_ROOT, "arenas", "durable_state"));
const key = (c: { repeat: number; item: { id: string } }) => `${c.repeat}/${c.item.id}`;

/** The wall of a zero-overhead run: each item on the first free of `slots`, `turns` units long. */
function makespan(turns: readonly number[], slots: number): number {
  const free = new Array<number>(slots).fill(0);
  for (const t of turns) free[free.indexOf(Math.min(...free))]! += t;
  return Math.max(...free);
}

describe("dispatchOrder", () => {
  it("keeps dataset order when one item runs at a time, or when nothing waits on a provider", () => {
    const cells = laneCells(toolUse.items, 3);
    expect(dispatchOrder(toolUse, cells, 1, true).map(key)).toEqual(cells.map(key));
    expect(dispatchOrder(toolUse, cells, 8, false).map(key)).toEqual(cells.map(key));
    expect(dispatchOrder(toolUse, cells, 8, true).map(key)).not.toEqual(cells.map(key));
  });

  it("at width, hands over every cell once, costliest first, dataset order among equals", () => {
    const cells = laneCells(toolUse.items, 3);
    const ordered = dispatchOrder(toolUse, cells, 8, true);
    expect([...ordered.map(key)].sort()).toEqual([...cells.map(key)].sort());
    const costs = ordered.map((c) => itemCost(toolUse, c.item));
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
    expect(new Set(costs).size).toBeGreaterThan(1); // the arena's items differ, so the order is not vacuous
    for (let i = 1; i < ordered.length; i++) {
      if (costs[i] !== costs[i - 1]) continue;
      expect(cells.indexOf(ordered[i - 1]!)).toBeLessThan(cells.indexOf(ordered[i]!));
    }
  });

  it("puts a durable item's pauses before its turns: items that restart go first", () => {
    const ordered = dispatchOrder(durable, laneCells(durable.items, 1), 4, true);
    const costs = ordered.map((c) => itemCost(durable, c.item));
    expect(costs[0]).toBe(Math.max(...costs));
    expect(costs).toEqual([...costs].sort((a, b) => b - a));
  });

  it("packs tool_use × 16 on 64 slots tighter than dataset order (the scripted turns as the calls)", () => {
    const cells = laneCells(toolUse.items, 16);
    const turns = (cs: typeof cells) => cs.map((c) => itemCost(toolUse, c.item));
    expect(makespan(turns(dispatchOrder(toolUse, cells, 64, true)), 64)).toBeLessThan(makespan(turns(cells), 64));
  });
});
