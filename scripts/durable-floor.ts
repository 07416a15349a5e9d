/**
 * Issue 23, target 2b: `durable_state` with a real restart at every pause against the same run
 * with `--no-restart`, per adapter, beside the floor taken in the same run that no harness change
 * can go under: every restart must start a process that never saw the item, so it costs at least
 * a bare Node that loads the adapter's HTTP client and its framework's packages (no host, no
 * protocol, no IPC: a floor on the low side), with a compile cache of its own warmed before the
 * first round, as a run's workers have theirs (supervisor/sandbox/compile-cache.ts). Each bench runs in a cpuacct cgroup of its own
 * (support/timed-run.ts), alternating with its `--no-restart` twin and the floor, round by round.
 *
 *   node scripts/durable-floor.ts [--rounds N] [--framework NAME]...   (default: the seven
 *   TypeScript adapters of the single-agent matrix, 3 rounds)
 *
 * Per adapter: the medians, the ratio (target ≤ 2.5×), the restarts (workers started beyond the
 * `--no-restart` run's), and the floor ratio, (no-restart CPU + restarts × floor start) ÷
 * no-restart CPU. A floor ratio above 2.5× means the target cannot be met for that adapter while
 * every pause restarts; what each restart costs above its floor is the harness's share.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { findAdapter } from "../contract/catalogue.ts";
import { parseCount } from "../orchestrator/config/values.ts";
import { frameworkImportScript, median } from "./support/measure.ts";
import { loadAverage, timedNode, type TimedRun } from "./support/timed-run.ts";

const REPO = fileURLToPath(new URL("..", import.meta.url));
const BIN = path.join(REPO, "orchestrator/cli/bin.mjs");
const TARGET = 2.5;
const DEFAULT_FRAMEWORKS = ["vanilla", "openai_agents", "langgraph", "ai_sdk", "strands", "google_adk", "mastra"];

interface Samples {
  restart: TimedRun[];
  noRestart: TimedRun[];
  floor: TimedRun[];
}

function floorArgv(framework: string): string[] {
  const entry = findAdapter(framework);
  if (entry === undefined || entry.runtime !== "node") throw new Error(`durable-floor: ${framework} is not a TypeScript adapter of the catalogue`);
  return ["--input-type=module", "-e", frameworkImportScript(entry.packages)];
}

function checked(run: TimedRun, what: string): TimedRun {
  if (run.exitCode !== 0) throw new Error(`durable-floor: ${what} exited ${run.exitCode}\n${run.stderr.slice(-1500)}`);
  return run;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ options: { rounds: { type: "string", default: "3" }, framework: { type: "string", multiple: true } } });
  const rounds = parseCount(values.rounds!, "--rounds");
  const frameworks = values.framework ?? DEFAULT_FRAMEWORKS;
  for (const fw of frameworks) floorArgv(fw); // an unknown name fails before the first bench, not after an hour
  const bench = (fw: string, extra: string[]) => [BIN, "bench", "--quiet", "--arena", "durable_state", "--framework", fw, ...extra];
  const samples = new Map<string, Samples>(frameworks.map((f) => [f, { restart: [], noRestart: [], floor: [] }]));
  const caches = new Map(frameworks.map((f) => [f, mkdtempSync(path.join(os.tmpdir(), `arena-durable-floor-${f}-`))]));
  const floor = (fw: string, tag: string) => timedNode(floorArgv(fw), { cwd: REPO, tag, env: { NODE_COMPILE_CACHE: caches.get(fw)! } });
  // Fills each floor's compile cache; not counted.
  for (const fw of frameworks) checked(await floor(fw, `warm-${fw}`), `${fw} floor`);
  process.stdout.write(`${os.availableParallelism()} cores; load average at start ${loadAverage()}; ${rounds} rounds, ${new Date().toISOString()}\n`);
  for (let round = 1; round <= rounds; round++) {
    for (const fw of frameworks) {
      const s = samples.get(fw)!;
      const tag = `${round}-${fw}`;
      s.restart.push(checked(await timedNode(bench(fw, []), { cwd: REPO, tag: `${tag}-r` }), `${fw} bench`));
      s.noRestart.push(checked(await timedNode(bench(fw, ["--no-restart"]), { cwd: REPO, tag: `${tag}-n` }), `${fw} bench --no-restart`));
      // Three floor starts a round: a start is short, so its median needs more than the benches'.
      for (let i = 0; i < 3; i++) s.floor.push(checked(await floor(fw, `${tag}-f${i}`), `${fw} floor`));
    }
    process.stdout.write(`round ${round} done, load average ${loadAverage()}\n`);
  }
  for (const dir of caches.values()) rmSync(dir, { recursive: true, force: true });
  process.stdout.write(table(frameworks, samples));
  process.stdout.write(`\nload average at end ${loadAverage()}\n`);
}

function table(frameworks: readonly string[], samples: ReadonlyMap<string, Samples>): string {
  const med = (xs: readonly TimedRun[], key: "cpuSeconds" | "wallSeconds" | "workersStarted") => median(xs.map((x) => x[key]));
  let out = "\n| adapter | CPU restart / no-restart (s) | ratio CPU | wall restart / no-restart (s) | ratio wall | restarts | floor start (ms CPU) | CPU per restart (ms) | floor ratio |\n";
  out += "|---|--:|--:|--:|--:|--:|--:|--:|--:|\n";
  const sum = { restart: 0, noRestart: 0, floorCpu: 0, wallR: 0, wallN: 0 };
  for (const fw of frameworks) {
    const s = samples.get(fw)!;
    const [cr, cn] = [med(s.restart, "cpuSeconds"), med(s.noRestart, "cpuSeconds")];
    const [wr, wn] = [med(s.restart, "wallSeconds"), med(s.noRestart, "wallSeconds")];
    const restarts = med(s.restart, "workersStarted") - med(s.noRestart, "workersStarted");
    const floorStart = med(s.floor, "cpuSeconds");
    // A restart that cost less than the bare import (its worker's modules come bundled and cached)
    // is at its floor already: the floor cannot be above what was done.
    const floorCpu = cn + restarts * Math.min(floorStart, (cr - cn) / Math.max(1, restarts));
    const perRestart = restarts > 0 ? ((cr - cn) / restarts) * 1000 : NaN;
    Object.assign(sum, { restart: sum.restart + cr, noRestart: sum.noRestart + cn, floorCpu: sum.floorCpu + floorCpu, wallR: sum.wallR + wr, wallN: sum.wallN + wn });
    const verdict = (r: number) => `${r.toFixed(2)}×${r <= TARGET ? "" : " ✗"}`;
    out += `| ${fw} | ${cr.toFixed(2)} / ${cn.toFixed(2)} | ${verdict(cr / cn)} | ${wr.toFixed(2)} / ${wn.toFixed(2)} | ${verdict(wr / wn)} | ${restarts} | ${(floorStart * 1000).toFixed(0)} | ${perRestart.toFixed(0)} | ${verdict(floorCpu / cn)} |\n`;
  }
  out += `| all (sums of medians) | ${sum.restart.toFixed(2)} / ${sum.noRestart.toFixed(2)} | ${(sum.restart / sum.noRestart).toFixed(2)}× | ${sum.wallR.toFixed(2)} / ${sum.wallN.toFixed(2)} | ${(sum.wallR / sum.wallN).toFixed(2)}× | | | | ${(sum.floorCpu / sum.noRestart).toFixed(2)}× |\n`;
  out += `\n✗: above the target (${TARGET}×). Floor ratio: the no-restart run's CPU plus, per restart, a bare Node loading the adapter's client and framework (measured above) or what a restart cost if that was less, over the no-restart run's CPU.\n`;
  return out;
}

// Bad input and a failed run end in one line naming what, never a stack trace.
await main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
