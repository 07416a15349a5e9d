/**
 * Watched mode's write detection: where no sandbox is available, the places a worker must not
 * write are snapshotted when it starts and again when it exits, and every entry created or
 * modified in between is a change. Which changes are the worker's is attribution.ts's business:
 * a diff cannot see who wrote.
 *
 * Granularity is the worker's life, not the leg: a snapshot of the repository costs a few
 * milliseconds (a tree walk with lstats), cheap once per worker start but not per leg. Areas:
 *
 * - owned (only the harness and its workers write there): the repository tree (deep; harness
 *   outputs and tooling excluded, also when ARENA_OUTPUT_ROOT puts them inside it), and the run's
 *   checkpoint root (deep), except the adapter's own folder — another adapter's folder is where a
 *   poisoned store would do harm;
 * - shared (the whole machine writes there): the temp root, /var/tmp, /dev/shm and HOME, top
 *   level only (they are big and busy).
 *
 * Symbolic links are entries, never followed: `runs/latest` is not walked twice, and a link to
 * `/` does not turn the repository walk into a walk of the machine.
 */
import { lstatSync, readdirSync, type Dirent } from "node:fs";
import os from "node:os";
import path from "node:path";
import { within } from "./bwrap.ts";

export interface Area {
  readonly label: string;
  readonly root: string;
  readonly deep: boolean;
  /** Written by other processes of the machine too: a change there needs evidence (attribution.ts). */
  readonly shared: boolean;
  /** Absolute paths whose subtree is not looked at. */
  readonly skip: readonly string[];
}

/** path → `mtimeMs:size` for files and links, `dir` for directories (a shallow area lists both). */
export type Snapshot = ReadonlyMap<string, string>;

/** An entry created or modified between two snapshots of an area. */
export interface Change {
  readonly area: Area;
  readonly path: string;
  readonly what: "created" | "modified";
}

/**
 * Top-level names in the repository that hold outputs or tooling, not sources. The installed
 * packages of both hosts (`node_modules`, `.venv`) alike: a sealed worker sees both read-only, and
 * walking `.venv` (~20,000 entries) at every worker's start and exit was most of a watched run's
 * CPU (docs/performance.md, "Watched mode walked the Python environment").
 */
const REPO_SKIP = [".git", "node_modules", ".venv", "runs", "results", "checkpoints"];

/**
 * The output roots beside a checkpoint folder laid out as store/layout.ts lays it out
 * (`<base>/checkpoints/<run>/s<n>/<adapter>`): `<base>/runs`, `<base>/checkpoints`,
 * `<base>/results`. The orchestrator writes its journal and logs there while workers live; when
 * ARENA_OUTPUT_ROOT puts them inside the repository, they are not the workers' writes.
 */
export function outputRootsOf(checkpointDir: string): string[] {
  const run = path.dirname(path.dirname(checkpointDir));
  const checkpoints = path.dirname(run);
  if (path.basename(checkpoints) !== "checkpoints" || !/^s\d+$/.test(path.basename(path.dirname(checkpointDir)))) return [];
  const base = path.dirname(checkpoints);
  return ["runs", "checkpoints", "results"].map((n) => path.join(base, n));
}

export function watchedAreas(repo: string, checkpointDir: string, home: string | undefined, skip: readonly string[]): Area[] {
  const tmp = path.resolve(os.tmpdir());
  const outputs = outputRootsOf(checkpointDir).filter((o) => within(o, repo));
  const areas: Area[] = [
    { label: "the repository", root: repo, deep: true, shared: false, skip: [...REPO_SKIP.map((n) => path.join(repo, n)), ...outputs, ...skip] },
    { label: "the checkpoint root", root: path.dirname(checkpointDir), deep: true, shared: false, skip: [checkpointDir, ...skip] },
  ];
  for (const [label, root] of [["the temp dir", tmp], ["/var/tmp", "/var/tmp"], ["/dev/shm", "/dev/shm"], ["HOME", home]] as const) {
    if (!root || areas.some((a) => a.root === path.resolve(root))) continue;
    areas.push({ label, root: path.resolve(root), deep: false, shared: true, skip });
  }
  return areas;
}

/** Whether `p` is inside one of the areas and none of its skipped folders. */
export function watches(areas: readonly Area[], p: string): boolean {
  return areas.some((a) => within(p, a.root) && p !== a.root && !a.skip.some((s) => within(p, s)));
}

export function snapshot(area: Area): Snapshot {
  const out = new Map<string, string>();
  const walk = (dir: string) => {
    let entries: Dirent[];
    try {
      // With their types: a folder needs no lstat (it is walked, or noted as "dir"), only a file
      // or link does, for its stamp. A busy temp dir is mostly folders (15,000 here).
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const full = path.join(dir, entry.name);
      if (area.skip.some((s) => within(full, s))) continue;
      // A folder by the listing needs no lstat; anything else does, for its stamp (it may also
      // have become a folder since the listing).
      if (!entry.isDirectory()) {
        const st = lstatSync(full, { throwIfNoEntry: false });
        if (!st) continue; // gone since the listing
        if (!st.isDirectory()) {
          out.set(full, `${st.mtimeMs}:${st.size}`);
          continue;
        }
      }
      if (area.deep) walk(full);
      else out.set(full, "dir");
    }
  };
  walk(area.root);
  return out;
}

/** Entries created or modified between `before` and `after` (removals are nobody's harm here). */
export function changesBetween(area: Area, before: Snapshot, after: Snapshot): Change[] {
  const found: Change[] = [];
  for (const [p, stamp] of after) {
    const was = before.get(p);
    if (was !== stamp) found.push({ area, path: p, what: was === undefined ? "created" : "modified" });
  }
  return found;
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
