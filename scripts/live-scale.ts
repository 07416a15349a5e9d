/**
 * Live at scale (issue 23, target 4): a run with many items in flight against a gateway that
 * holds every answer like a provider does, next to a floor taken in the same invocation.
 *
 *   pnpm exec node scripts/live-scale.ts [--inflight 64] [--hold 0.5] [--repeat 16] [--arena tool_use] [--framework vanilla] [--items-per-worker 1]
 *
 * The run: the mock gateway holds each answer `--hold` s (`holdSeconds`), `--inflight` items at
 * once (scripts/live-scale/child.ts), each worker carrying `--items-per-worker` of them. Ideal wall
 * = Σ(item's LLM calls × hold) / inflight: every call waiting, nothing else costing anything.
 * Throughput = ideal / measured. Items start whole, so the ideal is out of reach when their calls
 * do not pack evenly onto the slots: the script also prints the wall a zero-overhead run would
 * take in the order the lane dispatched them, and where the run's slot-seconds went (in the
 * adapters, in the rest of the items' legs, scoring and witness, idle).
 *
 * The floor (scripts/live-scale/floor-child.ts) makes the same calls in the same order against a
 * bare held server, from as many bare `node` processes as the run's workers, `--items-per-worker`
 * slots each (or a process per item at 1), with the baseline's client for vanilla and fetch's for
 * a framework: what this machine gives that shape of run before any of ours.
 *
 * CPU and memory are the whole tree's, from cgroups each step is started inside (cgroup v1 cpuacct
 * and memory; see scripts/live-scale/tree.ts): rusage would miss workers SIGKILLed inside bwrap.
 * Memory is given three ways, since they answer different questions: the cgroup's peak (what the
 * kernel charged, page cache included), the largest Σ RSS and Σ PSS sampled over the tree (shared
 * pages counted in every process, and split between them).
 */
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { measureTree } from "./live-scale/tree.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    inflight: { type: "string", default: "64" },
    hold: { type: "string", default: "0.5" },
    repeat: { type: "string", default: "16" },
    arena: { type: "string", default: "tool_use" },
    framework: { type: "string", default: "vanilla" },
    "items-per-worker": { type: "string", default: "1" },
    /** Skip the floor: for a sweep that only needs the run's figures. */
    "no-floor": { type: "boolean", default: false },
  },
});
const inflight = Number(values.inflight);
const hold = Number(values.hold);
const node = process.execPath;
const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;

console.error(`machine: ${os.cpus().length} cores, ${mib(os.totalmem())}, node ${process.versions.node}, load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);

const perWorker = values["items-per-worker"]!;
/** The floor's client: the baseline's node:http, else fetch's (every framework SDK's). */
const client = values.framework === "vanilla" ? "http" : "fetch";
const runArgs = ["--arena", values.arena!, "--framework", values.framework!, "--repeat", values.repeat!, "--inflight", String(inflight), "--hold", String(hold), "--items-per-worker", perWorker];
const run = await measureTree("run", [node, path.join(ROOT, "scripts/live-scale/child.ts"), ...runArgs], "");
const result = JSON.parse(run.stdout) as {
  wall: number;
  orchestratorCpu: number;
  calls: number[];
  dispatched: number[];
  inItems: number;
  inSeatWaits: number;
  inAdapters: number;
  passed: number;
  errors: string[];
  workers: number;
};
// A floor that fails (a loaded machine) costs the floor column, not the run's figures.
const floor = values["no-floor"]
  ? undefined
  : await measureTree("floor", [node, path.join(ROOT, "scripts/live-scale/floor-child.ts"), "--inflight", String(inflight), "--hold", String(hold), "--items-per-worker", perWorker, "--client", client], JSON.stringify(result.dispatched)).catch(
      (err: Error) => void console.error(`floor failed: ${err.message.split("\n")[0]}`),
    );
const floorWall = floor ? (JSON.parse(floor.stdout) as { wall: number }).wall : NaN;
/** A floor figure, or a dash when the floor was skipped. */
const f = (value: (m: NonNullable<typeof floor>) => string) => (floor ? value(floor) : "—");

const ideal = result.calls.reduce((s, n) => s + n * hold, 0) / inflight;

/**
 * The wall of a zero-overhead run of `calls` handed to `slots` in this order: each item starts
 * on the first slot free and takes its calls × hold. The ideal assumes the calls pack perfectly
 * onto the slots; no dispatcher that starts items whole can beat this for its order.
 */
function scheduled(calls: readonly number[], slots: number): number {
  const free = new Array<number>(slots).fill(0);
  for (const n of calls) {
    const i = free.indexOf(Math.min(...free));
    free[i]! += n * hold;
  }
  return Math.max(...free);
}
const inOrder = scheduled(result.dispatched, inflight);
const datasetOrder = scheduled(result.calls, inflight);
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
const held = result.calls.reduce((s, n) => s + n * hold, 0);
const slots = (x: number) => x.toFixed(1);
const rows: [string, string, string][] = [
  ["items / LLM calls", `${result.calls.length} / ${result.calls.reduce((a, b) => a + b, 0)} (${result.passed} passed)`, "same calls"],
  ["worker processes started", String(result.workers), f(() => (Number(perWorker) > 1 ? `${Math.ceil(inflight / Number(perWorker))} (${perWorker} slots each)` : `${result.calls.length} (one per item)`))],
  ["wall (ideal " + ideal.toFixed(2) + " s)", `${result.wall.toFixed(2)} s`, f(() => `${floorWall.toFixed(2)} s`)],
  ["throughput, % of ideal", pct(ideal / result.wall), f(() => pct(ideal / floorWall))],
  [`zero-overhead wall in the order dispatched (dataset order: ${datasetOrder.toFixed(2)} s)`, `${inOrder.toFixed(2)} s (${pct(ideal / inOrder)} of ideal)`, "—"],
  ["throughput, % of that schedule", pct(inOrder / result.wall), f(() => pct(inOrder / floorWall))],
  ["slot-seconds: all / held calls / in adapters above them", `${slots(result.wall * inflight)} / ${slots(held)} / ${slots(result.inAdapters - held)}`, "—"],
  ["slot-seconds: waiting for a seat / rest of the items / idle", `${slots(result.inSeatWaits)} / ${slots(result.inItems - result.inAdapters - result.inSeatWaits)} / ${slots(result.wall * inflight - result.inItems)}`, "—"],
  ["orchestrator CPU, % of a core", pct(result.orchestratorCpu / result.wall), "—"],
  ["tree CPU (cgroup)", `${run.cpuSeconds.toFixed(2)} s`, f((m) => `${m.cpuSeconds.toFixed(2)} s`)],
  ["peak memory, cgroup", mib(run.peakCgroupBytes), f((m) => mib(m.peakCgroupBytes))],
  ["peak Σ RSS / Σ PSS, sampled", `${mib(run.peakRssBytes)} / ${mib(run.peakPssBytes)}`, f((m) => `${mib(m.peakRssBytes)} / ${mib(m.peakPssBytes)}`)],
  ["Σ PSS per in-flight item", mib(run.peakPssBytes / inflight), f((m) => mib(m.peakPssBytes / inflight))],
];
console.log(`| ${values.framework}, ${values.arena} × ${values.repeat}, ${inflight} in flight, hold ${hold} s, ${perWorker} item(s) per worker | run | floor |`);
console.log("|---|--:|--:|");
for (const r of rows) console.log(`| ${r.join(" | ")} |`);
if (result.errors.length > 0) console.log(`\nerrors (first 3): ${result.errors.join(" · ")}`);
