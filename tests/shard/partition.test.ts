/**
 * `--shard I/N`'s partition (orchestrator/run/shard.ts), on the project's own arenas and the whole
 * catalogue: the same parts whatever order the plan lists its cells in, every cell in exactly one
 * part, parts balanced by expected cost within the greedy rule's bound, bad values refused.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import type { Arena } from "../../orchestrator/arena/schemas.ts";
import { planRun } from "../../orchestrator/run/plan.ts";
import { cellCost, parseShard, partitionCells, selectShard, SHARD_COST, ShardError, shardCellKey, shardCells } from "../../orchestrator/run/shard.ts";
import { ADAPTER_CATALOG } from "../../contract/catalogue.ts";
import { REPO_ROOT } from "../support/reference.ts";

const ARENAS_DIR = path.join(REPO_ROOT, "arenas");
const arenas: Arena[] = readdirSync(ARENAS_DIR, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => loadArena(path.join(ARENAS_DIR, d.name)))
  .sort((a, b) => (a.id < b.id ? -1 : 1));
const adapters = ADAPTER_CATALOG.map((e) => ({ name: e.name, module: e.module, ...(e.arenas ? { onlyArenas: e.arenas } : {}) }));
const REPEAT = 2;
const fullPlan = planRun(arenas, adapters);

/** Each shard's cells, as keys, for `count` shards of `plan`. */
function parts(plan: typeof fullPlan, count: number): string[][] {
  const assigned = partitionCells(shardCells(plan, REPEAT), count);
  const out: string[][] = Array.from({ length: count }, () => []);
  for (const [key, shard] of assigned) out[shard]!.push(key);
  return out.map((p) => p.sort());
}

describe("--shard I/N: parsing", () => {
  it("reads I/N, 1-based, with surrounding space", () => {
    expect(parseShard("2/4")).toEqual({ index: 2, count: 4 });
    expect(parseShard(" 1/1 ")).toEqual({ index: 1, count: 1 });
    expect(parseShard("4/4")).toEqual({ index: 4, count: 4 });
  });

  it.each([
    ["0/4", "I must be between 1 and N (4); shards are numbered from 1"],
    ["5/4", "I must be between 1 and N (4)"],
    ["1/0", "N must be between 1 and"],
    ["a/b", "must be I/N with whole numbers"],
    ["2", "must be I/N with whole numbers"],
    ["1.5/4", "must be I/N with whole numbers"],
    ["-1/4", "must be I/N with whole numbers"],
    ["1/2/3", "must be I/N with whole numbers"],
    ["1/1001", "N must be between 1 and 1000"],
  ])("refuses %s, saying why", (text, message) => {
    expect(() => parseShard(text)).toThrow(ShardError);
    expect(() => parseShard(text)).toThrow(message);
  });
});

describe("--shard I/N: the partition", () => {
  it("is the same whatever order the plan lists arenas and adapters in (machines need not agree on listing order)", () => {
    const reversed = planRun([...arenas].reverse(), [...adapters].reverse());
    for (const count of [2, 3, 5, 8]) expect(parts(reversed, count)).toEqual(parts(fullPlan, count));
    // And from one call to the next.
    expect(parts(fullPlan, 4)).toEqual(parts(fullPlan, 4));
  });

  it("puts every cell in exactly one shard, for every N up to more shards than some lanes have cells", () => {
    const all = shardCells(fullPlan, REPEAT).map(shardCellKey).sort();
    expect(new Set(all).size).toBe(all.length);
    for (const count of [1, 2, 3, 4, 7, 16, 64]) {
      const p = parts(fullPlan, count);
      expect(p.flat().sort()).toEqual(all);
      // selectShard's test agrees with the assignment, shard by shard.
      for (let index = 1; index <= count; index++) {
        const selection = selectShard(fullPlan, REPEAT, { index, count });
        const kept = shardCells(fullPlan, REPEAT).filter((c) => selection.keep(c.arena, c.adapter, c.repeat, c.itemId)).map(shardCellKey).sort();
        expect(kept).toEqual(p[index - 1]);
        expect(selection.cells).toBe(kept.length);
      }
    }
  });

  it("balances expected cost: no two shards differ by more than the costliest cell (the greedy rule's bound)", () => {
    const cells = shardCells(fullPlan, REPEAT);
    const costliest = Math.max(...cells.map((c) => c.cost));
    const costOf = new Map(cells.map((c) => [shardCellKey(c), c.cost]));
    for (const count of [2, 3, 4, 6, 8]) {
      const loads = parts(fullPlan, count).map((p) => p.reduce((a, k) => a + costOf.get(k)!, 0));
      expect(Math.max(...loads) - Math.min(...loads)).toBeLessThanOrEqual(costliest);
      expect(loads.reduce((a, b) => a + b, 0)).toBe(cells.reduce((a, c) => a + c.cost, 0));
    }
  });

  it("balances cost, not count: durable cells are spread over the shards", () => {
    const durable = arenas.find((a) => a.durable)!;
    const plan = planRun([durable, arenas.find((a) => a.id === "tool_use")!], adapters.filter((a) => a.name === "vanilla"));
    const two = parts(plan, 2);
    const durableIn = two.map((p) => p.filter((k) => k.startsWith(`${durable.id}\u0000`)).length);
    // Half the durable cells on each side (± one), though the tool_use cells outnumber them.
    expect(Math.abs(durableIn[0]! - durableIn[1]!)).toBeLessThanOrEqual(1);
  });

  it("prices a cell by its scripted turns and durable pauses, and a Python worker at the factor", () => {
    const durable = arenas.find((a) => a.id === "durable_state")!;
    const toolUse = arenas.find((a) => a.id === "tool_use")!;
    const node = { module: "/x/index.ts" };
    const python = { module: "/x/index.py" };
    const durableCost = cellCost(durable, node, durable.items[0]!);
    // durable_state's script: five turns, one of them the save_progress pause.
    expect(durableCost).toBe(SHARD_COST.cell + 5 * SHARD_COST.turn + SHARD_COST.restart);
    expect(cellCost(durable, python, durable.items[0]!)).toBe(durableCost * SHARD_COST.pythonFactor);
    expect(cellCost(toolUse, node, toolUse.items[0]!)).toBeLessThan(durableCost);
  });
});
