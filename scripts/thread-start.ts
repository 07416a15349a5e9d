/**
 * What one scoring thread costs to start: a bare worker thread, and one that loads the scorer as
 * piscina's would (orchestrator/scoring/worker.ts, with a compile cache, as the CLI hands its
 * threads one; the first runs fill it), each
 * timed in a fresh process by the process's own CPU (threads included) from just before the thread
 * is made until it has exited. Alternating, medians. Why the scorer tries the loop first
 * (orchestrator/scoring/watchdog.ts).
 *
 * Usage: node scripts/thread-start.ts [--runs N]
 */
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { execa } from "execa";
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
      env: { NODE_COMPILE_CACHE: path.join(os.tmpdir(), "arena-thread-start-cache") },
    });
    cpu[kind].push(Number(run.stdout.trim()));
  }
}
for (const kind of kinds) {
  const xs = [...cpu[kind]].sort((a, b) => a - b);
  process.stdout.write(`${kind === "bare" ? "a bare worker thread" : "a thread loading the scorer"}: median ${median(xs).toFixed(1)} ms of CPU (${xs[0]!.toFixed(1)}–${xs.at(-1)!.toFixed(1)})\n`);
}
process.stdout.write(`load average at end ${loadAverage()}\n`);
