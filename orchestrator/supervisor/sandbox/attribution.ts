/**
 * Which of the changes a watched worker's window saw are the worker's: the rule that keeps an
 * honest worker from being blamed for someone else's file. Pure: the changes and the evidence in,
 * one verdict per change out, so the rule is unit-tested without processes.
 *
 * A snapshot diff (watch.ts) knows that an entry changed while the worker lived, not who changed
 * it. So each change is judged on evidence, in this order:
 *
 * 1. `claimed`: inside a folder another live worker of this orchestrator may write (its checkpoint
 *    folder, its private temp dir): that worker's, not this one's.
 * 2. `ours`: the orchestrator itself holds it open — its stdout/stderr redirected to a file, its
 *    logs. Never a worker's, even when a worker holds it too (it inherited nothing of ours: its
 *    stdio are pipes, so it would have had to open the user's own log to write into it).
 * 3. The worker's tree was seen holding it (or a file inside it) open for writing (tree.ts): charged.
 * 4. A shared area (the temp dir, /var/tmp, /dev/shm, HOME): everyone on the machine writes
 *    there — other runs' `arena-bridge-*`, test suites, editors, shells — and nothing says it was
 *    the worker: not charged (`unattributed`). The worker's write-and-close there goes unseen;
 *    that is the price of never charging an honest run for another process's file.
 * 5. An owned area (the repository, the run's checkpoint root): only the harness and its workers
 *    write there, so a change is charged unless a live process outside the worker's tree holds it
 *    open for writing (`foreign-writer`: a log someone keeps appending to).
 */
import path from "node:path";
import type { Change } from "./watch.ts";

export type Excuse = "claimed" | "ours" | "unattributed" | "foreign-writer";

export type Verdict =
  | { readonly change: Change; readonly charged: true; /** The tree's process seen holding it. */ readonly pid?: number }
  | { readonly change: Change; readonly charged: false; readonly excuse: Excuse; /** The foreign writer. */ readonly pid?: number };

export interface Evidence {
  readonly claimed: (p: string) => boolean;
  /** Of `paths`, those the orchestrator holds open (open-files.ts heldByUs). */
  readonly ours: (paths: readonly string[]) => ReadonlySet<string>;
  /** The tree's process that held `p` open for writing (tree.ts), if one was seen. */
  readonly tree: (p: string) => number | undefined;
  /** Of `paths`, those a process outside the tree holds open for writing, with its pid (asked last: costly). */
  readonly others: (paths: readonly string[]) => ReadonlyMap<string, number>;
}

export function attribute(changes: readonly Change[], ev: Evidence): Verdict[] {
  const verdicts = new Map<Change, Verdict>();
  const open = changes.filter((c) => {
    if (!ev.claimed(c.path)) return true;
    verdicts.set(c, { change: c, charged: false, excuse: "claimed" });
    return false;
  });
  const ours = ev.ours(open.map((c) => c.path));
  const owned: Change[] = [];
  for (const c of open) {
    const pid = ours.has(c.path) ? undefined : ev.tree(c.path);
    if (ours.has(c.path)) verdicts.set(c, { change: c, charged: false, excuse: "ours" });
    else if (pid !== undefined) verdicts.set(c, { change: c, charged: true, pid });
    else if (c.area.shared) verdicts.set(c, { change: c, charged: false, excuse: "unattributed" });
    else owned.push(c);
  }
  const others = owned.length > 0 ? ev.others(owned.map((c) => c.path)) : new Map<string, number>();
  for (const c of owned) {
    const pid = others.get(c.path);
    verdicts.set(c, pid === undefined ? { change: c, charged: true } : { change: c, charged: false, excuse: "foreign-writer", pid });
  }
  return changes.map((c) => verdicts.get(c)!);
}

/**
 * A charged change as the lane's violation text: `<what> <relative> in <area> (<absolute>)`, the
 * shape probes/judges/writes.ts reads (the absolute path last, in parentheses).
 */
export function describeWrite(v: Verdict & { charged: true }): string {
  const { area, path: p, what } = v.change;
  const by = v.pid === undefined ? "" : `, open for writing by pid ${v.pid} of the worker's tree`;
  return `${what} ${path.relative(area.root, p) || p} in ${area.label}${by} (${p})`;
}

/** The violation texts of the charged verdicts, sorted. */
export function charged(verdicts: readonly Verdict[]): string[] {
  return verdicts.flatMap((v) => (v.charged ? [describeWrite(v)] : [])).sort();
}
