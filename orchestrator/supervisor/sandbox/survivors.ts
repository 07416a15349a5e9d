/**
 * Watched mode's survivor detection. Every watched worker gets a random token in its environment
 * (`ARENA_WORKER_TOKEN`); everything it spawns inherits it, however it re-parents itself
 * (`setsid`, a double fork). When the worker exits, every live process carrying its token is a
 * descendant that outlived it: each is killed, and the ones that had left the worker's process
 * group — which the orchestrator's group kill would never have reached — are violations.
 *
 * Linux reads /proc; elsewhere (macOS) one `ps -E` lists processes with their environment. A
 * descendant that scrubs its environment is not seen: this is detection, not a sandbox.
 */
import { spawnSync } from "node:child_process";
import { carries, commandOf, gone, HAS_PROC, livePids, procStat } from "./proc.ts";

export const TOKEN_VAR = "ARENA_WORKER_TOKEN";

export interface Holder {
  readonly pid: number;
  readonly pgid: number;
  /** The command line, for the violation text (cut short). */
  readonly command: string;
}

function linuxHolders(marker: string): Holder[] {
  const found: Holder[] = [];
  for (const pid of livePids()) {
    if (pid === process.pid || !carries(pid, marker)) continue;
    const stat = procStat(pid);
    // Zombies and dying processes are already gone.
    if (gone(stat)) continue;
    found.push({ pid, pgid: stat!.pgid, command: commandOf(pid) });
  }
  return found;
}

function psHolders(marker: string): Holder[] {
  const ps = spawnSync("ps", ["-A", "-E", "-ww", "-o", "pid=,pgid=,command="], { encoding: "utf8", timeout: 5_000 });
  if (ps.status !== 0) return [];
  return parsePs(ps.stdout, marker);
}

/** `ps -E` output: pid, pgid, then the command with the environment appended. */
export function parsePs(out: string, marker: string): Holder[] {
  const found: Holder[] = [];
  for (const line of out.split("\n")) {
    const m = /^\s*(\d+)\s+(\d+)\s+(.*)$/.exec(line);
    if (!m || !m[3]!.split(/\s+/).includes(marker) || Number(m[1]) === process.pid) continue;
    found.push({ pid: Number(m[1]), pgid: Number(m[2]), command: m[3]!.split(` ${TOKEN_VAR}=`)[0]!.slice(0, 120) });
  }
  return found;
}

/** Live processes that carry `token`. */
export function holders(token: string): Holder[] {
  const marker = `${TOKEN_VAR}=${token}`;
  return HAS_PROC ? linuxHolders(marker) : psHolders(marker);
}

/**
 * Kill every live holder of the token of a worker that has exited; the violations are those
 * outside its process group `pgid`. `seen` is called with each before it is killed, while its
 * open files can still be read (they are evidence of what the worker's tree wrote: tree.ts).
 */
export function reapSurvivors(token: string, pgid: number | undefined, seen: (h: Holder) => void = () => {}): string[] {
  const violations: string[] = [];
  for (const h of holders(token)) {
    seen(h);
    try {
      process.kill(h.pid, "SIGKILL");
    } catch {
      // Exited meanwhile.
    }
    if (h.pgid !== pgid) violations.push(`a process outlived the worker outside its process group (pid ${h.pid}: ${h.command}); killed`);
  }
  return violations;
}
