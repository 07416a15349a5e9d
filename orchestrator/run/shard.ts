/**
 * `--shard I/N`: one of N disjoint parts of a run's cells (arena × adapter × item × repeat), so
 * N machines can each run one and `arena merge` can put them back together. Pure: the partition
 * is a function of the plan alone (no clock, no randomness, no machine), so every machine that
 * plans the same run computes the same N parts and each takes its own.
 *
 * Balance is by expected cost, not by count: a durable item restarts a worker at every pause and
 * a Python worker costs more than a Node one, so equal counts would leave one shard with all the
 * slow cells. The greedy rule (longest first onto the least-loaded shard) is within 4/3 of the
 * best possible split, and needs nothing but the plan.
 *
 * A cell is never split: a durable item's legs and restarts all run inside the shard its cell
 * belongs to, on that shard's pool, as they would in an unsharded run.
 */
import type { Arena, Item, Turn } from "../arena/schemas.ts";
import { runtimeOf } from "../../contract/runtime.ts";
import { isSuspendTool } from "../../contract/tools/registry.ts";
import type { AdapterEntry } from "./options.ts";

/** Which part of the run this process takes: `index` is 1-based, as typed (`--shard 2/4`). */
export interface ShardSpec {
  readonly index: number;
  readonly count: number;
}

/**
 * The expected-cost weights, in rough milliseconds of harness CPU. They are not predictions of a
 * cell's time, only its size relative to other cells, taken from issue 23's measurements: about
 * 7 ms of harness work per item, a few per scripted model turn, ~270 ms per durable restart, and a
 * Python worker slower than a Node one on each of them.
 */
export const SHARD_COST = {
  /** Every cell: its folder, scoring, the witness, the journal line. */
  cell: 7,
  /** Each scripted model turn: a request through the gateway, a reply, the witness reading it. */
  turn: 3,
  /** Each pause of a durable item: the worker is killed and the resume starts on another. */
  restart: 270,
  /** A Python adapter's cost over a Node one's (integer, so the sum is exact on every machine). */
  pythonFactor: 2,
} as const;

/** One cell of the plan, with what the partition needs to place it. */
export interface ShardCell {
  readonly arena: string;
  readonly adapter: string;
  readonly repeat: number;
  readonly itemId: string;
  readonly cost: number;
}

/** Refused `--shard` value: the message names what is wrong. */
export class ShardError extends Error {
  override readonly name = "ShardError";
}

/** Most shards one run may be split into: more than its cells would only make empty parts. */
export const MAX_SHARDS = 1000;

/** `I/N` as typed on the command line: both whole numbers, 1 ≤ I ≤ N ≤ {@link MAX_SHARDS}. */
export function parseShard(text: string): ShardSpec {
  const match = /^(\d+)\/(\d+)$/.exec(text.trim());
  if (!match) throw new ShardError(`--shard must be I/N with whole numbers, 1-based (e.g. 2/4), got '${text}'`);
  const index = Number(match[1]);
  const count = Number(match[2]);
  if (count < 1 || count > MAX_SHARDS) throw new ShardError(`--shard ${text}: N must be between 1 and ${MAX_SHARDS}`);
  if (index < 1 || index > count) throw new ShardError(`--shard ${text}: I must be between 1 and N (${count}); shards are numbered from 1`);
  return { index, count };
}

/** The turns the mock gateway would serve `item`: the first scenario whose match is in its input. */
function scriptedTurns(arena: Arena, item: Item): readonly Turn[] {
  const input = item.input.toLowerCase();
  const scenario = arena.script.scenarios.find((s) => s.match !== "" && input.includes(s.match.toLowerCase()));
  return scenario && scenario.turns.length > 0 ? scenario.turns : arena.script.default.turns;
}

/** An item's expected cost by {@link SHARD_COST} on a Node adapter: its turns and its pauses. */
export function itemCost(arena: Arena, item: Item): number {
  const turns = scriptedTurns(arena, item);
  const pauses = arena.durable ? turns.filter((t) => t.kind === "tool_calls" && t.tool_calls.some((c) => isSuspendTool(c.name))).length : 0;
  return SHARD_COST.cell + SHARD_COST.turn * turns.length + SHARD_COST.restart * pauses;
}

/** A cell's expected cost by {@link SHARD_COST}: the same for every repeat of the item. */
export function cellCost(arena: Arena, adapter: Pick<AdapterEntry, "module">, item: Item): number {
  const base = itemCost(arena, item);
  return runtimeOf(adapter) === "python" ? base * SHARD_COST.pythonFactor : base;
}

/** One arena and the adapters planned on it (run/plan.ts's ArenaPlan, as far as the partition reads it). */
export interface PlannedLane {
  readonly arena: Arena;
  readonly items: readonly Item[];
  readonly adapters: readonly Pick<AdapterEntry, "name" | "module">[];
}

/** Every cell of the plan with its cost, in plan order (arena, adapter, repeat, dataset order). */
export function shardCells(plan: readonly PlannedLane[], repeat: number): ShardCell[] {
  const out: ShardCell[] = [];
  for (const { arena, items, adapters } of plan) {
    for (const adapter of adapters) {
      for (let r = 0; r < repeat; r++) {
        for (const item of items) out.push({ arena: arena.id, adapter: adapter.name, repeat: r, itemId: item.id, cost: cellCost(arena, adapter, item) });
      }
    }
  }
  return out;
}

/** The stable key that breaks cost ties: independent of the order the plan listed cells in. */
export function shardCellKey(cell: Pick<ShardCell, "arena" | "adapter" | "repeat" | "itemId">): string {
  return `${cell.arena}\u0000${cell.adapter}\u0000${cell.itemId}\u0000${String(cell.repeat).padStart(6, "0")}`;
}

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * Which shard (0-based) each cell goes to, by its {@link shardCellKey}: costliest first, each onto
 * the shard with the least cost so far (the lowest-numbered among equals), ties between equally
 * costly cells broken by key. Integer costs and a total order make the result exact everywhere.
 */
export function partitionCells(cells: readonly ShardCell[], count: number): Map<string, number> {
  const ordered = cells.map((c) => ({ key: shardCellKey(c), cost: c.cost })).sort((a, b) => b.cost - a.cost || byKey(a.key, b.key));
  const load = new Array<number>(count).fill(0);
  const out = new Map<string, number>();
  for (const { key, cost } of ordered) {
    let target = 0;
    for (let s = 1; s < count; s++) if (load[s]! < load[target]!) target = s;
    load[target]! += cost;
    out.set(key, target);
  }
  return out;
}

/** What a run's shard keeps: a test per cell, and the totals recorded in the manifest. */
export interface ShardSelection {
  readonly spec: ShardSpec;
  /** True for the cells this shard runs. */
  readonly keep: (arena: string, adapter: string, repeat: number, itemId: string) => boolean;
  /** Cells in this shard, and in the whole run. */
  readonly cells: number;
  readonly totalCells: number;
  /** This shard's expected cost, and the whole run's (by {@link SHARD_COST}). */
  readonly cost: number;
  readonly totalCost: number;
}

export function selectShard(plan: readonly PlannedLane[], repeat: number, spec: ShardSpec): ShardSelection {
  const cells = shardCells(plan, repeat);
  const assigned = partitionCells(cells, spec.count);
  const mine = cells.filter((c) => assigned.get(shardCellKey(c)) === spec.index - 1);
  const keys = new Set(mine.map(shardCellKey));
  return {
    spec,
    keep: (arena, adapter, r, itemId) => keys.has(shardCellKey({ arena, adapter, repeat: r, itemId })),
    cells: mine.length,
    totalCells: cells.length,
    cost: mine.reduce((a, c) => a + c.cost, 0),
    totalCost: cells.reduce((a, c) => a + c.cost, 0),
  };
}
