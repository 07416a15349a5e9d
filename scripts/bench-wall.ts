/**
 * Wall time and whole-tree CPU of an `arena bench`, for a checkout before and after a change,
 * each run in a cpuacct cgroup of its own (so workers SIGKILLed inside bubblewrap are counted,
 * which rusage misses), alternating between the checkouts round by round.
 *
 * Usage: node scripts/bench-wall.ts [--tree DIR]... [--rounds N] [-- <bench args>]
 *        default: this checkout only, 1 round, `--framework all-ts` (the TypeScript part of `pnpm bench`: variants on their own arenas), mock mode.
 *
 * Beside each figure it prints the floor taken in the same run: the tree's CPU divided by the
 * cores (the wall of a run that kept every core busy), and how many worker processes the run
 * started (one log per worker in the run folder), so a wall above its floor shows whether the
 * run was narrower than the machine or did more work. It also splits the tree's CPU: the
 * orchestrator's own process (read at its exit by a preload, support/cpu-at-exit.cjs) and the
 * rest, its workers and their sandboxes; the workers' CPU over the cores is the wall the run would
 * still take if the orchestrator cost nothing. Needs a writable cgroup v1 cpuacct
 * hierarchy (root on Linux); anything else is an error, never a figure from a lesser clock.
 *
 * `--original-from DIR --original-cpu LO:HI --original-wall LO:HI`: the Python original is not on
 * this machine, only the ratios issue 23 measured beside it (ours / original, CPU 2.4–2.5×, wall
 * 1.10–1.40×, for the checkout of that day). With that checkout as one of the trees, the summary
 * derives the original's band on this machine, in this run (that checkout's median ÷ the ratios),
 * and states every tree against it. A derived figure, and the output says so.
 */
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { loadAverage, timedNode } from "./support/timed-run.ts";
import { median } from "./support/measure.ts";

const HERE = fileURLToPath(new URL("..", import.meta.url));

interface Sample {
  readonly tree: string;
  readonly wallSeconds: number;
  readonly cpuSeconds: number;
  readonly ownCpuSeconds: number | undefined;
  readonly workersStarted: number;
  readonly exitCode: number;
  readonly clampLine?: string;
}

async function sample(tree: string, benchArgs: readonly string[], tag: string): Promise<Sample> {
  const run = await timedNode([path.join(tree, "orchestrator/cli/bin.mjs"), "bench", ...benchArgs], { cwd: tree, tag, ownCpu: true });
  if (run.exitCode !== 0) process.stderr.write(`${tree}: bench exited ${run.exitCode}\n${run.stderr.slice(-1500)}\n`);
  const clampLine = run.stderr.split("\n").find((l) => l.includes("clamped to"));
  return { tree, wallSeconds: run.wallSeconds, cpuSeconds: run.cpuSeconds, ownCpuSeconds: run.ownCpuSeconds, workersStarted: run.workersStarted, exitCode: run.exitCode, ...(clampLine ? { clampLine } : {}) };
}

async function main(): Promise<void> {
  const dash = process.argv.indexOf("--");
  const own = dash === -1 ? process.argv.slice(2) : process.argv.slice(2, dash);
  const { values } = parseArgs({
    args: own,
    options: {
      tree: { type: "string", multiple: true },
      rounds: { type: "string" },
      "original-from": { type: "string" },
      "original-cpu": { type: "string" },
      "original-wall": { type: "string" },
    },
  });
  const benchArgs = dash === -1 ? ["--quiet", "--framework", "all-ts"] : process.argv.slice(dash + 1);
  const trees = (values.tree ?? [HERE]).map((t) => path.resolve(t));
  const rounds = Number(values.rounds ?? 1);
  const cores = os.availableParallelism();
  process.stdout.write(`bench ${benchArgs.join(" ")}\n${cores} cores; load average at start ${loadAverage()}\n\n`);
  process.stdout.write("| tree | round | wall (s) | tree CPU (s) | floor: CPU / cores (s) | orchestrator CPU (s) | workers' CPU / cores (s) | workers started | exit | clamp |\n|---|--:|--:|--:|--:|--:|--:|--:|--:|---|\n");
  const original = originalSpec(values, trees);
  const samples: Sample[] = [];
  for (let round = 1; round <= rounds; round++) {
    for (const [i, tree] of trees.entries()) {
      const s = await sample(tree, benchArgs, `${round}-${i}`);
      samples.push(s);
      const own = s.ownCpuSeconds;
      const split = own === undefined ? "— | —" : `${own.toFixed(1)} | ${((s.cpuSeconds - own) / cores).toFixed(1)}`;
      process.stdout.write(`| ${path.basename(s.tree)} | ${round} | ${s.wallSeconds.toFixed(1)} | ${s.cpuSeconds.toFixed(1)} | ${(s.cpuSeconds / cores).toFixed(1)} | ${split} | ${s.workersStarted} | ${s.exitCode} | ${s.clampLine ? s.clampLine.replace(/^arena: /, "").slice(0, 60) : "—"} |\n`);
    }
  }
  process.stdout.write(summary(trees, samples, original));
  process.stdout.write(`\nload average at end ${loadAverage()}\n`);
}

interface Band {
  readonly lo: number;
  readonly hi: number;
}
interface OriginalSpec {
  readonly from: string;
  readonly cpu: Band;
  readonly wall: Band;
}

function band(flag: string, text: string | undefined): Band {
  const m = /^(\d+(?:\.\d+)?):(\d+(?:\.\d+)?)$/.exec(text ?? "");
  if (!m || Number(m[1]) <= 0 || Number(m[1]) > Number(m[2])) throw new Error(`--${flag} takes LO:HI, two ratios with 0 < LO <= HI (got ${text ?? "nothing"})`);
  return { lo: Number(m[1]), hi: Number(m[2]) };
}

function originalSpec(values: Record<string, unknown>, trees: readonly string[]): OriginalSpec | undefined {
  const from = values["original-from"] as string | undefined;
  if (from === undefined) return undefined;
  const resolved = path.resolve(from);
  if (!trees.includes(resolved)) throw new Error(`--original-from ${from} must also be given as a --tree`);
  return { from: resolved, cpu: band("original-cpu", values["original-cpu"] as string), wall: band("original-wall", values["original-wall"] as string) };
}

/** Medians per tree; with an original spec, its derived band and every tree's ratio to it. */
function summary(trees: readonly string[], samples: readonly Sample[], original: OriginalSpec | undefined): string {
  const med = (tree: string, key: "wallSeconds" | "cpuSeconds") => median(samples.filter((s) => s.tree === tree).map((s) => s[key]));
  let out = "\n| tree | median wall (s) | median tree CPU (s) |\n|---|--:|--:|\n";
  for (const t of trees) out += `| ${path.basename(t)} | ${med(t, "wallSeconds").toFixed(2)} | ${med(t, "cpuSeconds").toFixed(2)} |\n`;
  if (!original) return out;
  const wall = med(original.from, "wallSeconds");
  const cpu = med(original.from, "cpuSeconds");
  const o = { wall: { lo: wall / original.wall.hi, hi: wall / original.wall.lo }, cpu: { lo: cpu / original.cpu.hi, hi: cpu / original.cpu.lo } };
  out += `\nthe original, derived (not run): ${path.basename(original.from)}'s medians ÷ the issue's ratios (wall ${original.wall.lo}–${original.wall.hi}×, CPU ${original.cpu.lo}–${original.cpu.hi}×):`;
  out += ` wall ${o.wall.lo.toFixed(2)}–${o.wall.hi.toFixed(2)} s, CPU ${o.cpu.lo.toFixed(2)}–${o.cpu.hi.toFixed(2)} s\n\n`;
  out += "| tree | wall / original's | CPU / original's |\n|---|--:|--:|\n";
  const ratio = (x: number, b: Band) => `${(x / b.hi).toFixed(2)}–${(x / b.lo).toFixed(2)}×`;
  for (const t of trees) out += `| ${path.basename(t)} | ${ratio(med(t, "wallSeconds"), o.wall)} | ${ratio(med(t, "cpuSeconds"), o.cpu)} |\n`;
  return out;
}

await main();
