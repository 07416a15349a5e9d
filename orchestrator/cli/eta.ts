/**
 * The time a run has left, from what its cells have taken so far. The rate of the whole run so
 * far misleads: its first cells each pay a worker start and a build (a bench's first minute once
 * said `56m12s` for a run that took 2.5), a durable arena's cells (a restart each) take many times
 * a plain one's, and a Python framework's cell can take ten of the baseline's. So each lane's
 * remaining cells are priced at that lane's own median cell time (its adapter's, until the lane
 * has shown a few), and an estimate is shown only once it has settled: every adapter with work
 * left has shown a few cells, most cells left are in lanes that have, and the projected end has
 * stopped moving. Pure: the caller says
 * what finished, how long it took and what the clock says.
 */

/** One arena × adapter lane's cells this session will run (cells an earlier session recorded are not here). */
export interface EtaLane {
  readonly arena: string;
  readonly adapter: string;
  readonly cells: number;
}

export interface EtaPlan {
  readonly lanes: readonly EtaLane[];
  /** Items in flight at once. */
  readonly concurrency: number;
}

/** How many finished cells a median needs before it prices anything. */
export const SETTLED_AFTER = 3;
/** How many successive projections of the end must agree before one is shown. */
export const AGREEING = 3;
/** The share of the cells left that must be priced by their own lane's median. */
export const OWN_SHARE = 0.5;
/** How far they may differ: this share of the time left (or 2 s, whichever is more). */
export const TOLERANCE = 0.2;

const key = (adapter: string, arena: string) => `${adapter}\u0000${arena}`;

export class EtaEstimator {
  private readonly remaining = new Map<string, { adapter: string; cells: number }>();
  private readonly laneSeconds = new Map<string, number[]>();
  private readonly adapterSeconds = new Map<string, number[]>();
  private readonly concurrency: number;
  /** Projected end times (ms on the caller's clock), newest last. */
  private projections: number[] = [];

  constructor(plan: EtaPlan) {
    for (const lane of plan.lanes) if (lane.cells > 0) this.remaining.set(key(lane.adapter, lane.arena), { adapter: lane.adapter, cells: lane.cells });
    this.concurrency = Math.max(1, plan.concurrency);
  }

  /** One cell of `adapter` on `arena` finished at `nowMs` after `seconds` of wall time in its slot. */
  finished(adapter: string, arena: string, seconds: number, nowMs: number): void {
    this.take(adapter, arena, 1);
    push(this.laneSeconds, key(adapter, arena), seconds);
    push(this.adapterSeconds, adapter, seconds);
    this.project(nowMs);
  }

  /** A lane's cells that will not run after all (not available on its arena). */
  dropped(adapter: string, arena: string, nowMs: number): void {
    this.remaining.delete(key(adapter, arena));
    this.project(nowMs);
  }

  /** Milliseconds left at `nowMs`, or undefined while the estimate has not settled. */
  estimateMs(nowMs: number): number | undefined {
    if (this.remaining.size === 0) return 0;
    if (this.projections.length < AGREEING) return undefined;
    const recent = this.projections.slice(-AGREEING);
    const latest = recent.at(-1)!;
    const left = Math.max(0, latest - nowMs);
    const spread = Math.max(...recent) - Math.min(...recent);
    return spread <= Math.max(2000, TOLERANCE * left) ? left : undefined;
  }

  /** The end as it looks now, if every lane left can be priced; a lane that cannot be resets the history. */
  private project(nowMs: number): void {
    let work = 0;
    let cells = 0;
    let ownCells = 0;
    for (const [laneKey, lane] of this.remaining) {
      const own = this.laneSeconds.get(laneKey) ?? [];
      const fallback = this.adapterSeconds.get(lane.adapter) ?? [];
      const seen = own.length >= SETTLED_AFTER ? own : fallback;
      if (seen.length < SETTLED_AFTER) {
        this.projections = [];
        return;
      }
      work += lane.cells * median(seen);
      cells += lane.cells;
      if (seen === own) ownCells += lane.cells;
    }
    // Mostly priced at other arenas' times (a bench's first arena is durable_state, a restart a
    // cell): a guess, not an estimate.
    if (ownCells < OWN_SHARE * cells) {
      this.projections = [];
      return;
    }
    this.projections.push(nowMs + (cells === 0 ? 0 : (work / Math.min(this.concurrency, cells)) * 1000));
    if (this.projections.length > AGREEING) this.projections.shift();
  }

  private take(adapter: string, arena: string, cells: number): void {
    const k = key(adapter, arena);
    const lane = this.remaining.get(k);
    if (!lane) return;
    if (lane.cells > cells) this.remaining.set(k, { ...lane, cells: lane.cells - cells });
    else this.remaining.delete(k);
  }
}

function push(map: Map<string, number[]>, k: string, x: number): void {
  const xs = map.get(k) ?? [];
  xs.push(x);
  map.set(k, xs);
}

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}
