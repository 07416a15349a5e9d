/**
 * How many items may be in flight so that every worker process that can be alive at once fits in
 * memory. `bench --concurrency 1000` once started 281 workers (~40 GB resident) and the kernel
 * killed the orchestrator, losing the whole run: a run that cannot fit must run narrower instead.
 */

const MIB = 1024 * 1024;
const GIB = 1024 * MIB;

/**
 * Resident memory one worker may reach, from `node scripts/worker-memory.ts` (docs/performance.md,
 * "Worker memory"): the largest adapter, langgraph, peaks at 287–288 MiB after one pass over
 * every arena (98 items) and at 354–371 MiB after five (`--repeat 5`) — V8 lets the heap grow
 * while the machine has room — rounded up. Re-measure when an adapter or its framework changes.
 */
export const PER_WORKER_BYTES = 384 * MIB;

/**
 * Upper bound for `--concurrency`, checked before the memory clamp below. Up to here a large value
 * is clamped to what fits, with a message (`bench --concurrency 1000` is the incident above); past
 * it the value is a typo, and the clamp's bisection and every slot count would start from it.
 */
export const MAX_CONCURRENCY = 1024;

/** The share of available memory the workers may take; the rest is the orchestrator's (gateway, scoring, records). */
export const MEMORY_SHARE = 0.75;

/** What one adapter's worker pool has to do in a run. */
export interface PoolDemand {
  /** Item runs (items × repeat) over all the adapter's arenas. */
  readonly itemRuns: number;
  /** Item runs of each durable arena the adapter runs: each keeps its own warm spares. */
  readonly durableItemRuns: readonly number[];
}

/**
 * Upper bound on the workers alive at once with `c` items in flight, from pool.ts and session.ts.
 * One p-queue of `c` slots is shared by every adapter, but each adapter has its own pool, and a
 * pool's idle workers live until the adapter's last arena is done — so each pool can hold
 * `min(c, itemRuns)` workers (one per slot it ever filled; at least 1, for the build) at the same
 * time as every other pool. A durable arena's lane also keeps `warmSpares = 2c` spares, never
 * more than its item runs (`spareBudget`), which join the idle workers when the arena is done:
 *
 *     workers(c) = Σ_pools [ max(1, min(c, itemRuns)) + Σ_durable min(2c, durableItemRuns) ]
 *
 * (A SIGKILLed worker of a durable restart can overlap its replacement for a few ms; not counted.)
 */
export function workersAlive(c: number, pools: readonly PoolDemand[]): number {
  return pools.reduce(
    (sum, p) => sum + Math.max(1, Math.min(c, p.itemRuns)) + p.durableItemRuns.reduce((s, d) => s + Math.min(2 * c, d), 0),
    0,
  );
}

/** The pools of a run: one per adapter that has an arena in it (`onlyArenas` as in session.ts). */
export function poolDemands(
  arenas: readonly { readonly id: string; readonly durable: boolean; readonly items: number }[],
  adapters: readonly { readonly onlyArenas?: readonly string[] }[],
  repeat: number,
): PoolDemand[] {
  return adapters.flatMap((adapter) => {
    const mine = arenas.filter((a) => !adapter.onlyArenas || adapter.onlyArenas.includes(a.id));
    if (mine.length === 0) return [];
    return [{
      itemRuns: mine.reduce((s, a) => s + a.items * repeat, 0),
      durableItemRuns: mine.filter((a) => a.durable).map((a) => a.items * repeat),
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
  /** Peak resident bytes of one worker; default {@link PER_WORKER_BYTES}. */
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
 * `workers(c) × perWorkerBytes ≤ 0.75 × availableBytes`, and at least 1 (a run always makes
 * progress, one item at a time, even if the message has to say that may not fit).
 */
export function boundConcurrency(requested: number, budget: ConcurrencyBudget): BoundedConcurrency {
  const { availableBytes = process.availableMemory(), perWorkerBytes = PER_WORKER_BYTES, label = "--concurrency" } = budget;
  if (!Number.isSafeInteger(requested) || requested < 1) throw new RangeError(`concurrency must be a whole number ≥ 1, got ${requested}`);
  const pools = poolsOf(budget);
  const usable = MEMORY_SHARE * availableBytes;
  const fits = (c: number) => workersAlive(c, pools) * perWorkerBytes <= usable;
  if (fits(requested)) return { concurrency: requested, clamped: false };
  // workers(c) never decreases with c: the largest c that fits is found by bisection.
  let lo = 1;
  let hi = requested;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (fits(mid)) lo = mid;
    else hi = mid;
  }
  const pooled = `${pools.length} adapter pool${pools.length === 1 ? "" : "s"}${pools.some((p) => p.durableItemRuns.length > 0) ? ", durable spares included" : ""}`;
  const message =
    `${label} ${requested} clamped to ${lo}: up to ${workersAlive(lo, pools)} workers can be alive at ${lo} in flight ` +
    `(${workersAlive(requested, pools)} at ${requested}; ${pooled}), each needs up to ~${Math.round(perWorkerBytes / MIB)} MiB, ` +
    `and ${size(availableBytes)} is available (${Math.round(MEMORY_SHARE * 100)}% for workers)${fits(lo) ? "" : "; even that may not fit"}`;
  return { concurrency: lo, clamped: true, message };
}
