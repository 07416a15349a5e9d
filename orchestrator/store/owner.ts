/**
 * Which process a run session belongs to, and whether that process still lives. A session is
 * written `running` before the first item and rewritten when the run concludes; a run killed
 * with SIGKILL, by the OOM killer or by a reboot never rewrites it, so the manifest alone would
 * say `running` forever. The session therefore names its process: the pid, plus what survives pid
 * reuse — the process's start time (field 22 of /proc/<pid>/stat, in clock ticks since boot) and
 * the boot id (a reboot restarts both the pid and the tick counts). A pid that is gone, or that
 * now belongs to a process started at another time or in another boot, is not the run's.
 */
import { readFileSync } from "node:fs";
import os from "node:os";

export interface SessionOwner {
  readonly pid: number;
  readonly host: string;
  /** Field 22 of /proc/<pid>/stat; absent where there is no /proc. */
  readonly start_ticks?: string;
  /** /proc/sys/kernel/random/boot_id; absent where there is no /proc. */
  readonly boot_id?: string;
}

/** `alive` / `gone`, or `unknown` when it cannot be told from here (another host). */
export type OwnerState = "alive" | "gone" | "unknown";

function readOr(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
}

/**
 * The state letter and start time of `pid` from /proc. The command name (field 2) may hold spaces
 * and parentheses, so fields are counted after its last `)`.
 */
function procStat(pid: number): { state: string; start: string } | undefined {
  const stat = readOr(`/proc/${pid}/stat`);
  if (stat === undefined) return undefined;
  const rest = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  // `rest` starts at field 3 (state), so field 22 is rest[19].
  const start = rest[19];
  return start === undefined ? undefined : { state: rest[0] ?? "", start };
}

function bootId(): string | undefined {
  return readOr("/proc/sys/kernel/random/boot_id")?.trim();
}

/** This process, as a session records it. */
export function currentOwner(): SessionOwner {
  const start = procStat(process.pid)?.start;
  const boot = bootId();
  return { pid: process.pid, host: os.hostname(), ...(start !== undefined ? { start_ticks: start } : {}), ...(boot !== undefined ? { boot_id: boot } : {}) };
}

/** Whether the process a session names is still that process. */
export function ownerState(owner: SessionOwner): OwnerState {
  if (owner.host !== os.hostname()) return "unknown";
  if (owner.boot_id !== undefined && bootId() !== undefined && owner.boot_id !== bootId()) return "gone";
  try {
    process.kill(owner.pid, 0);
  } catch (err) {
    // EPERM: a process of another user holds the pid — alive, but the start time below decides whose it is.
    if ((err as NodeJS.ErrnoException).code !== "EPERM") return "gone";
  }
  const now = procStat(owner.pid);
  // A zombie (killed, not yet reaped by its parent) is gone: it runs nothing and writes nothing.
  if (now?.state === "Z") return "gone";
  if (owner.start_ticks !== undefined && now !== undefined && now.start !== owner.start_ticks) return "gone";
  return "alive";
}
