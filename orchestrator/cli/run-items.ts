/** `--item ID…` of `run` and `bench`, checked against the arenas before anything runs. */
import type { Arena } from "../arena/schemas.ts";
import { UsageError } from "./command.ts";
import { didYouMean } from "./suggest.ts";

/**
 * `--item` ids. With arenas named, each must hold every id; without, the run is narrowed to the
 * arenas that hold any of them (an id is looked up everywhere), and an id no arena has is refused.
 */
export function checkItems(arenas: Arena[], items: readonly string[], named: boolean): Arena[] {
  if (items.length === 0) return arenas;
  if (!named) {
    const everywhere = arenas.flatMap((a) => a.items.map((i) => i.id));
    const missing = items.filter((id) => !everywhere.includes(id));
    if (missing.length > 0) {
      throw new UsageError(`no such item(s) in any arena: ${missing.join(", ")}${didYouMean(missing[0]!, everywhere)}`);
    }
    return arenas.filter((a) => a.items.some((i) => items.includes(i.id)));
  }
  for (const arena of arenas) {
    const known = new Set(arena.items.map((i) => i.id));
    const missing = items.filter((id) => !known.has(id));
    if (missing.length > 0) {
      const hint = didYouMean(missing[0]!, arena.items.map((i) => i.id));
      throw new UsageError(`no such item(s) in '${arena.id}': ${missing.join(", ")}${hint}\navailable: ${arena.items.map((i) => i.id).join(", ")}`);
    }
  }
  return arenas;
}
