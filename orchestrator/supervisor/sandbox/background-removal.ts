/**
 * Folders a dead worker leaves, removed off the event loop. A sealed worker's layers, slot and
 * bridge sockets were all mount points in its sandbox, and removing them right after it exits
 * waits in the kernel while those mounts go away: done with `rmSync` on the orchestrator's loop,
 * each exit held the loop, and with it the gateway and the legs of every other item in flight and
 * their clocked latencies, for milliseconds to tens of milliseconds (scripts/loop-stall.ts;
 * docs/performance.md, "Dead workers' folders removed off the loop"). `fs.promises.rm` runs it on
 * libuv's thread pool instead.
 *
 * The removals are kept until they settle, so a run can wait for them before it ends
 * ({@link backgroundRemovalsSettled}); a removal that fails leaves a temp folder behind, which is
 * what a failed `rmSync` did (removing is best effort everywhere in the sandbox).
 */
import { rm } from "node:fs/promises";

const pending = new Set<Promise<void>>();

/** Remove each folder in turn, recursively, off the loop; then run `after` (also best effort). */
export function removeInBackground(dirs: readonly string[], after?: () => void): void {
  const removal = (async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true }).catch(() => undefined);
    try {
      after?.();
    } catch {
      // Best effort, like the removals themselves.
    }
  })();
  pending.add(removal);
  void removal.finally(() => pending.delete(removal));
}

/** Resolves once every removal started so far (and any started while waiting) has settled. */
export async function backgroundRemovalsSettled(): Promise<void> {
  while (pending.size > 0) await Promise.all([...pending]);
}

