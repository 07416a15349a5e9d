/**
 * Which cells the provider served, and why the others were not: the one predicate every figure's
 * denominator is formed with (scorecards, statistics, summaries, the HTML report, `arena compare`,
 * publishing), so no two of them can disagree about what counts. A cell the provider failed says
 * nothing about the framework, so it is counted beside the figures, never in them.
 *
 * A cell is served unless its error class is `infra` (run/error-class.ts, run/provider-faults.ts).
 * The cause of a cell that was not is read here and nowhere else.
 */
import type { ItemRecord } from "./record.ts";

type Classed = Pick<ItemRecord, "error_class">;

/** True unless the provider (or the network to it) failed the cell. */
export function isServed(item: Classed): boolean {
  return item.error_class !== "infra";
}

export function servedItems<T extends Classed>(items: readonly T[]): T[] {
  return items.filter(isServed);
}

export function unservedItems<T extends Classed>(items: readonly T[]): T[] {
  return items.filter((i) => !isServed(i));
}

/**
 * A short name for what the provider did to a cell it failed: from the fault the gateway saw on
 * its last faulted leg (run/provider-faults.ts) — the HTTP status it answered (`503`, `429`), or
 * `reset`, `unreachable`, `incomplete`, `timeout`, `malformed body` — and, for a record from before
 * the gateway kept faults (or an `infra` error the wire did not see, a TLS failure), read off the
 * error text, or `other`.
 */
export function providerFaultCause(item: Pick<ItemRecord, "error"> & Partial<Pick<ItemRecord, "provider_faults">>): string {
  const seen = item.provider_faults?.at(-1);
  if (seen) return seen.status !== null && seen.status >= 400 ? String(seen.status) : seen.fault === "malformed" ? "malformed body" : seen.fault;
  const text = item.error ?? "";
  const status = /\b(4\d\d|5\d\d)\b/.exec(text);
  if (status) return status[1]!;
  if (/ECONNRESET|socket hang up|\breset\b/i.test(text)) return "reset";
  if (/ECONNREFUSED|\brefused\b/i.test(text)) return "refused";
  if (/ETIMEDOUT|timed out|timeout/i.test(text)) return "timeout";
  if (/not (valid )?JSON|Unexpected token|malformed|invalid json/i.test(text)) return "malformed body";
  return "other";
}

/** Cells not served, per cause, most first (ties by name): `{ "503": 2, reset: 1 }`. */
export function unservedCauses(items: readonly (Pick<ItemRecord, "error" | "error_class"> & Partial<Pick<ItemRecord, "provider_faults">>)[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const i of unservedItems(items)) {
    const cause = providerFaultCause(i);
    counts.set(cause, (counts.get(cause) ?? 0) + 1);
  }
  return Object.fromEntries([...counts].sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1)));
}

/** `2× 503, 1× reset`; empty when every cell was served. */
export function causesText(causes: Record<string, number>): string {
  return Object.entries(causes)
    .map(([cause, n]) => `${n}× ${cause}`)
    .join(", ");
}

/** `3 cells not served by the provider: 2× 503, 1× reset`; empty when every cell was served. */
export function unservedText(items: readonly (Pick<ItemRecord, "error" | "error_class"> & Partial<Pick<ItemRecord, "provider_faults">>)[]): string {
  const n = unservedItems(items).length;
  if (n === 0) return "";
  return `${n} ${n === 1 ? "cell" : "cells"} not served by the provider: ${causesText(unservedCauses(items))}`;
}

interface PairedCell extends Classed {
  readonly item_id: string;
  readonly repeat: number;
}

export interface ServedPairs<T> {
  /** Each side's served cells, less those whose counterpart the provider failed. */
  readonly first: T[];
  readonly second: T[];
  /** (item, repeat) pairs both sides ran where either side was not served: dropped, not compared. */
  readonly dropped: number;
}

/**
 * Two lanes' cells ready for a paired test: a pair where either side was not served is dropped
 * from both sides (and counted), and an unserved cell with no counterpart leaves too, so the
 * test's unpaired counts are about served cells only.
 */
export function servedPairs<T extends PairedCell>(first: readonly T[], second: readonly T[]): ServedPairs<T> {
  const key = (c: PairedCell) => JSON.stringify([c.item_id, c.repeat]);
  const unservedFirst = new Set(unservedItems(first).map(key));
  const unservedSecond = new Set(unservedItems(second).map(key));
  const keysFirst = new Set(first.map(key));
  const keysSecond = new Set(second.map(key));
  let dropped = 0;
  for (const k of keysFirst) if (keysSecond.has(k) && (unservedFirst.has(k) || unservedSecond.has(k))) dropped++;
  return {
    first: first.filter((c) => isServed(c) && !unservedSecond.has(key(c))),
    second: second.filter((c) => isServed(c) && !unservedFirst.has(key(c))),
    dropped,
  };
}

/** How much of a lane the provider served: `all` (an unavailable lane included: that is the framework's own), `some`, or `none`. */
export type Servedness = "all" | "some" | "none";

export function laneServedness(lane: { readonly available: boolean; readonly items: readonly Classed[] }): Servedness {
  const unserved = unservedItems(lane.items).length;
  if (!lane.available || unserved === 0) return "all";
  return unserved < lane.items.length ? "some" : "none";
}
