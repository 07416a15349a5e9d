/**
 * One command timed from outside: wall from this process, CPU from a cpuacct cgroup the command
 * joins before it execs (the whole tree, workers SIGKILLed inside bubblewrap included, which
 * rusage misses), with `ARENA_OUTPUT_ROOT` in a scratch folder removed afterwards. Shared by the
 * scripts that compare runs (bench-wall.ts, cli-start.ts, durable-floor.ts) so they time alike.
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa } from "execa";
import { fileURLToPath } from "node:url";
import { commandInGroups, cpuSecondsOf, makeGroup, removeGroup } from "./cgroup.ts";

const CPU_AT_EXIT = fileURLToPath(new URL("./cpu-at-exit.cjs", import.meta.url));

export interface TimedRun {
  readonly wallSeconds: number;
  readonly cpuSeconds: number;
  /**
   * The command's own process (its threads included), read by a preload at its exit
   * (cpu-at-exit.cjs); undefined if it wrote nothing (killed, or not Node). The rest of
   * `cpuSeconds` is its children's: for `arena`, the workers and their sandboxes.
   */
  readonly ownCpuSeconds: number | undefined;
  /** Worker processes the run started: one log per worker under its output folder. */
  readonly workersStarted: number;
  readonly exitCode: number;
  readonly stderr: string;
}

/**
 * The worker logs under an output root (`logs/…/<adapter>__w<N>.log`), one per process started,
 * by adapter. Counted by real path: the recursive listing also walks `runs/latest`, a link to the
 * same run, and counted every log twice until 2026-12-07.
 */
export function workerLogsByAdapter(dir: string): Map<string, number> {
  const logs = new Map<string, string>();
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    const adapter = entry.isFile() ? /^(.+)__w\d+\.log$/.exec(entry.name)?.[1] : undefined;
    if (adapter !== undefined) logs.set(realpathSync(path.join(entry.parentPath, entry.name)), adapter);
  }
  const counts = new Map<string, number>();
  for (const adapter of logs.values()) counts.set(adapter, (counts.get(adapter) ?? 0) + 1);
  return counts;
}

/** Every worker process a run under `dir` started (see {@link workerLogsByAdapter}). */
export function countWorkerLogs(dir: string): number {
  let n = 0;
  for (const count of workerLogsByAdapter(dir).values()) n += count;
  return n;
}

export interface TimedOptions {
  readonly cwd: string;
  /** Names the command's cgroup. */
  readonly tag: string;
  readonly env?: Record<string, string>;
  /** Read the command's own CPU (`ownCpuSeconds`) with a preload; default false. */
  readonly ownCpu?: boolean;
  /** Called with the output root (`ARENA_OUTPUT_ROOT`) before it is removed. */
  readonly inspect?: (outputRoot: string) => void;
}

/**
 * Run `node argv…` in `cwd` inside a group of its own named after `tag`. A non-zero exit is data
 * (`exitCode`, the stderr's tail), not a throw: the caller decides whether a figure stands.
 */
export async function timedNode(argv: readonly string[], o: TimedOptions): Promise<TimedRun> {
  const group = makeGroup("cpuacct", `arena-timed-${process.pid}-${o.tag}`);
  const output = mkdtempSync(path.join(os.tmpdir(), "arena-timed-"));
  try {
    const ownCpu = path.join(output, "own-cpu-us");
    const [shell, args] = commandInGroups([group], [process.execPath, ...argv]);
    const started = performance.now();
    const run = await execa(shell, args, {
      cwd: o.cwd,
      // The preload only when asked: it costs a floor such as `node -e 0` a file's load.
      env: { ...process.env, ARENA_OUTPUT_ROOT: output, ...(o.ownCpu ? { NODE_OPTIONS: `--require ${CPU_AT_EXIT}`, ARENA_CPU_AT_EXIT: ownCpu } : {}), ...o.env },
      reject: false,
      stdio: ["ignore", "ignore", "pipe"],
    });
    const wallSeconds = (performance.now() - started) / 1000;
    o.inspect?.(output);
    const ownCpuSeconds = existsSync(ownCpu) ? Number(readFileSync(ownCpu, "utf8")) / 1e6 : undefined;
    return { wallSeconds, cpuSeconds: cpuSecondsOf(group), ownCpuSeconds, workersStarted: countWorkerLogs(output), exitCode: run.exitCode ?? -1, stderr: String(run.stderr) };
  } finally {
    rmSync(output, { recursive: true, force: true });
    removeGroup(group);
  }
}

/** `load average a / b / c`, as every script prints it beside its figures. */
export function loadAverage(): string {
  return os.loadavg().map((l) => l.toFixed(2)).join(" / ");
}
