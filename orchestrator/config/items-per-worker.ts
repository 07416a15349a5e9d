/**
 * `--items-per-worker N`: how many items one worker process carries at once on a non-durable arena,
 * each on its own seat (supervisor/seat.ts).
 *
 * - **Default**: 1 on a mock run — a mock item keeps a core busy, so carrying several in one process
 *   saves memory but no time, and one item per process is the plainest isolation;
 *   {@link LIVE_ITEMS_PER_WORKER} on a live run, whose items spend nearly all their time waiting on
 *   the provider, so a process per item costs a process's memory and start CPU for nothing
 *   (docs/performance.md, "Live at scale").
 * - **Range**: 1 to {@link MAX_ITEMS_PER_WORKER}. Past the items in flight it changes nothing.
 * - **What it keeps**: each item has its own runner, built with its own gateway identity (a tag and a
 *   128-bit token), and its own checkpoint folder; the witness attributes every request to its item
 *   exactly as with one item per worker. **What the items of one worker share**: the process —
 *   its memory (an adapter that leaks between items in memory is caught on the wire, see the
 *   `seat-crosser` fixture), its private TMPDIR (emptied when no leg is in flight), its slot (the
 *   folders of the items in flight beside an item are readable to it) and its fate (a crash or a
 *   timed-out leg ends every item on it, each recorded as a worker failure).
 * - **Always 1**: durable arenas (a pause SIGKILLs the process, and the resume must land on one
 *   that never saw the item) and adapters on the Python host (it runs one leg at a time).
 * - **Recorded** in the manifest and every record's provenance as `items_per_worker` when it is
 *   over 1, so a run says how it was isolated; a resume runs as the run was recorded.
 */
import { runtimeOf } from "../../contract/runtime.ts";

export const ITEMS_PER_WORKER_FLAG = "items-per-worker";
export const MAX_ITEMS_PER_WORKER = 64;
/** The live default (see the header): a worker's share of memory divided by 8, at 8 items waiting on the provider. */
export const LIVE_ITEMS_PER_WORKER = 8;

export function defaultItemsPerWorker(mode: "mock" | "live"): number {
  return mode === "live" ? LIVE_ITEMS_PER_WORKER : 1;
}

/** The seats an adapter's workers get: `itemsPerWorker`, or 1 on the Python host. */
export function seatsFor(adapter: { readonly name: string; readonly module: string }, itemsPerWorker: number | undefined): number {
  if (itemsPerWorker === undefined || itemsPerWorker <= 1) return 1;
  return runtimeOf(adapter) === "python" ? 1 : itemsPerWorker;
}
