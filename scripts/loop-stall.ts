/**
 * How long an `arena bench` holds the orchestrator's event loop, the loop that also serves the mock
 * gateway and clocks every item: while it is held, every leg in flight waits, and its latency grows
 * by the wait. Each tree's bench runs with support/loop-monitor.mjs preloaded, alternating between
 * trees round by round; per run it gives how many times a gap between the monitor's 2 ms ticks
 * reached 10 ms, their total and the longest (a command's start and end hold the loop too, the
 * same in every tree).
 *
 * Usage: node scripts/loop-stall.ts [--tree DIR]... [--rounds N] [-- <bench args>]
 *        default: this checkout, 3 rounds, `--quiet --framework vanilla --arena durable_state`
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { execa } from "execa";
import { median } from "./support/measure.ts";
import { loadAverage } from "./support/timed-run.ts";

const HERE = fileURLToPath(new URL("..", import.meta.url));
const MONITOR = fileURLToPath(new URL("./support/loop-monitor.mjs", import.meta.url));
const dash = process.argv.indexOf("--");
const { values } = parseArgs({ args: dash === -1 ? process.argv.slice(2) : process.argv.slice(2, dash), options: { tree: { type: "string", multiple: true }, rounds: { type: "string" } } });
const benchArgs = dash === -1 ? ["--quiet", "--framework", "vanilla", "--arena", "durable_state"] : process.argv.slice(dash + 1);
const trees = (values.tree ?? [HERE]).map((t) => path.resolve(t));
const rounds = Number(values.rounds ?? 3);

interface Held {
  readonly count: number;
  readonly totalMs: number;
  readonly longestMs: number;
  readonly exitCode: number;
}

async function once(tree: string): Promise<Held> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "arena-loop-stall-"));
  try {
    const out = path.join(scratch, "gaps.json");
    const run = await execa(process.execPath, [path.join(tree, "orchestrator/cli/bin.mjs"), "bench", ...benchArgs], {
      cwd: tree,
      reject: false,
      env: { ARENA_OUTPUT_ROOT: path.join(scratch, "out"), ARENA_LOOP_MONITOR_OUT: out, NODE_OPTIONS: `--import ${MONITOR}` },
    });
    const { gaps } = JSON.parse(readFileSync(out, "utf8")) as { gaps: number[] };
    return { count: gaps.length, totalMs: gaps.reduce((a, b) => a + b, 0), longestMs: Math.max(0, ...gaps), exitCode: run.exitCode ?? -1 };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

process.stdout.write(`bench ${benchArgs.join(" ")}\nload average at start ${loadAverage()}\n\n| tree | round | holds ≥ 10 ms | held in all (ms) | longest (ms) | exit |\n|---|--:|--:|--:|--:|--:|\n`);
const all = new Map<string, Held[]>();
for (let round = 1; round <= rounds; round++) {
  for (const tree of trees) {
    const held = await once(tree);
    (all.get(tree) ?? all.set(tree, []).get(tree)!).push(held);
    process.stdout.write(`| ${path.basename(tree)} | ${round} | ${held.count} | ${held.totalMs.toFixed(0)} | ${held.longestMs.toFixed(0)} | ${held.exitCode} |\n`);
  }
}
process.stdout.write("\n| tree | median holds | median held in all (ms) | median longest (ms) |\n|---|--:|--:|--:|\n");
for (const [tree, xs] of all) {
  process.stdout.write(`| ${path.basename(tree)} | ${median(xs.map((x) => x.count))} | ${median(xs.map((x) => x.totalMs)).toFixed(0)} | ${median(xs.map((x) => x.longestMs)).toFixed(0)} |\n`);
}
process.stdout.write(`\nload average at end ${loadAverage()}\n`);
