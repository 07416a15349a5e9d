/**
 * Who else holds a changed file open, at the moment a watched worker's writes are judged: the
 * evidence that a change was someone else's (attribution.ts).
 *
 * - `heldByUs`: files the orchestrator itself has open — its own stdout and stderr when they are
 *   redirected to a file (`pnpm bench 2>/tmp/err.txt`), its logs. The orchestrator writes them
 *   while workers live; they are never a worker's doing. Linux reads /proc/self/fd (paths, so a
 *   folder holding one of them matches too); elsewhere each fd listed in /dev/fd is matched by
 *   device and inode, which finds the file itself but not a folder holding it.
 * - `heldByOthers` (Linux only): changed files some live process outside the worker's tree holds
 *   open for writing. It walks every process's fds, so it is only asked about the few changes no
 *   cheaper evidence explained.
 */
import { fstatSync, lstatSync, readdirSync, readlinkSync } from "node:fs";
import { within } from "./bwrap.ts";
import { HAS_PROC, livePids, writeHeld } from "./proc.ts";

/** `entries` (absolute paths) that this process holds open, or that hold a file it holds open. */
export function heldByUs(entries: readonly string[]): Set<string> {
  const found = new Set<string>();
  if (entries.length === 0) return found;
  if (HAS_PROC) {
    let fds: string[] = [];
    try {
      fds = readdirSync("/proc/self/fd");
    } catch {
      // No /proc/self: nothing known.
    }
    for (const fd of fds) {
      let target: string;
      try {
        target = readlinkSync(`/proc/self/fd/${fd}`);
      } catch {
        continue;
      }
      for (const e of entries) if (within(target, e)) found.add(e);
    }
    return found;
  }
  const ids = new Map<string, string>();
  for (const e of entries) {
    const st = lstatSync(e, { throwIfNoEntry: false });
    if (st?.isFile()) ids.set(`${st.dev}:${st.ino}`, e);
  }
  let fds: string[] = [];
  try {
    fds = readdirSync("/dev/fd");
  } catch {
    return found;
  }
  for (const fd of fds) {
    try {
      const st = fstatSync(Number(fd));
      const e = ids.get(`${st.dev}:${st.ino}`);
      if (e !== undefined) found.add(e);
    } catch {
      // The directory listing's own fd, closed by now.
    }
  }
  return found;
}

/**
 * `entries` held open for writing (the entry, or a file inside it) by a live process for which
 * `inTree` is false, each with one such pid. Empty where there is no /proc.
 */
export function heldByOthers(entries: readonly string[], inTree: (pid: number) => boolean): Map<string, number> {
  const found = new Map<string, number>();
  if (!HAS_PROC || entries.length === 0) return found;
  const wanted = (p: string) => entries.some((e) => within(p, e));
  for (const pid of livePids()) {
    if (pid === process.pid) continue;
    const files = writeHeld(pid, wanted);
    if (files.length === 0 || inTree(pid)) continue;
    for (const f of files) for (const e of entries) if (within(f, e) && !found.has(e)) found.set(e, pid);
  }
  return found;
}
