/**
 * Linux /proc, read for watched mode: a process's state, parent, group and start time, whether it
 * carries a marker in its environment, the children it spawned, and the files it holds open for
 * writing. The process table changes under us (a process exits between the listing and the read),
 * so every reader answers "nothing" for a process that is gone or unreadable instead of throwing:
 * a watcher that threw on a race would take the orchestrator down from an exit handler.
 *
 * Only Linux has /proc; callers check `HAS_PROC` and fall back to what `ps` can say (survivors.ts).
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";

export const HAS_PROC = process.platform === "linux";

export interface ProcStat {
  readonly state: string;
  readonly ppid: number;
  readonly pgid: number;
  /** Clock ticks after boot: with the pid, names one process even after its pid is reused. */
  readonly start: number;
}

/** `/proc/<pid>/stat`, or undefined for a dead or unreadable process. */
export function procStat(pid: number | string): ProcStat | undefined {
  try {
    // The command name is in parentheses and may contain anything: fields start after the last ")".
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return { state: f[0]!, ppid: Number(f[1]), pgid: Number(f[2]), start: Number(f[19]) };
  } catch {
    return undefined;
  }
}

/** Zombies and dying processes hold nothing and can do nothing more. */
export function gone(stat: ProcStat | undefined): boolean {
  return !stat || stat.state === "Z" || stat.state === "X";
}

/** Every pid in /proc (this process included). */
export function livePids(): number[] {
  try {
    return readdirSync("/proc").filter((n) => /^\d+$/.test(n)).map(Number);
  } catch {
    return [];
  }
}

/** Whether `pid`'s environment has the exact entry `marker` (`NAME=value`). */
export function carries(pid: number, marker: string): boolean {
  try {
    return readFileSync(`/proc/${pid}/environ`, "latin1").split("\0").includes(marker);
  } catch {
    return false;
  }
}

/** The command line, for a violation's text (cut short). */
export function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "latin1").split("\0").filter(Boolean).join(" ").slice(0, 120);
  } catch {
    return "";
  }
}

/**
 * Children forked by the process's main thread (`/proc/<pid>/task/<pid>/children`). Node spawns
 * from its main thread, and so do the shells and tools a worker starts; a child forked by another
 * thread is missed here, and seen at exit by its token like any survivor.
 */
export function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").split(" ").filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** O_ACCMODE of an fd's `flags:` line (octal): 1 O_WRONLY, 2 O_RDWR. */
function openForWriting(pid: number, fd: string): boolean {
  try {
    const m = /^flags:\s*([0-7]+)$/m.exec(readFileSync(`/proc/${pid}/fdinfo/${fd}`, "utf8"));
    return m !== null && (parseInt(m[1]!, 8) & 3) !== 0;
  } catch {
    return false;
  }
}

/**
 * Absolute paths `pid` holds open with write access, among those `wanted` accepts (checked first:
 * reading fdinfo costs a file read per fd, and most fds are pipes, sockets, or out of scope).
 * Deleted files (`… (deleted)`) are skipped: they are in no snapshot.
 */
export function writeHeld(pid: number, wanted: (p: string) => boolean): string[] {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const fd of fds) {
    let target: string;
    try {
      target = readlinkSync(`/proc/${pid}/fd/${fd}`);
    } catch {
      continue;
    }
    if (!target.startsWith("/") || target.endsWith(" (deleted)") || !wanted(target)) continue;
    if (openForWriting(pid, fd)) out.push(target);
  }
  return out;
}
