/**
 * One watched worker, from its start to its exit: the areas snapshotted before it starts, its
 * process tree followed while it lives (tree.ts), and at exit its survivors reaped
 * (survivors.ts) and the changes of its window judged (attribution.ts). What comes out is the
 * lane's violation texts; everything else a check learns stays here.
 */
import { heldByOthers, heldByUs } from "./open-files.ts";
import { attribute, charged, type Verdict } from "./attribution.ts";
import { carries } from "./proc.ts";
import { reapSurvivors, TOKEN_VAR } from "./survivors.ts";
import { TreeWatch } from "./tree.ts";
import { changesBetween, snapshot, watchedAreas, watches, type Area, type Snapshot, type WriteLedger } from "./watch.ts";

export interface WorkerWatchPlan {
  readonly repo: string;
  readonly checkpointDir: string;
  readonly home: string | undefined;
  /** Folders no area looks into (the worker's own, every worker's private temp root, caches). */
  readonly skip: readonly string[];
  /** The folders this worker may write (for the ledger). */
  readonly writable: readonly string[];
  /** The worker's `ARENA_WORKER_TOKEN`. */
  readonly token: string;
  readonly ledger: WriteLedger;
}

/** What one check found: the violation texts, and every verdict (for tests and diagnosis). */
export interface CheckResult {
  readonly violations: string[];
  readonly verdicts: readonly Verdict[];
}

export class WorkerWatch {
  private readonly plan: WorkerWatchPlan;
  private readonly areas: Area[];
  private readonly before: Snapshot[];
  private readonly since: number;
  private readonly tree: TreeWatch;
  private unfollow: () => void = () => {};

  /** Snapshots the areas now: call it before the worker starts. */
  constructor(plan: WorkerWatchPlan) {
    this.plan = plan;
    this.areas = watchedAreas(plan.repo, plan.checkpointDir, plan.home, plan.skip);
    this.before = this.areas.map(snapshot);
    this.since = Date.now();
    this.tree = new TreeWatch((p) => watches(this.areas, p));
    plan.ledger.enter(plan.writable);
  }

  /** The worker started as `pid`: follow its tree until the check. */
  follow(pid: number | undefined): void {
    if (pid !== undefined) this.unfollow = this.tree.follow(pid);
  }

  /** The worker exited (its process group was `pgid`): reap, diff, judge. Throws only on a bug. */
  check(pgid: number | undefined): CheckResult {
    this.unfollow();
    const marker = `${TOKEN_VAR}=${this.plan.token}`;
    try {
      // Survivors first: what they hold open is read before they are killed.
      const survivors = reapSurvivors(this.plan.token, pgid, (h) => this.tree.note(h.pid));
      const changes = this.areas.flatMap((a, i) => changesBetween(a, this.before[i]!, snapshot(a)));
      const verdicts = attribute(changes, {
        claimed: (p) => this.plan.ledger.claimed(p, this.since, this.plan.writable),
        ours: heldByUs,
        tree: (p) => this.tree.holderOf(p),
        others: (paths) => heldByOthers(paths, (pid) => this.tree.includes(pid) || carries(pid, marker)),
      });
      return { violations: [...survivors, ...charged(verdicts)], verdicts };
    } finally {
      this.plan.ledger.leave(this.plan.writable, Date.now());
    }
  }
}
