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
 */
import path from "node:path";
import type { AdapterConfig, ArenaSpec } from "../../contract/protocol.ts";
import type { BuildOutcome, WorkerSpec } from "./worker-outcomes.ts";
import { WorkerProcess } from "./worker-process.ts";
import { WorkerFailure, isFailure } from "./failure.ts";
import type { BudgetMember, WorkerBudget } from "./worker-budget.ts";

export interface PoolSpec extends Omit<WorkerSpec, "logFile" | "id"> {
  readonly logDir: string;
  /** File-name-safe label of the adapter, e.g. `vanilla`. */
  readonly label: string;
  /** Shared by every pool of a run: caps the workers alive outside the spares (worker-budget.ts). Absent: idle workers live until `close`. */
  readonly budget?: WorkerBudget;
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

  constructor(spec: PoolSpec) {
    this.spec = spec;
  }

  /** Serve a new arena: its first build decides whether this adapter is available on it. */
  async open(lane: ArenaLane): Promise<OpenOutcome> {
    this.lanes.set(lane.arena.id, lane);
    const index = this.idle.findIndex((w) => w.alive);
    const taken = index !== -1 ? this.takeIdle(index) : await this.spawn(true);
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
   * A worker built for `arena`, preferring an idle one already built for it. With `notSeen`, only
   * one that never ran that item of that arena.
   */
  async acquire(arena: string, notSeen?: string): Promise<WorkerProcess | WorkerFailure> {
    const lane = this.lanes.get(arena);
    if (!lane) throw new Error(`pool for ${this.spec.label}: arena ${arena} was never opened`);
    // The lane's first item: its spares start now, beside it (see the policy above).
    if (!this.sparesStarted.has(arena)) this.refillSpares(lane);
    const usable = (w: WorkerProcess) => w.alive && (notSeen === undefined || !w.hasSeen(arena, notSeen));
    const builtIdle = this.idle.findIndex((w) => usable(w) && w.isBuiltFor(arena));
    if (builtIdle !== -1) return this.takeIdle(builtIdle);
    const spares = this.spares.get(arena) ?? [];
    if (notSeen !== undefined && spares.length > 0) {
      // Claim a spare before awaiting it: two concurrent resumes must not both get the same one.
      const claimed = spares.shift()!;
      this.refillSpares(lane);
      const spare = await claimed;
      if (spare && usable(spare)) {
        this.budgeted(spare);
        return spare;
      }
      if (spare) this.release(spare);
    }
    const anyIdle = this.idle.findIndex(usable);
    return this.ready(anyIdle !== -1 ? this.takeIdle(anyIdle) : await this.spawn(true), lane);
  }

  release(worker: WorkerProcess): void {
    if (this.closed || !worker.alive) {
      void this.discard(worker);
      return;
    }
    this.idle.push(worker);
    // Last: the budget may stop this very worker (or another pool's) to keep within the slots.
    if (this.spec.budget) this.spec.budget.idleNow(this.memberOf(worker));
  }

  async discard(worker: WorkerProcess): Promise<void> {
    this.idle = this.idle.filter((w) => w !== worker);
    this.all.delete(worker);
    this.leaveBudget(worker);
    await worker.kill();
  }

  /** How many worker processes this pool holds now (idle, busy and spares started). */
  size(): number {
    return this.all.size;
  }

  /** The durable restart: SIGKILL (no chance to flush), and wait until the process is gone. */
  async killForRestart(worker: WorkerProcess): Promise<void> {
    await this.discard(worker);
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
    for (const spare of await Promise.all(spares)) if (spare) this.release(spare);
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
      spares.push(this.spawn(false).then((w) => this.ready(w, lane)).then((w) => (isFailure(w) ? undefined : w)));
    }
  }

  /** `worker` built for the lane's arena, or why not (a worker that cannot serve it is let go). */
  private async ready(worker: WorkerProcess | WorkerFailure, lane: ArenaLane): Promise<WorkerProcess | WorkerFailure> {
    if (isFailure(worker) || worker.isBuiltFor(lane.arena.id)) return worker;
    const build = await this.buildOn(worker, lane);
    if (isFailure(build)) {
      await this.discard(worker);
      return build;
    }
    if (build.ok) return worker;
    this.release(worker);
    return new WorkerFailure("spawn_failed", `worker failed to build ${lane.arena.id}: ${build.reason}`);
  }

  private buildOn(worker: WorkerProcess, lane: ArenaLane): Promise<BuildOutcome | WorkerFailure> {
    const tag = `${this.spec.label}__${lane.arena.id}__${worker.id}`;
    return worker.build({ arena: lane.arena, config: { ...lane.config, baseUrl: lane.baseUrlFor(tag) }, tag });
  }

  /** An idle worker taken up for an item. */
  private takeIdle(index: number): WorkerProcess {
    return this.budgeted(this.idle.splice(index, 1)[0]!);
  }

  /** `worker` counted as busy in the budget (joining it on its first item). */
  private budgeted(worker: WorkerProcess): WorkerProcess {
    this.spec.budget?.busyWith(this.memberOf(worker));
    return worker;
  }

  private memberOf(worker: WorkerProcess): BudgetMember {
    let member = this.members.get(worker);
    if (!member) {
      member = {
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
    this.leaveBudget(worker);
    await worker.stop();
  }

  /** `forItem`: a worker for an item or a build, held in the budget's slots; else a spare. */
  private async spawn(forItem: boolean): Promise<WorkerProcess | WorkerFailure> {
    if (forItem) this.spec.budget?.beforeStart();
    const id = `w${this.spawned++}`;
    const { logDir, label, ...spec } = this.spec;
    const started = await WorkerProcess.start({ ...spec, id, logFile: path.join(logDir, `${label}__${id}.log`) });
    this.all.add(started.worker);
    if (this.closed && !started.failure) {
      // Started while the pool was being killed (a spare): it must not outlive the run.
      await this.discard(started.worker);
      return new WorkerFailure("spawn_failed", "the pool was closed");
    }
    if (!started.failure) return forItem ? this.budgeted(started.worker) : started.worker;
    await this.discard(started.worker);
    return started.failure;
  }
}
