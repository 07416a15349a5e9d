/**
 * Watched mode's write detection: where no sandbox is available, the places a worker must not
 * write are snapshotted when it starts and again when it exits, and every file created or
 * modified in between is recorded as a violation.
 *
 * Granularity is the worker's life, not the leg: a snapshot of the repository costs a few
 * milliseconds (a tree walk with stats), cheap once per worker start but not per leg. Areas:
 *
 * - the repository tree (deep; harness outputs and tooling excluded),
 * - the run's checkpoint root (deep), except the adapter's own folder — another adapter's
 *   folder is where a poisoned store would do harm,
 * - the temp root, /var/tmp, /dev/shm and HOME (top level only: they are big and busy).
 *
 * It is detection, not prevention, and it cannot see who wrote: a write there by anyone during
 * the window is reported. Two exceptions keep concurrent workers from blaming each other: the
 * folders a live worker may legitimately write (its own checkpoint folder, its private temp dir)
 * are skipped, including other adapters' folders while one of their workers was live.
 */
import { readdirSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { within } from "./bwrap.ts";

export interface Area {
  readonly label: string;
  readonly root: string;
  readonly deep: boolean;
  /** Absolute paths whose subtree is not looked at. */
  readonly skip: readonly string[];
}

/** path → `mtimeMs:size` for files, `dir` for directories (a shallow area lists both). */
export type Snapshot = ReadonlyMap<string, string>;

/** Top-level names in the repository that hold outputs or tooling, not sources. */
const REPO_SKIP = [".git", "node_modules", "runs", "results", "checkpoints"];

export function watchedAreas(repo: string, checkpointDir: string, home: string | undefined, skip: readonly string[]): Area[] {
  const tmp = path.resolve(os.tmpdir());
  const areas: Area[] = [
    { label: "the repository", root: repo, deep: true, skip: [...REPO_SKIP.map((n) => path.join(repo, n)), ...skip] },
    { label: "the checkpoint root", root: path.dirname(checkpointDir), deep: true, skip: [checkpointDir, ...skip] },
  ];
  for (const [label, root] of [["the temp dir", tmp], ["/var/tmp", "/var/tmp"], ["/dev/shm", "/dev/shm"], ["HOME", home]] as const) {
    if (!root || areas.some((a) => a.root === path.resolve(root))) continue;
    areas.push({ label, root: path.resolve(root), deep: false, skip });
  }
  return areas;
}

export function snapshot(area: Area): Snapshot {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const full = path.join(dir, name);
      if (area.skip.some((s) => within(full, s))) continue;
      const st = statSync(full, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) {
        if (area.deep) walk(full);
        else out.set(full, "dir");
      } else out.set(full, `${st.mtimeMs}:${st.size}`);
    }
  };
  walk(area.root);
  return out;
}

/** Created or modified entries, as violation sentences; `excused` paths are left out. */
export function writesBetween(area: Area, before: Snapshot, after: Snapshot, excused: (p: string) => boolean): string[] {
  const found: string[] = [];
  for (const [p, stamp] of after) {
    const was = before.get(p);
    if (was === stamp || excused(p)) continue;
    const what = was === undefined ? "created" : "modified";
    found.push(`${what} ${path.relative(area.root, p) || p} in ${area.label} (${p})`);
  }
  return found.sort();
}

/**
 * Who may write where, over time: while any worker with a writable folder is live (or has been
 * during a window), writes there are not another worker's violation. Shared by every watched
 * worker of this process.
 */
export class WriteLedger {
  private readonly live = new Map<string, number>();
  private readonly lastEnd = new Map<string, number>();

  enter(dirs: readonly string[]): void {
    for (const d of dirs) this.live.set(d, (this.live.get(d) ?? 0) + 1);
  }

  leave(dirs: readonly string[], at: number): void {
    for (const d of dirs) {
      this.live.set(d, (this.live.get(d) ?? 1) - 1);
      this.lastEnd.set(d, at);
    }
  }

  /** `p` is in a folder some worker (other than `own`) could write at some point since `since`. */
  claimed(p: string, since: number, own: readonly string[]): boolean {
    for (const [d, n] of this.live) {
      if (own.includes(d)) continue;
      if (within(p, d) && (n > 0 || (this.lastEnd.get(d) ?? -Infinity) >= since)) return true;
    }
    return false;
  }
}
