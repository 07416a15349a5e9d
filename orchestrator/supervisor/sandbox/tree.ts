/**
 * A watched worker's process tree, recorded while it lives: which processes were in it, and which
 * files in the watched areas they held open for writing. It is the positive evidence watched mode
 * has of what the worker's own tree wrote (attribution.ts): a snapshot diff says *that* something
 * changed, never *who* changed it, and in the shared areas (the temp dir, /var/tmp, /dev/shm,
 * HOME) everyone else on the machine writes too.
 *
 * Why sampling, and its limit: without privileges Linux offers no record of who wrote a file
 * (inotify reports no pid; fanotify with pids and the audit log need CAP_SYS_ADMIN), so the tree
 * is looked at every SAMPLE_MS from the worker's pid down (`/proc/<pid>/task/<pid>/children`),
 * plus once more at exit for each survivor before it is killed (survivors.ts). A file opened,
 * written and closed between two looks leaves no evidence. On macOS (no /proc) nothing is
 * sampled: survivors are still found by `ps`, but no open file is.
 *
 * Cost: one look reads a few small /proc files per process of the tree and one link per open fd
 * (a worker is usually one Node process with ~25 fds): about 0.4 ms here, so 27 live workers
 * sampled twice a second cost ~2% of a core. Faster sampling would catch shorter holds for more;
 * a store kept open for a lane (a sqlite file) is held for seconds. The timer is unref'd and
 * stops at exit.
 */
import { childrenOf, gone, HAS_PROC, procStat, writeHeld } from "./proc.ts";

/** How often a live worker's tree is looked at. */
export const SAMPLE_MS = 500;

export class TreeWatch {
  /** pid → start time: a pid reused later by an unrelated process is not a member. */
  private readonly members = new Map<number, number>();
  /** Path held open for writing by a member → the first member seen holding it. */
  private readonly held = new Map<string, number>();
  private readonly wanted: (p: string) => boolean;

  /** `wanted`: the paths worth recording (inside a watched area, outside the worker's folders). */
  constructor(wanted: (p: string) => boolean) {
    this.wanted = wanted;
  }

  /** Look at `pid` and everything under it once. */
  sample(pid: number): void {
    if (!HAS_PROC) return;
    const queue = [pid];
    const visited = new Set<number>();
    while (queue.length > 0) {
      const p = queue.shift()!;
      if (visited.has(p)) continue;
      visited.add(p);
      this.note(p);
      queue.push(...childrenOf(p));
    }
  }

  /** Record one process as a member of the tree, with what it holds open for writing now. */
  note(pid: number): void {
    if (!HAS_PROC) return;
    const stat = procStat(pid);
    if (gone(stat)) return;
    this.members.set(pid, stat!.start);
    for (const f of writeHeld(pid, this.wanted)) if (!this.held.has(f)) this.held.set(f, pid);
  }

  /** Sample `pid`'s tree every SAMPLE_MS until the returned stop is called. */
  follow(pid: number): () => void {
    if (!HAS_PROC) return () => {};
    const timer = setInterval(() => {
      try {
        this.sample(pid);
      } catch {
        // A race with the process table is not the orchestrator's failure; the next look retries.
      }
    }, SAMPLE_MS);
    timer.unref();
    return () => clearInterval(timer);
  }

  /** Whether `pid` (still alive, so its start time can be compared) was seen in the tree. */
  includes(pid: number): boolean {
    const start = this.members.get(pid);
    return start !== undefined && procStat(pid)?.start === start;
  }

  /** The member that held `entry`, or a file inside it, open for writing; undefined if none. */
  holderOf(entry: string): number | undefined {
    const exact = this.held.get(entry);
    if (exact !== undefined) return exact;
    const prefix = entry.endsWith("/") ? entry : `${entry}/`;
    for (const [p, pid] of this.held) if (p.startsWith(prefix)) return pid;
    return undefined;
  }
}
