/**
 * What each route of scoring costs (orchestrator/run/scorer.ts):
 *
 * - a scoring thread's start: a bare worker thread, and one that loads the scorer as piscina's
 *   would (orchestrator/scoring/worker.ts, with a compile cache, as the CLI hands its threads one;
 *   the first runs fill it), each timed in a fresh process by the process's own CPU (threads
 *   included) from just before the thread is made until it has exited; alternating, medians;
 * - a call under the watchdog (orchestrator/scoring/watchdog.ts): 1,000 calls of a quick pattern,
 *   CPU per call, and how long the watchdog takes to stop `(a+)+$` on 40 `a`s and a `!` with a
 *   20 ms budget (run to its end, that pattern takes far longer than any budget).
 *
 * Usage: node scripts/scoring-routes.ts [--runs N]
 */
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { execa } from "execa";
import { pySearch } from "@agentic-arena/py-semantics/regex";
import { runUnderWatchdog } from "../orchestrator/scoring/watchdog.ts";
import { median } from "./support/measure.ts";
import { loadAverage } from "./support/timed-run.ts";

const { values } = parseArgs({ options: { runs: { type: "string", default: "15" } } });
const SCORER = new URL("../orchestrator/scoring/worker.ts", import.meta.url).href;
/** Runs in the measured process: makes the thread, waits for it to exit, prints its CPU in ms. */
const PROBE = `
const { Worker } = require("node:worker_threads");
const load = process.argv[1] === "scorer";
const t0 = process.cpuUsage();
const body = load ? "import(" + JSON.stringify(${JSON.stringify(SCORER)}) + ").then(() => require('node:worker_threads').parentPort.postMessage(1))" : "require('node:worker_threads').parentPort.postMessage(1)";
const w = new Worker(body, { eval: true });
w.once("message", () => w.terminate());
w.once("exit", () => { const t = process.cpuUsage(t0); console.log(((t.user + t.system) / 1000).toFixed(2)); });
`;

const kinds = ["bare", "scorer"] as const;
const cpu: Record<(typeof kinds)[number], number[]> = { bare: [], scorer: [] };
process.stdout.write(`${values.runs} alternating runs, load average at start ${loadAverage()}\n`);
for (let i = 0; i < Number(values.runs); i++) {
  for (const kind of kinds) {
    const run = await execa(process.execPath, ["-e", PROBE, kind], {
      cwd: fileURLToPath(new URL("..", import.meta.url)),
      // The process and its thread read it from the environment, as the CLI's threads do (regex-threads.ts).
      env: { NODE_COMPILE_CACHE: path.join(os.tmpdir(), "arena-scoring-routes-cache") },
    });
    cpu[kind].push(Number(run.stdout.trim()));
  }
}
for (const kind of kinds) {
  const xs = [...cpu[kind]].sort((a, b) => a - b);
  process.stdout.write(`${kind === "bare" ? "a bare worker thread" : "a thread loading the scorer"}: median ${median(xs).toFixed(1)} ms of CPU (${xs[0]!.toFixed(1)}–${xs.at(-1)!.toFixed(1)})\n`);
}

pySearch("(did not book|denied)", "warm the pattern cache");
const cpu0 = process.cpuUsage();
for (let i = 0; i < 1_000; i++) runUnderWatchdog(() => pySearch("(did not book|denied)", "I did not book it"), 5_000);
const per = process.cpuUsage(cpu0);
process.stdout.write(`a call under the watchdog: ${((per.user + per.system) / 1_000 / 1_000).toFixed(3)} ms of CPU each (1,000 calls)\n`);
const stops: number[] = [];
for (let i = 0; i < 5; i++) {
  const t0 = performance.now();
  const watched = runUnderWatchdog(() => pySearch("(a+)+$", `${"a".repeat(40)}!`), 20);
  if (watched.finished) throw new Error("the watchdog did not stop (a+)+$");
  stops.push(performance.now() - t0);
}
process.stdout.write(`stopping (a+)+$ with a 20 ms budget: ${stops.map((x) => x.toFixed(1)).join(", ")} ms\n`);
process.stdout.write(`load average at end ${loadAverage()}\n`);
