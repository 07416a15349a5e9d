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
 * The budget is shared by every pool of a run and knows nothing of processes: a member is anything
 * that can be stopped, so the policy is tested on its own.
 */

/** What the budget needs of a worker: a way to let its process go. */
export interface BudgetMember {
  /** Ends the worker's process; the budget does not wait for it to exit. */
  evict(): void;
}

export interface WorkerBudgetOptions {
  /** Workers that may be alive outside the spares: the items in flight (≥ 1). */
  readonly slots: number;
  /** Told after every change of the counts (tests watch the worker count over time). */
  readonly onChange?: (counts: BudgetCounts) => void;
}

export interface BudgetCounts {
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
  beforeStart(): void {
    this.evictDownTo(this.slots - 1);
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

  private evictDownTo(limit: number): void {
    for (const member of this.idle.keys()) {
      if (this.busy.size + this.idle.size <= limit) break;
      this.idle.delete(member);
      member.evict();
    }
    this.changed();
  }

  private changed(): void {
    this.onChange?.(this.counts());
  }
}
