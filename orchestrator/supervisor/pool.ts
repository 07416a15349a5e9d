/**
 * Worker lifetime policy, one pool per adapter for the whole run:
 *
 * - A worker serves one adapter and is reused across items and arenas, one item at a time. It
 *   builds a runner for each arena it is handed, so a framework's import and start-up cost is
 *   paid once per process — the same for every framework — and a bench starts about as many
 *   processes as items run at once, not a fresh set for every arena.
 * - A worker that crashed, hung or broke the protocol is discarded and replaced; the run goes on.
 * - A durable resume never lands on the process that paused: that one is SIGKILLed, and the
 *   resume runs on a process that has never seen the item (not even in an earlier repeat). To
 *   keep that off the critical path, durable arenas keep built spares warm, started as soon as
 *   the lane's first item starts (not when it opens: every lane of a run opens at its start, and
 *   spares for all of them at once would hold the memory of lanes that run much later); no more
 *   are started than the lane's items can use, because on a CPU-bound run a spare nobody claims
 *   is a whole process start taken from the run.
 * - Idle workers give their memory back: with the run's {@link WorkerBudget}, the workers alive
 *   outside the spares never outnumber the items in flight (the longest-idle one, of any pool, is
 *   stopped to make room); lanes open adapter by adapter (session.ts), so a pool's workers roll
 *   from one of its lanes to the next, and the pool closes after its last lane, early in the run.
 * - With `seats` > 1, a worker carries that many items at once on a non-durable arena, one per seat
 *   (seat.ts: each its own runner and gateway identity), filling a busy worker before an idle one or
 *   a new one. A durable item takes a worker alone, so its pause kills nothing else.
 */
import path from "node:path";
import type { AdapterConfig, ArenaSpec } from "../../contract/protocol.ts";
import type { BuildOutcome, WorkerSpec } from "./worker-outcomes.ts";
import { WorkerProcess } from "./worker-process.ts";
import { WorkerFailure, isFailure } from "./failure.ts";
import { Seat, Seating, seatName } from "./seat.ts";
import type { BudgetMember, WorkerBudget } from "./worker-budget.ts";

export interface PoolSpec extends Omit<WorkerSpec, "logFile" | "id"> {
  readonly logDir: string;
  /** File-name-safe label of the adapter, e.g. `vanilla`. */
  readonly label: string;
  /** Shared by every pool of a run: caps the workers alive outside the spares (worker-budget.ts). Absent: idle workers live until `close`. */
  readonly budget?: WorkerBudget;
  /** Items one worker carries at once on a non-durable arena (seat.ts); default 1. Durable arenas: always 1. */
  readonly seats?: number;
}

/** One arena this pool's workers serve. */
export interface ArenaLane {
  readonly arena: ArenaSpec;
  readonly config: Omit<AdapterConfig, "baseUrl">;
  /** Base URL for a worker on this arena, given its tag (the harness tags each worker's traffic). */
  readonly baseUrlFor: (tag: string) => string;
  /** How many built spares to keep ready for durable resumes at once (0 = none). */
  readonly warmSpares: number;
  /** How many spares to start over the lane's life at most (one per item run it will pause). */
  readonly spareBudget: number;
}

/** The first build of an arena: built, refused by the adapter (`ok: false`), or the worker failed. */
export type OpenOutcome = BuildOutcome | WorkerFailure;

export class WorkerPool {
  readonly spec: PoolSpec;
  private readonly lanes = new Map<string, ArenaLane>();
  private idle: WorkerProcess[] = [];
  private readonly all = new Set<WorkerProcess>();
  private spawned = 0;
  private readonly spares = new Map<string, Promise<WorkerProcess | undefined>[]>();
  private readonly sparesStarted = new Map<string, number>();
  private closed = false;
  private readonly members = new Map<WorkerProcess, BudgetMember>();
  private readonly seating = new Seating();
  /** Workers starting for a non-durable item, with how many items already wait for a seat on each. */
  private starting: { readonly seat: Promise<Seat | WorkerFailure>; claimed: number }[] = [];

  private readonly perWorker: number;

  constructor(spec: PoolSpec) {
    this.spec = spec;
    this.perWorker = Math.max(1, spec.seats ?? 1);
  }

  /** Items a worker carries at once on `arena`: 1 on a durable arena (its pause kills the process). */
  seatsOn(arena: ArenaSpec): number {
    return arena.durable ? 1 : this.perWorker;
  }

  /** Serve a new arena: its first build decides whether this adapter is available on it. */
  async open(lane: ArenaLane): Promise<OpenOutcome> {
    this.lanes.set(lane.arena.id, lane);
    const index = this.idle.findIndex((w) => w.alive);
    const taken = index !== -1 ? this.takeIdle(index, 0, true) : await this.spawn(true);
    if (isFailure(taken)) return taken;
    const build = await this.buildOn(taken, lane);
    if (isFailure(build)) {
      await this.discard(taken);
      return build;
    }
    this.release(taken);
    return build;
  }

  /**
   * A seat built for `arena`: beside the items of a worker already busy on a non-durable arena,
   * else on an idle worker (preferring one already built for it), else on a new one. With
   * `notSeen` (a durable resume), only a worker that never ran that item of that arena.
   */
  async acquire(arena: string, notSeen?: string): Promise<Seat | WorkerFailure> {
    const lane = this.lanes.get(arena);
    if (!lane) throw new Error(`pool for ${this.spec.label}: arena ${arena} was never opened`);
    // The lane's first item: its spares start now, beside it (see the policy above).
    if (!this.sparesStarted.has(arena)) this.refillSpares(lane);
    const limit = this.seatsOn(lane.arena);
    const alone = limit === 1;
    const usable = (w: WorkerProcess) => w.alive && (notSeen === undefined || !w.hasSeen(arena, notSeen));
    if (!alone) {
      // Fill a busy worker before waking an idle one: fewer processes at work, the rest can be stopped.
      const beside = this.seating.shared().filter(usable);
      const built = beside.find((w) => { const i = this.seating.freeSeat(w, limit, arena); return i !== undefined && w.isBuiltFor(arena, i); });
      const any = built ?? beside.find((w) => this.seating.freeSeat(w, limit, arena) !== undefined);
      if (any) return this.ready(this.seating.take(any, this.seating.freeSeat(any, limit, arena)!, false), lane);
    }
    const builtIdle = this.idle.findIndex((w) => usable(w) && w.isBuiltFor(arena));
    if (builtIdle !== -1) return this.takeIdle(builtIdle, 0, alone);
    const spares = this.spares.get(arena) ?? [];
    if (notSeen !== undefined && spares.length > 0) {
      // Claim a spare before awaiting it: two concurrent resumes must not both get the same one.
      const claimed = spares.shift()!;
      this.refillSpares(lane);
      const spare = await claimed;
      if (spare && usable(spare)) return this.budgeted(this.seating.take(spare, 0, alone));
      if (spare) this.release(this.seating.take(spare, 0, alone));
    }
    const anyIdle = this.idle.findIndex(usable);
    if (anyIdle !== -1) return this.ready(this.takeIdle(anyIdle, 0, alone), lane);
    // A worker still starting has seats to give: items arriving together share it rather than each start one.
    const starting = alone ? undefined : this.starting.find((s) => s.claimed < limit);
    if (starting) {
      starting.claimed += 1;
      const first = await starting.seat;
      if (isFailure(first)) return first;
      const free = first.alive ? this.seating.freeSeat(first.worker, limit, arena) : undefined;
      return free === undefined ? this.acquire(arena, notSeen) : this.ready(this.seating.take(first.worker, free, false), lane);
    }
    const seat = this.spawn(true, alone);
    const entry = { seat, claimed: 1 };
    if (!alone) this.starting.push(entry);
    try {
      return this.ready(await seat, lane);
    } finally {
      this.starting = this.starting.filter((s) => s !== entry);
    }
  }

  /** The item on `seat` is done: the seat is free, and the worker idle once all its seats are. */
  release(seat: Seat): void {
    const empty = this.seating.free(seat);
    if (this.closed || !seat.alive) return void this.discard(seat);
    if (!empty) return;
    this.idle.push(seat.worker);
    // Last: the budget may stop this very worker (or another pool's) to keep within the slots.
    if (this.spec.budget) this.spec.budget.idleNow(this.memberOf(seat.worker));
  }

  /** Ends `seat`'s worker (it failed): every other seat on it ends too, and their drivers are told why. */
  async discard(seat: Seat | WorkerProcess): Promise<void> {
    const worker = seat instanceof Seat ? seat.worker : seat;
    this.seating.forget(worker);
    this.idle = this.idle.filter((w) => w !== worker);
    this.all.delete(worker);
    this.leaveBudget(worker);
    await worker.kill();
  }

  /** How many worker processes this pool holds now (idle, busy and spares started). */
  size(): number {
    return this.all.size;
  }

  /** The durable restart: SIGKILL (no chance to flush), and wait until the process is gone (it carried this item alone). */
  async killForRestart(seat: Seat): Promise<void> {
    await this.discard(seat);
  }

  /**
   * An arena whose items are all done: its spares join the idle workers (for the adapter's next
   * lane, within the budget's slots). Stopping the idle ones here too would restart a process for
   * each of the adapter's lanes; the budget already stops them as soon as another adapter needs
   * the room, and the pool closes after the adapter's last lane.
   */
  async retire(arena: string): Promise<void> {
    const spares = this.spares.get(arena) ?? [];
    this.spares.delete(arena);
    for (const spare of await Promise.all(spares)) if (spare) this.release(this.seating.take(spare, 0, true));
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all([...this.spares.values()].flat());
    await Promise.all([...this.all].map((w) => this.stopWorker(w)));
    this.all.clear();
    this.idle = [];
  }

  /** An interrupted run: every worker's process group is killed now, nothing waits for a leg. */
  async killAll(): Promise<void> {
    this.closed = true;
    const workers = [...this.all];
    this.all.clear();
    this.idle = [];
    for (const w of workers) this.leaveBudget(w);
    await Promise.all(workers.map((w) => w.kill()));
  }

  private refillSpares(lane: ArenaLane): void {
    const spares = this.spares.get(lane.arena.id) ?? [];
    this.spares.set(lane.arena.id, spares);
    const started = () => this.sparesStarted.get(lane.arena.id) ?? 0;
    while (!this.closed && spares.length < lane.warmSpares && started() < lane.spareBudget) {
      this.sparesStarted.set(lane.arena.id, started() + 1);
      // A spare is built on its seat 0 outside the seating: it is taken (alone, a durable resume) when claimed.
      const spare = this.spawn(false).then((w) => (isFailure(w) ? w : this.ready(new Seat(w, 0), lane)));
      spares.push(spare.then((s) => (isFailure(s) ? undefined : s.worker)));
    }
  }

  /** `seat` built for the lane's arena, or why not (a worker that cannot serve it is let go). */
  private async ready(seat: Seat | WorkerFailure, lane: ArenaLane): Promise<Seat | WorkerFailure> {
    if (isFailure(seat) || seat.worker.isBuiltFor(lane.arena.id, seat.index)) return seat;
    const build = await this.buildOn(seat, lane);
    if (isFailure(build)) {
      await this.discard(seat);
      return build;
    }
    if (build.ok) return seat;
    this.release(seat);
    return new WorkerFailure("spawn_failed", `worker failed to build ${lane.arena.id}: ${build.reason}`);
  }

  /** The seat's own runner for the lane's arena, under its own tag (and so its own token). */
  private buildOn(seat: Seat, lane: ArenaLane): Promise<BuildOutcome | WorkerFailure> {
    const tag = `${this.spec.label}__${lane.arena.id}__${seatName(seat.worker.id, seat.index)}`;
    return seat.worker.build({ arena: lane.arena, config: { ...lane.config, baseUrl: lane.baseUrlFor(tag) }, tag, seat: seat.index });
  }

  /** An idle worker taken up for an item, on `index`. */
  private takeIdle(index: number, seat: number, alone: boolean): Seat {
    return this.budgeted(this.seating.take(this.idle.splice(index, 1)[0]!, seat, alone));
  }

  /** `seat`'s worker counted as busy in the budget (joining it on its first item). */
  private budgeted(seat: Seat): Seat {
    this.spec.budget?.busyWith(this.memberOf(seat.worker));
    return seat;
  }

  private memberOf(worker: WorkerProcess): BudgetMember {
    let member = this.members.get(worker);
    if (!member) {
      member = {
        seats: this.perWorker,
        evict: () => {
          this.idle = this.idle.filter((w) => w !== worker);
          void this.stopWorker(worker);
        },
      };
      this.members.set(worker, member);
    }
    return member;
  }

  private leaveBudget(worker: WorkerProcess): void {
    const member = this.members.get(worker);
    if (!member) return;
    this.members.delete(worker);
    this.spec.budget?.gone(member);
  }

  /** A graceful stop (the pool closing, or nothing left to wait for). */
  private async stopWorker(worker: WorkerProcess): Promise<void> {
    this.all.delete(worker);
    this.seating.forget(worker);
    this.leaveBudget(worker);
    await worker.stop();
  }

  /** A worker for an item or a build (on its seat 0, in the budget's slots), or a spare (neither, until claimed). */
  private spawn(forItem: true, alone?: boolean): Promise<Seat | WorkerFailure>;
  private spawn(forItem: false): Promise<WorkerProcess | WorkerFailure>;
  private async spawn(forItem: boolean, alone = true): Promise<Seat | WorkerProcess | WorkerFailure> {
    if (forItem) this.spec.budget?.beforeStart(this.perWorker);
    const id = `w${this.spawned++}`;
    const { logDir, label, ...spec } = this.spec;
    const started = await WorkerProcess.start({ ...spec, id, logFile: path.join(logDir, `${label}__${id}.log`) });
    this.all.add(started.worker);
    if (this.closed && !started.failure) {
      // Started while the pool was being killed (a spare): it must not outlive the run.
      await this.discard(started.worker);
      return new WorkerFailure("spawn_failed", "the pool was closed");
    }
    if (!started.failure) return forItem ? this.budgeted(this.seating.take(started.worker, 0, alone)) : started.worker;
    await this.discard(started.worker);
    return started.failure;
  }
}
