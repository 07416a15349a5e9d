/**
 * How many workers of a run may be alive outside the durable spares: one per item in flight. The
 * run's queue has `slots` places and every item (and every arena's first build) holds one while it
 * runs, so `slots` workers are all the run can use at once. A worker that finishes its item waits
 * idle for the next item of its adapter; but when another adapter needs a process and the slots
 * are all taken by workers, the idle worker that has waited longest is stopped first. Without
 * this, every adapter's pool kept its idle workers until its last arena, and a bench of 33
 * adapters had to budget memory for 33 pools at once (docs/performance.md, "A run as wide as the
 * machine").
 *
 * A worker that carries several items at once (seats, supervisor/seat.ts) is charged as many slots
 * as it has seats (at most all of them): at 64 in flight with 8 seats a worker, 8 such workers fill
 * the slots, and an idle one is stopped before a ninth starts, as an idle one-item worker is before
 * a 65th. So the workers alive stay at one per `seats` items in flight where every item can share.
 *
 * The budget is shared by every pool of a run and knows nothing of processes: a member is anything
 * that can be stopped, so the policy is tested on its own.
 */

/** What the budget needs of a worker: a way to let its process go. */
export interface BudgetMember {
  /** Ends the worker's process; the budget does not wait for it to exit. */
  evict(): void;
  /** Items it carries at once (its seats); default 1. It is charged that many slots, at most all. */
  readonly seats?: number;
}

export interface WorkerBudgetOptions {
  /** Workers that may be alive outside the spares: the items in flight (≥ 1). */
  readonly slots: number;
  /** Told after every change of the counts (tests watch the worker count over time). */
  readonly onChange?: (counts: BudgetCounts) => void;
}

export interface BudgetCounts {
  /** Workers, not slots. */
  readonly busy: number;
  readonly idle: number;
}

export class WorkerBudget {
  readonly slots: number;
  private readonly busy = new Set<BudgetMember>();
  /** Idle members, longest waiting first (a Map keeps insertion order). */
  private readonly idle = new Map<BudgetMember, true>();
  private readonly onChange: ((counts: BudgetCounts) => void) | undefined;

  constructor(options: WorkerBudgetOptions) {
    if (!Number.isSafeInteger(options.slots) || options.slots < 1) throw new RangeError(`worker budget: slots must be a whole number ≥ 1, got ${options.slots}`);
    this.slots = options.slots;
    this.onChange = options.onChange;
  }

  counts(): BudgetCounts {
    return { busy: this.busy.size, idle: this.idle.size };
  }

  /**
   * A new worker is about to start for an item (not a spare): make room for it first, by stopping
   * the longest-idle workers until the ones left and the new one fit in the slots.
   */
  beforeStart(seats = 1): void {
    this.evictDownTo(this.slots - this.charge(seats));
  }

  /** `member` now runs an item (a new worker, an idle one taken up again, or a spare claimed). */
  busyWith(member: BudgetMember): void {
    this.idle.delete(member);
    this.busy.add(member);
    this.changed();
  }

  /** `member` finished and waits for the next item: kept only while it fits in the slots. */
  idleNow(member: BudgetMember): void {
    this.busy.delete(member);
    this.idle.delete(member);
    this.idle.set(member, true);
    this.evictDownTo(this.slots);
  }

  /** `member` is gone (discarded, killed for a restart, or stopped with its pool). */
  gone(member: BudgetMember): void {
    if (this.busy.delete(member) || this.idle.delete(member)) this.changed();
  }

  /** Slots a worker of `seats` seats takes. */
  private charge(seats = 1): number {
    return Math.min(this.slots, Math.max(1, seats));
  }

  private taken(): number {
    let n = 0;
    for (const m of this.busy) n += this.charge(m.seats);
    for (const m of this.idle.keys()) n += this.charge(m.seats);
    return n;
  }

  private evictDownTo(limit: number): void {
    for (const member of this.idle.keys()) {
      if (this.taken() <= limit) break;
      this.idle.delete(member);
      member.evict();
    }
    this.changed();
  }

  private changed(): void {
    this.onChange?.(this.counts());
  }
}
