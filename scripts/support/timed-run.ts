/**
 * One command timed from outside: wall from this process, CPU from a cpuacct cgroup the command
 * joins before it execs (the whole tree, workers SIGKILLed inside bubblewrap included, which
 * rusage misses), with `ARENA_OUTPUT_ROOT` in a scratch folder removed afterwards. Shared by the
 * scripts that compare runs (bench-wall.ts, cli-start.ts, durable-floor.ts) so they time alike.
 */
import { mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { commandInGroups, cpuSecondsOf, makeGroup, removeGroup } from "./cgroup.ts";

export interface TimedRun {
  readonly wallSeconds: number;
  readonly cpuSeconds: number;
  /** Worker processes the run started: one log per worker under its output folder. */
  readonly workersStarted: number;
  readonly exitCode: number;
  readonly stderr: string;
}

/**
 * Every worker log under a run folder (`logs/…/<adapter>__w<N>.log`): one per process started.
 * Counted by real path: the recursive listing also walks `runs/latest`, a link to the same run,
 * and counted every log twice until 2026-12-07.
 */
export function countWorkerLogs(dir: string): number {
  const logs = new Set<string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (entry.isFile() && /__w\d+\.log$/.test(entry.name)) logs.add(realpathSync(path.join(entry.parentPath, entry.name)));
  }
  return logs.size;
}

/**
 * Run `node argv…` in `cwd` inside a group of its own named after `tag`. A non-zero exit is data
 * (`exitCode`, the stderr's tail), not a throw: the caller decides whether a figure stands.
 */
export async function timedNode(argv: readonly string[], o: { readonly cwd: string; readonly tag: string; readonly env?: Record<string, string> }): Promise<TimedRun> {
  const group = makeGroup("cpuacct", `arena-timed-${process.pid}-${o.tag}`);
  const output = mkdtempSync(path.join(os.tmpdir(), "arena-timed-"));
  try {
    const [shell, args] = commandInGroups([group], [process.execPath, ...argv]);
    const started = performance.now();
    const run = await execa(shell, args, {
      cwd: o.cwd,
      env: { ...process.env, ARENA_OUTPUT_ROOT: output, ...o.env },
      reject: false,
      stdio: ["ignore", "ignore", "pipe"],
    });
    const wallSeconds = (performance.now() - started) / 1000;
    return { wallSeconds, cpuSeconds: cpuSecondsOf(group), workersStarted: countWorkerLogs(output), exitCode: run.exitCode ?? -1, stderr: String(run.stderr) };
  } finally {
    rmSync(output, { recursive: true, force: true });
    removeGroup(group);
  }
}

/** `load average a / b / c`, as every script prints it beside its figures. */
export function loadAverage(): string {
  return os.loadavg().map((l) => l.toFixed(2)).join(" / ");
}
