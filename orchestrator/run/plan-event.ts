/**
 * The plan as the progress line tells it, before anything starts: how many cells each adapter
 * will run in this session (a resume's recorded cells are not run again, so they are not work
 * left), over how many lanes, at what width.
 */
import { cellKey, itemKey } from "../store/journal.ts";
import type { RunOptions, RunPlanEvent } from "./options.ts";
import { keptCells, laneCells, type ArenaPlan } from "./plan.ts";

export function planEvent(options: Pick<RunOptions, "prior" | "config" | "keepCell">, plan: readonly ArenaPlan[], concurrency: number, total: number): RunPlanEvent {
  const lanes = plan.flatMap(({ arena, items, adapters }) =>
    adapters.map((adapter) => {
      const prior = options.prior?.items.get(cellKey(arena.id, adapter.name));
      const cells = keptCells(laneCells(items, options.config.repeat), arena.id, adapter.name, options.keepCell).filter((c) => !prior?.has(itemKey(c.repeat, c.item.id))).length;
      return { arena: arena.id, adapter: adapter.name, cells };
    }),
  );
  return { total, lanes, concurrency };
}
