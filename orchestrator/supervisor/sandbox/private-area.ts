/**
 * A sealed worker's private area, seen from the host: the throwaway layers over what it may not
 * see (view.ts), its private TMPDIR, and its slot — a host folder mounted over its adapter's
 * checkpoint folder. The slot is empty between legs. For a leg, the item × repeat's folder moves
 * into the slot (a rename, so the worker sees it at the path it was handed) and moves back out
 * when the leg ends; a durable restart moves it into the fresh worker's slot. So a worker never
 * sees another item's or repeat's folder, however long it lives, and the next item finds nothing
 * the last one left.
 *
 * After every leg the area is inspected: anything written in a layer, or in the slot outside the
 * item's folder, is an attempt to write outside. It is reported (to the item's record, by the
 * caller) and removed, and the TMPDIR is emptied, so no write survives into the next item. A layer
 * folder an earlier inspection found clean is listed again only when its inode or ctime moved
 * (SETTLED_MS says why that cannot miss an entry): most layers never change, and listing each of
 * them after every leg was most of the orchestrator's system calls per item.
 *
 * The folders that lead to the item's folder in the slot (its arena's) are made once and parked
 * between legs beside the slot, where no worker sees them, rather than made and removed at every
 * leg: a rename each way instead of a mkdir and an rmdir, which on ext4 blocked the orchestrator's
 * loop for ~0.9 ms a leg (docs/performance.md, target 2c). They are parked only after the leg's
 * inspection has emptied them of everything but the way to the item's folder.
 *
 * A worker carrying several items at once (seats, supervisor/seat.ts) holds several folders in its
 * slot, each entered and left by its own leg: the check after one leg treats every folder still
 * held as held, and a stray found while others are held is reported to the leg that ended, naming
 * that it may be theirs (one process wrote it; which seat did cannot be told). An arena's folder is
 * parked only when no leg in flight holds a folder inside it. The TMPDIR is the process's, so it is
 * emptied only when no leg is in flight: the one thing seats share besides the process.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, type Dirent } from "node:fs";
import path from "node:path";
import { within, type Mount } from "./bwrap.ts";

/**
 * How long before a layer walk a folder's last change must be for the walk to trust its ctime
 * next time. Creating, removing or renaming an entry sets the folder's ctime to the kernel's coarse
 * clock, which moves in ticks (1–10 ms): a change made in the same tick as the one a walk saw
 * would leave the ctime as it was, so a folder changed that recently is listed again (Linux 6.13
 * and later give a change made after a stat a finer timestamp; older kernels do not). A worker
 * cannot set a ctime back (utimes sets atime and mtime, and moves the ctime to now), nor step the
 * clock inside bubblewrap, so an unchanged ctime and inode mean no entry was added or removed.
 */
export const SETTLED_MS = 50;

export interface AreaPlan {
  /** Where this worker's layers are made on the host (a private, fresh folder). */
  readonly layersRoot: string;
  /** The slot's host folder: on the checkpoint folder's filesystem, so a move is a rename. */
  readonly slot: string;
  /** The adapter's checkpoint folder, which the slot is mounted over. */
  readonly checkpointDir: string;
  /** The worker's private TMPDIR (emptied after each leg). */
  readonly tmp: string;
  /** Folders covered by layers, outermost first (view.ts). */
  readonly covered: readonly string[];
  /** Paths bound back read-only, and folders bound read-write at their own path. */
  readonly readable: readonly string[];
  readonly writable: readonly string[];
}

export class PrivateArea {
  readonly mounts: readonly Mount[];
  readonly #plan: AreaPlan;
  readonly #layers: readonly { host: string; at: string }[];
  /** Where something is mounted inside a layer: bwrap made these (and their parents) on the host. */
  readonly #mountPoints: readonly string[];
  /** The item folders in the slot now, one per leg in flight. */
  readonly #inSlot = new Set<string>();
  /** Beside the slot, on its filesystem, in no worker's view: the slot's top folders between legs. */
  readonly #park: string;
  /** Top folders (an arena's) now in the park, ready for the next leg that needs them. */
  readonly #parked = new Set<string>();
  /** Found by a dispose() during a leg (the worker died), for that leg's leave(). */
  #found: string[] = [];
  /** Layer folders a walk found clean, by host path: their inode, ctime and the sub-folders walked into. */
  readonly #clean = new Map<string, { readonly ino: bigint; readonly ctimeNs: bigint; readonly into: readonly string[] }>();

  constructor(plan: AreaPlan) {
    this.#plan = plan;
    mkdirSync(plan.slot, { recursive: true });
    this.#park = `${plan.slot}.park`;
    mkdirSync(this.#park);
    this.#layers = plan.covered.map((at, i) => {
      const host = path.join(plan.layersRoot, String(i));
      mkdirSync(host, { recursive: true });
      return { host, at };
    });
    this.mounts = [
      ...this.#layers.map((l) => ({ kind: "layer" as const, host: l.host, at: l.at })),
      { kind: "layer", host: plan.slot, at: plan.checkpointDir },
      ...plan.readable.map((at) => ({ kind: "readable" as const, at })),
    ];
    this.#mountPoints = [...plan.covered, plan.checkpointDir, ...plan.readable, ...plan.writable];
  }

  /** Move the item × repeat's folder into the slot for a leg (a folder outside the adapter's is left where it is). */
  enter(itemDir: string): void {
    const rel = this.#relative(itemDir);
    if (rel === undefined || !existsSync(itemDir)) return;
    const inside = path.join(this.#plan.slot, rel);
    if (!this.#unpark(rel)) mkdirSync(path.dirname(inside), { recursive: true });
    renameSync(itemDir, inside);
    this.#inSlot.add(itemDir);
  }

  /** Bring back the parked top folder `rel` lies in; true when that alone made the item's parent. */
  #unpark(rel: string): boolean {
    const parts = rel.split(path.sep);
    const top = parts[0]!;
    if (parts.length < 2 || !this.#parked.has(top)) return false;
    this.#parked.delete(top);
    try {
      // Onto an empty folder of that name the worker made meanwhile it replaces it; onto one with
      // something in it, it fails, and the worker's folder is used (leave() reports what is in it).
      renameSync(path.join(this.#park, top), path.join(this.#plan.slot, top));
    } catch {
      rmSync(path.join(this.#park, top), { recursive: true, force: true });
      return false;
    }
    return parts.length === 2;
  }

  /**
   * The leg that entered `itemDir` ended (answered, failed or died): the folder moves back, and
   * what the worker wrote anywhere else is listed (as the worker saw each path) and removed.
   */
  leave(entered: string): string[] {
    const itemDir = this.#inSlot.delete(entered) ? entered : undefined;
    if (itemDir !== undefined) {
      const inside = path.join(this.#plan.slot, this.#relative(itemDir)!);
      try {
        renameSync(inside, itemDir);
      } catch (err) {
        // The worker removed its folder: the item gets an empty one back, as it had before the leg.
        if ((err as NodeJS.ErrnoException).code !== "ENOENT" || existsSync(inside)) throw err;
        mkdirSync(itemDir, { recursive: true });
      }
    }
    // In the slot, the folders that held the item's are walked into, not reported whole; the
    // folders of legs still in flight are held, so neither they nor what they hold are strays.
    const held = [...this.#inSlot];
    const strays = [...this.#strays(this.#plan.slot, this.#plan.checkpointDir, itemDir === undefined ? held : [itemDir, ...held], held)];
    // Emptied by that walk of all but the way to the item's folder, which is the harness's: parked,
    // unless a leg still in flight has its folder in the same arena's (it must stay in view).
    if (itemDir !== undefined) {
      const top = (dir: string) => this.#relative(dir)?.split(path.sep)[0];
      if (!held.some((h) => top(h) === top(itemDir))) this.#parkTop(this.#relative(itemDir)!);
    }
    const walkStart = Date.now();
    for (const layer of this.#layers) strays.push(...this.#strays(layer.host, layer.at, [], [], walkStart));
    if (held.length === 0) this.#empty(this.#plan.tmp);
    const others = held.length === 0 ? "" : ` while ${held.length} other item${held.length === 1 ? " was" : "s were"} in this worker, so it may be theirs`;
    return [...this.#found.splice(0), ...strays.map((p) => `wrote ${p} (outside its item's folder and TMPDIR${others}; removed)`)];
  }

  /** The item folders in the slot now (one per leg in flight). */
  get held(): readonly string[] {
    return [...this.#inSlot];
  }

  /**
   * The worker is gone: the folders still in its slot go back now. Returned: its layers, slot and
   * park, which nothing uses any more, for the caller to remove off the loop (background-removal.ts
   * says why; the slot was a mount point too).
   */
  dispose(): readonly string[] {
    for (const itemDir of [...this.#inSlot]) this.#found.push(...this.leave(itemDir));
    return [this.#plan.layersRoot, this.#plan.slot, this.#park];
  }

  #parkTop(rel: string): void {
    const parts = rel.split(path.sep);
    if (parts.length < 2) return;
    try {
      renameSync(path.join(this.#plan.slot, parts[0]!), path.join(this.#park, parts[0]!));
      this.#parked.add(parts[0]!);
    } catch {
      // The worker removed it (or put a file in its place, which the walk reported and removed): nothing to park.
    }
  }

  #relative(itemDir: string): string | undefined {
    const rel = path.relative(this.#plan.checkpointDir, itemDir);
    return rel === "" || rel.startsWith("..") || path.isAbsolute(rel) ? undefined : rel;
  }

  /**
   * Entries under `host` that are no mount point and no parent of one, named by where the worker
   * saw them. With `walkStart` (a layer's walk; Date.now() before it began), a folder found clean is
   * remembered by its inode and ctime, and while both are unchanged it is not listed again: only
   * its sub-folders on the way to mount points are visited (see {@link SETTLED_MS}).
   */
  #strays(host: string, at: string, held: readonly string[] = [], inSlot: readonly string[] = [], walkStart?: number): string[] {
    const out: string[] = [];
    const points = [...this.#mountPoints, ...held];
    const settledBefore = walkStart === undefined ? undefined : BigInt(walkStart - SETTLED_MS) * 1_000_000n;
    const walk = (dir: string, seenAs: string) => {
      // Taken before the listing: a change made between the two shows in the next walk's ctime.
      const stat = settledBefore === undefined ? undefined : statSync(dir, { bigint: true, throwIfNoEntry: false });
      const known = stat === undefined ? undefined : this.#clean.get(dir);
      if (known !== undefined && known.ino === stat!.ino && known.ctimeNs === stat!.ctimeNs) {
        for (const name of known.into) walk(path.join(dir, name), path.join(seenAs, name));
        return;
      }
      const into: string[] = [];
      let removed = false;
      for (const entry of listing(dir) ?? []) {
        const name = entry.name;
        const real = path.join(dir, name);
        const virtual = path.join(seenAs, name);
        if (this.#mountPoints.includes(virtual) || inSlot.includes(virtual)) continue;
        // The entry's type as lstat gives it (a symlink is not a directory): from the listing
        // itself, where Node asks lstat only for a file system that does not say.
        if (entry.isDirectory() && points.some((m) => within(m, virtual))) {
          into.push(name);
          walk(real, virtual);
          continue;
        }
        out.push(virtual);
        removed = true;
        rmSync(real, { recursive: true, force: true });
      }
      if (stat === undefined) return;
      if (!removed && stat.ctimeNs < settledBefore!) this.#clean.set(dir, { ino: stat.ino, ctimeNs: stat.ctimeNs, into });
      else this.#clean.delete(dir);
    };
    walk(host, at);
    return out;
  }

  #empty(dir: string): void {
    for (const entry of listing(dir) ?? []) rmSync(path.join(dir, entry.name), { recursive: true, force: true });
  }
}

/**
 * A folder's entries with their types, or undefined when it is not there. One listing per folder
 * and no lstat per entry: this runs over every layer after every leg, and its system calls were
 * most of the orchestrator's per-item system time (docs/performance.md, target 2c).
 */
function listing(dir: string): Dirent[] | undefined {
  try {
    return readdirSync(dir, { withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}
