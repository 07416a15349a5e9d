/**
 * How many items may be in flight so that every worker process that can be alive at once fits in
 * memory. `bench --concurrency 1000` once started 281 workers (~40 GB resident) and the kernel
 * killed the orchestrator, losing the whole run: a run that cannot fit must run narrower instead.
 */

import os from "node:os";
import { HEAVIEST_WORKER_BYTES, workerBytesFor } from "./worker-rss.ts";

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/**
 * Resident memory of the heaviest worker measured (worker-rss.json, from the adapter cost table
 * with a margin): what a worker is charged when its adapter is not known. Re-measure with
 * `node scripts/adapter-costs.ts` then `node scripts/worker-rss.ts` when an adapter or its
 * framework changes.
 */
export const PER_WORKER_BYTES = HEAVIEST_WORKER_BYTES;

/**
 * Upper bound for `--concurrency`, checked before the memory clamp below. Up to here a large value
 * is clamped to what fits, with a message (`bench --concurrency 1000` is the incident above); past
 * it the value is a typo, and the clamp's bisection and every slot count would start from it.
 */
export const MAX_CONCURRENCY = 1024;

/**
 * Items in flight per core by default on a live run. A mock item keeps a core busy (the worker and
 * the scripted gateway answer at once), so a mock run defaults to one item per core; a live item
 * spends nearly all its time waiting on the provider, so more in flight use the same cores.
 */
export const LIVE_ITEMS_PER_CORE = 4;

/**
 * `--concurrency` when it is not given: the number of cores for a mock run, {@link
 * LIVE_ITEMS_PER_CORE} per core for a live one (at most {@link MAX_CONCURRENCY}); either is then
 * clamped to what memory allows, like a given value.
 */
export function defaultConcurrency(mode: "mock" | "live", cores: number = os.availableParallelism()): number {
  return Math.min(MAX_CONCURRENCY, Math.max(1, cores) * (mode === "live" ? LIVE_ITEMS_PER_CORE : 1));
}

/** The share of available memory the workers may take; the rest is the orchestrator's (gateway, scoring, records). */
export const MEMORY_SHARE = 0.75;

/** What one adapter's worker pool has to do in a run. */
export interface PoolDemand {
  /** Item runs (items × repeat) over all the adapter's arenas. */
  readonly itemRuns: number;
  /** Item runs of each durable arena the adapter runs: each keeps its own warm spares. */
  readonly durableItemRuns: readonly number[];
  /** Bytes one of its workers is budgeted at (worker-rss.ts); default: the budget's `perWorkerBytes`. */
  readonly workerBytes?: number;
  /**
   * Items one of its workers carries at once on a non-durable arena (`--items-per-worker`, seats);
   * default 1. A durable item still takes a worker alone.
   */
  readonly seats?: number;
}

/**
 * What each seat past the first adds to a worker's resident memory: its runner, its HTTP client and
 * the item in flight. Measured with scripts/live-scale.ts at 1 and 8 a worker (docs/performance.md
 * "Live at scale"): 4.3 MiB for vanilla at 64 in flight, 8–11 MiB of sampled peak RSS for every
 * TypeScript adapter at 16; one figure for all, the largest, rounded up.
 */
export const SEAT_BYTES = 12 * 1024 * 1024;

/** The workers that can be alive at once with `c` items in flight, and the bytes they are budgeted at. */
export interface WorkersAlive {
  /** Workers in the run's slots (supervisor/worker-budget.ts): busy, or idle in a free slot (processes, not items). */
  readonly slots: number;
  /** Built spares of the durable lanes that can be running at once. */
  readonly spares: number;
  readonly bytes: number;
}

/**
 * Upper bound on the workers alive at once with `c` items in flight, from pool.ts, worker-budget.ts
 * and session.ts:
 *
 * - Slots: outside the spares, the run never holds more workers than items in flight — an idle one
 *   is stopped to make room — so at most `c`, and a pool never more than its item runs (at least
 *   1, for the build). Charged heaviest first: the worst case is the heaviest adapters filling
 *   every slot. A pool with seats carries its `n` items in flight on `d + ⌈(n − d) / seats⌉`
 *   workers, `d` the most of them that can be durable (each alone), each worker charged
 *   {@link SEAT_BYTES} more per seat past the first.
 * - Spares: a durable lane keeps `min(2c, its item runs)` built spares from its first item to its
 *   last. Lanes queue their items one lane after another on the shared queue, so at most `c`
 *   lanes have items in flight at once: the `min(c, lanes)` lanes with the most spare bytes are
 *   charged.
 *
 * (A SIGKILLed worker of a durable restart can overlap its replacement for a few ms; not counted.)
 */
export function workersAlive(c: number, pools: readonly PoolDemand[], perWorkerBytes = PER_WORKER_BYTES): WorkersAlive {
  const bytesOf = (p: PoolDemand) => p.workerBytes ?? perWorkerBytes;
  let items = 0;
  let slots = 0;
  let bytes = 0;
  for (const pool of [...pools].sort((a, b) => bytesOf(b) - bytesOf(a))) {
    const taken = Math.min(c - items, Math.max(1, pool.itemRuns));
    if (taken <= 0) break;
    items += taken;
    const seats = Math.max(1, pool.seats ?? 1);
    const alone = Math.min(taken, pool.durableItemRuns.reduce((n, r) => n + r, 0));
    const workers = seats === 1 ? taken : alone + Math.ceil((taken - alone) / seats);
    slots += workers;
    bytes += workers * (bytesOf(pool) + (seats - 1) * SEAT_BYTES);
  }
  const spareLanes = pools
    .flatMap((p) => p.durableItemRuns.map((runs) => ({ count: Math.min(2 * c, runs), bytes: Math.min(2 * c, runs) * bytesOf(p) })))
    .sort((a, b) => b.bytes - a.bytes)
    .slice(0, c);
  return {
    slots,
    spares: spareLanes.reduce((n, l) => n + l.count, 0),
    bytes: bytes + spareLanes.reduce((n, l) => n + l.bytes, 0),
  };
}

/** The pools of a run: one per adapter that has an arena in it (`onlyArenas` as in session.ts), each at its measured worker size. */
export function poolDemands(
  arenas: readonly { readonly id: string; readonly durable: boolean; readonly items: number }[],
  adapters: readonly { readonly name?: string; readonly onlyArenas?: readonly string[]; readonly seats?: number }[],
  repeat: number,
): PoolDemand[] {
  return adapters.flatMap((adapter) => {
    const mine = arenas.filter((a) => !adapter.onlyArenas || adapter.onlyArenas.includes(a.id));
    if (mine.length === 0) return [];
    return [{
      itemRuns: mine.reduce((s, a) => s + a.items * repeat, 0),
      durableItemRuns: mine.filter((a) => a.durable).map((a) => a.items * repeat),
      ...(adapter.name !== undefined ? { workerBytes: workerBytesFor(adapter.name) } : {}),
      ...(adapter.seats !== undefined && adapter.seats > 1 ? { seats: adapter.seats } : {}),
    }];
  });
}

export interface ConcurrencyBudget {
  /**
   * The run's pools ({@link poolDemands}), or only how many adapters: then every pool is assumed
   * to have `items` item runs (default: more than slots) on every durable arena too, which errs
   * towards running narrower.
   */
  readonly adapters: number | readonly PoolDemand[];
  /** With a count of adapters: whether the run has a durable arena (`true` = one), or how many. */
  readonly durable?: boolean | number;
  /**
   * With a count of adapters: the most item runs (items × repeat) any one adapter has, if known.
   * A pool never has more workers busy than that, so a small run is not clamped for nothing.
   */
  readonly items?: number;
  /** Bytes the workers can use; default `process.availableMemory()` (honours a cgroup limit, unlike `os.freemem()`). */
  readonly availableBytes?: number;
  /** Peak resident bytes of a worker whose pool does not say its own; default {@link PER_WORKER_BYTES}. */
  readonly perWorkerBytes?: number;
  /** How the requested value is named in the message (default `--concurrency`). */
  readonly label?: string;
}

export interface BoundedConcurrency {
  readonly concurrency: number;
  readonly clamped: boolean;
  /** Set when clamped: one line naming the requested and clamped values and the memory figures. */
  readonly message?: string;
}

function size(bytes: number): string {
  return bytes >= GIB ? `${(bytes / GIB).toFixed(1)} GiB` : `${Math.round(bytes / MIB)} MiB`;
}

function poolsOf(budget: ConcurrencyBudget): readonly PoolDemand[] {
  if (typeof budget.adapters !== "number") return budget.adapters;
  const durable = budget.durable === true ? 1 : budget.durable === false || budget.durable === undefined ? 0 : budget.durable;
  const items = budget.items ?? Infinity;
  const pool: PoolDemand = { itemRuns: items, durableItemRuns: Array.from({ length: durable }, () => items) };
  return Array.from({ length: Math.max(1, budget.adapters) }, () => pool);
}

/**
 * Clamp `requested` items in flight to the largest `c` whose workers ({@link workersAlive}) fit:
 * their budgeted bytes ≤ 0.75 × availableBytes, and at least 1 (a run always makes progress, one
 * item at a time, even if the message has to say that may not fit).
 */
export function boundConcurrency(requested: number, budget: ConcurrencyBudget): BoundedConcurrency {
  const { availableBytes = process.availableMemory(), perWorkerBytes = PER_WORKER_BYTES, label = "--concurrency" } = budget;
  if (!Number.isSafeInteger(requested) || requested < 1) throw new RangeError(`concurrency must be a whole number ≥ 1, got ${requested}`);
  const pools = poolsOf(budget);
  const usable = MEMORY_SHARE * availableBytes;
  const alive = (c: number) => workersAlive(c, pools, perWorkerBytes);
  const fits = (c: number) => alive(c).bytes <= usable;
  if (fits(requested)) return { concurrency: requested, clamped: false };
  // The bytes never decrease with c: the largest c that fits is found by bisection.
  let lo = 1;
  let hi = requested;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  const at = alive(lo);
  const wanted = alive(requested);
  const describe = (w: WorkersAlive) => `${w.slots + w.spares} worker${w.slots + w.spares === 1 ? "" : "s"} (${w.slots} in flight${w.spares > 0 ? ` + ${w.spares} durable spares` : ""}, ~${size(w.bytes)})`;
  const message =
    `${label} ${requested} clamped to ${lo}: memory — ${describe(wanted)} could be alive at ${requested} in flight, ${describe(at)} at ${lo}, ` +
    `each adapter's worker at its measured size (orchestrator/config/worker-rss.json), ` +
    `and ${size(availableBytes)} is available (${Math.round(MEMORY_SHARE * 100)}% for workers)${fits(lo) ? "" : "; even that may not fit"}`;
  return { concurrency: lo, clamped: true, message };
}
