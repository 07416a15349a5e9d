/**
 * Cgroup v1 groups of their own for a measured command, so what is counted is the whole process
 * tree's: rusage misses workers SIGKILLed inside bubblewrap. The command joins its groups in a
 * `sh` before it execs, so nothing it starts, sealed or not, escapes them. Shared by the scripts
 * that count CPU or memory this way (bench-wall, sandbox-cost, live-scale).
 */
import { mkdirSync, readFileSync, rmdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { CpuGroup } from "./measure.ts";

export type Controller = "cpuacct" | "memory";

/** This process's own place in `controller`'s hierarchy, read from /proc/self/cgroup. */
export function hierarchyOf(controller: Controller): string {
  const line = readFileSync("/proc/self/cgroup", "utf8")
    .split("\n")
    .find((l) => l.split(":")[1]?.split(",").includes(controller));
  if (!line) throw new Error(`no cgroup v1 ${controller} hierarchy here (root on Linux with cgroup v1 is needed)`);
  return path.join("/sys/fs/cgroup", controller, line.split(":")[2]!);
}

/** A fresh group `name` below this process's place in `controller`'s hierarchy; throws if it cannot be made. */
export function makeGroup(controller: Controller, name: string): string {
  const group = path.join(hierarchyOf(controller), name);
  mkdirSync(group);
  return group;
}

/** `sh` and its arguments: join every group, then exec `argv` (passed as `$0 "$@"`, never quoted into the script). */
export function commandInGroups(groups: readonly string[], argv: readonly string[]): [string, string[]] {
  const joins = groups.map((g) => `echo $$ > ${g}/cgroup.procs`).join(" && ");
  return ["sh", ["-c", `${joins} && exec "$0" "$@"`, ...argv]];
}

/**
 * Call `spawn`, which must fork its process synchronously (execa, WorkerProcess.start), with this
 * process inside `group` for that moment only: the child is forked into the group and everything
 * it starts stays there, so the group counts its tree even through a SIGKILL inside bubblewrap.
 * This process moves back at once; the fork itself (about a millisecond) is charged to the group,
 * alike for every command measured this way.
 */
export function forkInGroup<T>(group: string, spawn: () => T, controller: Controller = "cpuacct"): T {
  // Read before joining: /proc/self/cgroup names the group this process is in.
  const home = hierarchyOf(controller);
  writeFileSync(path.join(group, "cgroup.procs"), String(process.pid));
  try {
    return spawn();
  } finally {
    writeFileSync(path.join(home, "cgroup.procs"), String(process.pid));
  }
}

/** The CPU the group's processes used since it was made, in seconds. */
export function cpuSecondsOf(group: string): number {
  return Number(readFileSync(path.join(group, "cpuacct.usage"), "utf8").trim()) / 1e9;
}

/** Remove the group: empty once its tree has exited; a leftover process keeps it, and that is said on stderr. */
export function removeGroup(group: string): void {
  try {
    rmdirSync(group);
  } catch (err) {
    process.stderr.write(`cgroup ${group} not removed: ${(err as Error).message}\n`);
  }
}

/** Groups for measured starts (support/measure.ts `CpuGroup`), named `<prefix>-<pid>-<n>`. */
export function cpuGroups(prefix: string): CpuGroup {
  let made = 0;
  return {
    make: () => makeGroup("cpuacct", `${prefix}-${process.pid}-${(made += 1)}`),
    fork: forkInGroup,
    readMs: (g) => cpuSecondsOf(g) * 1000,
    remove: removeGroup,
  };
}
