/**
 * The run as a pure matrix: arena × adapter × item × repeat. Nothing here touches a process, a
 * file or a clock, so what a run (or a resumed run) will do can be read and tested on its own.
 */
import type { Arena, Item } from "../arena/schemas.ts";
import type { ItemRecord } from "../report/record.ts";
import { itemKey } from "../store/journal.ts";
import type { ArenaConfig } from "../config/arena-config.ts";
import type { AdapterEntry, RunOptions } from "./options.ts";
import { itemCost } from "./shard.ts";

/** One item × repeat of a lane: the unit that is driven, scored, witnessed and journalled. */
export interface Cell {
  readonly repeat: number;
  readonly item: Item;
}

/** One arena and the adapters that run it, on the items the filter kept. */
export interface ArenaPlan {
  readonly arena: Arena;
  readonly items: readonly Item[];
  readonly adapters: readonly AdapterEntry[];
}

/** Whether a cell is this session's to run (`--shard`: run/shard.ts); absent = every cell. */
export type KeepCell = (arena: string, adapter: string, repeat: number, itemId: string) => boolean;

export function planRun(
  arenas: readonly Arena[],
  adapters: readonly AdapterEntry[],
  itemFilter?: readonly string[],
  keep?: KeepCell,
  repeat = 1,
): ArenaPlan[] {
  const plan = arenas.map((arena) => ({
    arena,
    items: itemFilter ? arena.items.filter((i) => itemFilter.includes(i.id)) : arena.items,
    adapters: adapters.filter((a) => !a.onlyArenas || a.onlyArenas.includes(arena.id)),
  }));
  if (!keep) return plan;
  // A shard opens only the lanes it has cells on, and only the arenas those lanes are on.
  return plan
    .map((p) => ({ ...p, adapters: p.adapters.filter((a) => laneCells(p.items, repeat).some((c) => keep(p.arena.id, a.name, c.repeat, c.item.id))) }))
    .filter((p) => p.adapters.length > 0);
}

/** A lane's cells this session runs: every cell, or the shard's. */
export function keptCells(cells: readonly Cell[], arena: string, adapter: string, keep?: KeepCell): Cell[] {
  return keep ? cells.filter((c) => keep(arena, adapter, c.repeat, c.item.id)) : [...cells];
}

/** Every cell of a lane, in dataset order within each repeat. */
export function laneCells(items: readonly Item[], repeat: number): Cell[] {
  return Array.from({ length: repeat }, (_, r) => items.map((item) => ({ repeat: r, item }))).flat();
}

/** Whether a run waits on a provider: a live one, or a mock one whose gateway holds each reply as one. */
export function waitsOnProvider(mode: ArenaConfig["mode"], faults: RunOptions["gatewayFaults"]): boolean {
  return mode === "live" || (faults?.holdSeconds ?? 0) > 0;
}

/**
 * The order a lane hands its cells to the queue. While the run waits on a provider (`waiting`: a
 * live run, or a mock gateway that holds its replies as one) and more than one item runs at a
 * time, the costliest cells by the expected cost `--shard` balances with (shard.ts: the scripted
 * turns, and a restart per durable pause) go first, dataset order among equals: the slots are
 * what the run waits for then, and longest first is the classic list-scheduling rule for them.
 * Handed over in dataset order, 288 `tool_use` cells on 64 slots held 0.5 s a call end with a wave
 * of 4-call items started last; even at zero overhead that run needs 7.0 s, against 6.0 s longest
 * first (scripts/live-scale.ts prints both). Otherwise it is dataset order: a mock run is bound by
 * the machine's CPU, not its slots, so the order hardly moves its wall, and in dataset order a run
 * reads like its dataset and each worker meets the same items in the same order run after run
 * (what a fixture that cheats from its third request on is caught on stays put). Records are in
 * dataset order whatever ran first (lane.ts).
 */
export function dispatchOrder(arena: Arena, cells: readonly Cell[], concurrency: number, waiting: boolean): Cell[] {
  if (concurrency <= 1 || !waiting) return [...cells];
  const costs = new Map<Item, number>();
  const costOf = (item: Item) => costs.get(item) ?? costs.set(item, itemCost(arena, item)).get(item)!;
  // Array.prototype.sort is stable: equal cells keep their dataset order.
  return [...cells].sort((a, b) => costOf(b.item) - costOf(a.item));
}

/** The cells an earlier session has not finished. */
export function cellsToRun(cells: readonly Cell[], prior: ReadonlyMap<string, ItemRecord>): Cell[] {
  return cells.filter((c) => !prior.has(itemKey(c.repeat, c.item.id)));
}

export function totalCells(plan: readonly ArenaPlan[], repeat: number, keep?: KeepCell): number {
  if (keep) return plan.reduce((acc, p) => acc + p.adapters.reduce((n, a) => n + keptCells(laneCells(p.items, repeat), p.arena.id, a.name, keep).length, 0), 0);
  return plan.reduce((acc, p) => acc + p.items.length * repeat * p.adapters.length, 0);
}

/** How many lanes each adapter has: its worker pool closes after the last one. */
export function lanesPerAdapter(plan: readonly ArenaPlan[], adapters: readonly AdapterEntry[]): Map<AdapterEntry, number> {
  const lanes = new Map<AdapterEntry, number>();
  for (const adapter of adapters) {
    const count = plan.filter((p) => p.adapters.includes(adapter)).length;
    if (count > 0) lanes.set(adapter, count);
  }
  return lanes;
}
