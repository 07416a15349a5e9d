/**
 * Issue 23, target 3 (the TypeScript `pnpm bench` in ≤ 25 s on 2 cores): where that run's time
 * goes and what bounds it, all measured in the same invocation, round by round:
 *
 * - the run itself (`bench --framework all-ts`), its tree's CPU split into the orchestrator's own
 *   and the rest (workers and their sandboxes), with each adapter's worker processes and durable
 *   pauses read off the run folder;
 * - the same run with `--no-restart` (measurement only: pauses resume on the same process);
 * - each adapter's start floor: a bare Node loading the adapter's HTTP client and its framework's
 *   packages, with a compile cache of its own (as durable-floor.ts).
 *
 * Two bounds, each over the cores:
 *
 * (a) every durable pause must resume on a new process (harness.md §6) and every adapter needs one
 *     more. At the cost target 1b allows a start (its framework's import), those processes alone
 *     take `Σ (pauses + 1) × start floor` of CPU. Above 25 s, targets 1b and 3 cannot both hold:
 *     only starts well below their frameworks' own import could meet 3.
 * (b) the run with the orchestrator free and no process beyond those: its workers' CPU less its
 *     processes beyond the required, each at today's cost of a restart (the two runs' workers'
 *     CPU apart, over their processes apart). What is left above it is the orchestrator's and the
 *     extra processes'.
 *
 *   node scripts/matrix-floor.ts [--rounds N]   (default 3)
 */
import { readdirSync, readFileSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { adapterGroup } from "../contract/catalogue.ts";
import { listArenas } from "../orchestrator/arena/discover.ts";
import { loadArena } from "../orchestrator/arena/load.ts";
import { parseCount } from "../orchestrator/config/values.ts";
import { frameworkImportScript, median } from "./support/measure.ts";
import { loadAverage, timedNode, workerLogsByAdapter, type TimedRun } from "./support/timed-run.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const BIN = path.join(REPO, "orchestrator/cli/bin.mjs");
const TARGET_S = 25;
/** The arenas whose pauses restart the worker (arena.toml `durable = true`). */
const DURABLE = new Set(listArenas().map((a) => loadArena(a.dir)).filter((a) => a.durable).map((a) => a.id));

interface RunShape {
  /** Worker processes per adapter (one log each). */
  readonly workers: Map<string, number>;
  /** Pauses on durable arenas per adapter: each one a restart on a fresh process. */
  readonly durablePauses: Map<string, number>;
}

function shapeOf(outputRoot: string): RunShape {
  const run = path.join(outputRoot, "runs", "latest");
  const workers = workerLogsByAdapter(outputRoot);
  const durablePauses = new Map<string, number>();
  for (const file of readdirSync(path.join(run, "records"))) {
    const record = JSON.parse(readFileSync(path.join(run, "records", file), "utf8"));
    if (!DURABLE.has(record.arena)) continue;
    for (const lane of record.frameworks) {
      const pauses = (lane.items ?? []).reduce((n: number, i: { suspends?: number }) => n + (i.suspends ?? 0), 0);
      durablePauses.set(lane.framework, (durablePauses.get(lane.framework) ?? 0) + pauses);
    }
  }
  return { workers, durablePauses };
}

interface Round {
  readonly run: TimedRun;
  readonly shape: RunShape;
  readonly noRestart: TimedRun;
  readonly noRestartShape: RunShape;
  readonly floors: Map<string, number>;
}

async function bench(extra: string[], tag: string): Promise<{ run: TimedRun; shape: RunShape }> {
  let shape: RunShape | undefined;
  const run = await timedNode([BIN, "bench", "--quiet", "--framework", "all-ts", ...extra], { cwd: REPO, tag, ownCpu: true, inspect: (root) => (shape = shapeOf(root)) });
  if (run.exitCode !== 0 || run.ownCpuSeconds === undefined || !shape) throw new Error(`matrix-floor: bench ${extra.join(" ")} exited ${run.exitCode}\n${run.stderr.slice(-1500)}`);
  return { run, shape };
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rounds: { type: "string", default: "3" } } });
  const rounds = parseCount(values.rounds!, "--rounds");
  const adapters = adapterGroup("all-ts")!;
  const cores = os.availableParallelism();
  const caches = new Map(adapters.map((a) => [a.name, mkdtempSync(path.join(os.tmpdir(), `arena-matrix-floor-${a.name}-`))]));
  const floor = (name: string, packages: readonly string[], tag: string) =>
    timedNode(["--input-type=module", "-e", frameworkImportScript(packages)], { cwd: REPO, tag, env: { NODE_COMPILE_CACHE: caches.get(name)! } });
  for (const a of adapters) await floor(a.name, a.packages, `warm-${a.name}`); // fills each floor's compile cache; not counted
  process.stdout.write(`${cores} cores; load average at start ${loadAverage()}\n`);
  const done: Round[] = [];
  for (let r = 1; r <= rounds; r++) {
    const { run, shape } = await bench([], `run-${r}`);
    const { run: noRestart, shape: noRestartShape } = await bench(["--no-restart"], `nr-${r}`);
    const floors = new Map<string, number>();
    for (const a of adapters) floors.set(a.name, (await floor(a.name, a.packages, `floor-${r}-${a.name}`)).cpuSeconds);
    done.push({ run, shape, noRestart, noRestartShape, floors });
    process.stdout.write(`round ${r}: ${run.wallSeconds.toFixed(1)} s wall, ${run.cpuSeconds.toFixed(1)} s CPU; --no-restart ${noRestart.wallSeconds.toFixed(1)} s, ${noRestart.cpuSeconds.toFixed(1)} s\n`);
  }
  process.stdout.write(report(done, adapters.map((a) => a.name), cores));
  process.stdout.write(`load average at end ${loadAverage()}\n`);
}

function report(done: readonly Round[], names: readonly string[], cores: number): string {
  const med = (f: (r: Round) => number) => median(done.map(f));
  const floorOf = (name: string) => med((r) => r.floors.get(name) ?? 0);
  const starts = (shape: RunShape, name: string) => shape.workers.get(name) ?? 0;
  const lines = ["", "| adapter | processes | durable pauses | required: pauses + 1 | start floor (ms CPU) | --no-restart processes |", "|---|--:|--:|--:|--:|--:|"];
  for (const name of names) {
    const last = done[done.length - 1]!;
    const pauses = last.shape.durablePauses.get(name) ?? 0;
    lines.push(`| ${name} | ${starts(last.shape, name)} | ${pauses} | ${pauses + 1} | ${(floorOf(name) * 1000).toFixed(0)} | ${starts(last.noRestartShape, name)} |`);
  }
  const perRound = done.map((r) => {
    const total = (shape: RunShape, f: (name: string) => number) => names.reduce((n, name) => n + f(name), 0);
    const processes = (shape: RunShape) => total(shape, (n) => starts(shape, n));
    const required = (shape: RunShape) => total(shape, (n) => (shape.durablePauses.get(n) ?? 0) + 1);
    const pauses = total(r.shape, (n) => r.shape.durablePauses.get(n) ?? 0);
    const workersCpu = r.run.cpuSeconds - r.run.ownCpuSeconds!;
    const noRestartWorkersCpu = r.noRestart.cpuSeconds - r.noRestart.ownCpuSeconds!;
    // What a process more costs in this run, all in: the two runs differ by their restarts.
    const perRestart = (workersCpu - noRestartWorkersCpu) / (processes(r.shape) - processes(r.noRestartShape));
    const atStartBound = total(r.shape, (n) => ((r.shape.durablePauses.get(n) ?? 0) + 1) * (r.floors.get(n) ?? 0));
    return {
      wall: r.run.wallSeconds, cpu: r.run.cpuSeconds, own: r.run.ownCpuSeconds!, workersCpu, noRestartWorkersCpu, perRestart, pauses,
      processes: processes(r.shape), required: required(r.shape), atStartBound,
      today: (workersCpu - (processes(r.shape) - required(r.shape)) * perRestart) / cores,
    };
  });
  const m = (f: (x: (typeof perRound)[number]) => number, digits = 1) => median(perRound.map(f)).toFixed(digits);
  lines.push(
    "",
    `medians of ${done.length} round(s); CPU in seconds:`,
    `- the run: ${m((x) => x.wall)} s wall, ${m((x) => x.cpu)} CPU: the orchestrator's own ${m((x) => x.own)}, its workers and sandboxes ${m((x) => x.workersCpu)} (÷ ${cores} cores: ${m((x) => x.workersCpu / cores)} s)`,
    `- processes: ${m((x) => x.processes, 0)} started; the spec requires ${m((x) => x.required, 0)} (one per durable pause, ${m((x) => x.pauses, 0)}, and one per adapter)`,
    `- --no-restart: its workers ${m((x) => x.noRestartWorkersCpu)} CPU; a restart in this run costs ${m((x) => x.perRestart * 1000, 0)} ms of CPU (the runs' difference over their processes' difference)`,
    `- (a) the required processes, each at target 1b's bound for a start (its framework's import): ${m((x) => x.atStartBound)} CPU, ÷ ${cores} = ${m((x) => x.atStartBound / cores)} s`,
    `- (b) a free orchestrator, and the run's workers less its processes beyond the required, each at today's cost of a restart: ${m((x) => x.today)} s`,
    `- target 3: ${TARGET_S} s`,
    "",
  );
  return lines.join("\n");
}

await main();
