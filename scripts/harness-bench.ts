/**
 * Harness benchmark (issue 4 targets): is process isolation cheap enough?
 *
 *   node scripts/harness-bench.ts [--runs N]
 *
 * 1. `arena bench --framework vanilla` over our seven arenas: CLI wall time, process start included.
 * 2. `arena run --arena tool_use --framework vanilla --repeat 10`: CLI wall time.
 * 3. Per-item harness overhead (orchestrator + IPC + scoring on top of the adapter's own time),
 *    in-process, concurrency 1, tool_use × 10; then the floor under (2): the same number of LLM
 *    calls made with fetch from a fresh process to a bare server (see transportFloor).
 * 4. What durable restarts cost: durable_state with a real restart at every pause vs the same
 *    run resumed in-process (the test-only switch), wall time of the run — once at full mock
 *    speed (CPU-bound: nothing waits, so every process start is paid in full) and once with
 *    every gateway reply held 50 ms (`stallSeconds`, standing in for a provider's latency).
 * 5. The floor under (4): what starting one worker costs (spawn → ready → built), wall and CPU,
 *    next to a bare `node -e 0`.
 *
 * Medians over N runs (default 5). Figures go into docs/performance.md by hand, with this command.
 */
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import http from "node:http";
import { parseArgs } from "node:util";
import { execa } from "execa";
import { loadArena } from "../orchestrator/arena/load.ts";
import { DEFAULTS } from "../orchestrator/config/arena-config.ts";
import { runArenas, type RunOptions } from "../orchestrator/run/index.ts";
import { isFailure } from "../orchestrator/supervisor/failure.ts";
import { WorkerProcess } from "../orchestrator/supervisor/worker-process.ts";
import { findAdapter } from "../contract/catalogue.ts";
import { toJs } from "@agentic-arena/py-semantics";
import { mkdirSync, mkdtempSync, readFileSync } from "node:fs";
import { COLD_START_ARENA, coldStartConfig, median } from "./support/measure.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({ options: { runs: { type: "string", default: "5" } } });
const RUNS = Number(values.runs);


async function cliWall(args: string[]): Promise<number> {
  const t0 = performance.now();
  await execa(process.execPath, [path.join(ROOT, "orchestrator/cli/bin.mjs"), ...args], { cwd: ROOT, reject: true });
  return (performance.now() - t0) / 1000;
}

function dirs() {
  const root = mkdtempSync(path.join(os.tmpdir(), "arena-bench-"));
  return { logDir: path.join(root, "logs"), checkpointRoot: path.join(root, "ck") };
}

const vanilla = findAdapter("vanilla")!;
const adapters = [{ name: vanilla.name, module: vanilla.module }];
const corpusPath = path.join(ROOT, "arenas", "corpus.json");

type Extra = Pick<RunOptions, "reuseWorkerAcrossPause" | "concurrency" | "gatewayFaults">;

async function inProcess(arenaId: string, repeat: number, extra: Extra = {}) {
  const t0 = performance.now();
  const outcome = await runArenas({
    arenas: [loadArena(path.join(ROOT, "arenas", arenaId))],
    adapters,
    config: { ...DEFAULTS, repeat },
    corpusPath,
    dirs: dirs(),
    ...extra,
  });
  if (outcome.failedItems > 0) throw new Error(`${arenaId}: ${outcome.failedItems} item(s) failed`);
  return { wall: (performance.now() - t0) / 1000, outcome };
}

const results: Record<string, string> = {};
console.error(`machine: ${os.cpus().length} cores, node ${process.versions.node}, load ${os.loadavg().map((l) => l.toFixed(2)).join(" ")}`);

await cliWall(["bench", "--framework", "vanilla"]); // warm the compile cache
const bench: number[] = [];
for (let i = 0; i < RUNS; i++) bench.push(await cliWall(["bench", "--framework", "vanilla"]));
results["arena bench --framework vanilla (7 arenas, 98 items), wall"] = `${median(bench).toFixed(2)} s (median of ${RUNS}; min ${Math.min(...bench).toFixed(2)})`;

const rep: number[] = [];
for (let i = 0; i < RUNS; i++) rep.push(await cliWall(["run", "--arena", "tool_use", "--framework", "vanilla", "--repeat", "10"]));
results["arena run --arena tool_use --framework vanilla --repeat 10, wall"] = `${median(rep).toFixed(2)} s (median of ${RUNS}; min ${Math.min(...rep).toFixed(2)})`;

// The default is one item in flight per core; in mock mode the gateway shares the orchestrator's
// thread, so on a small machine one fewer can be faster. Shown, not chosen for the user.
if (os.availableParallelism() > 1) {
  const fewer = String(os.availableParallelism() - 1);
  const bench1: number[] = [];
  const rep1: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    bench1.push(await cliWall(["bench", "--framework", "vanilla", "--concurrency", fewer]));
    rep1.push(await cliWall(["run", "--arena", "tool_use", "--framework", "vanilla", "--repeat", "10", "--concurrency", fewer]));
  }
  results[`the same two with --concurrency ${fewer}`] = `bench ${median(bench1).toFixed(2)} s, tool_use x10 ${median(rep1).toFixed(2)} s (medians of ${RUNS})`;
}

const overheads: number[] = [];
const adapterMeans: number[] = [];
for (let i = 0; i < RUNS; i++) {
  const { outcome } = await inProcess("tool_use", 10, { concurrency: 1 });
  const t = outcome.timings;
  overheads.push(t.reduce((a, x) => a + x.wallSeconds - x.adapterSeconds + x.scoreSeconds + x.witnessSeconds, 0) / t.length);
  adapterMeans.push(t.reduce((a, x) => a + x.adapterSeconds, 0) / t.length);
}
results["per-item harness overhead (orchestrator + IPC + scoring), tool_use x10, concurrency 1"] =
  `${(median(overheads) * 1000).toFixed(2)} ms (adapter's own time ${(median(adapterMeans) * 1000).toFixed(2)} ms/item)`;

{
  const requests = (await inProcess("tool_use", 10, { concurrency: 1 })).outcome.gatewayRecords.get("tool_use")!.requests;
  const meanBytes = Math.round(requests.reduce((a, r) => a + JSON.stringify(toJs(r.body)).length, 0) / requests.length);
  const floors: number[] = [];
  for (let i = 0; i < RUNS; i++) floors.push(await transportFloor(requests.length, meanBytes));
  results["transport floor for tool_use x10: a fresh node making its LLM calls with fetch to a bare server"] =
    `${median(floors).toFixed(2)} s (${requests.length} sequential POSTs of ${meanBytes} bytes, median of ${RUNS})`;
}

/**
 * The transport floor under target 2: a fresh Node process making the same number of sequential
 * `fetch` POSTs (bodies of the run's mean request size) to a bare node:http server in this
 * process that answers each with a fixed 400-byte reply. No gateway logic, no adapter loop, no
 * IPC, no scoring: what the run's LLM calls cost on this machine before the harness does anything.
 */
async function transportFloor(calls: number, bodyBytes: number): Promise<number> {
  const reply = JSON.stringify({ choices: [{ message: { role: "assistant", content: "x".repeat(300) } }], usage: { prompt_tokens: 1, completion_tokens: 1 } });
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(reply));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  const client = `const body = "x".repeat(${bodyBytes});
for (let i = 0; i < ${calls}; i++) await (await fetch("http://127.0.0.1:${port}/v1/chat/completions", { method: "POST", headers: { "content-type": "application/json" }, body })).text();`;
  const t0 = performance.now();
  await execa(process.execPath, ["--input-type=module", "-e", client]);
  const wall = (performance.now() - t0) / 1000;
  server.close();
  return wall;
}

async function restartCost(label: string, extra: Extra) {
  const restart: number[] = [];
  const reuse: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    restart.push((await inProcess("durable_state", 1, extra)).wall);
    reuse.push((await inProcess("durable_state", 1, { ...extra, reuseWorkerAcrossPause: true })).wall);
  }
  const r = median(restart);
  const u = median(reuse);
  results[`durable_state run wall, ${label}: real restart at every pause vs resumed in-process`] =
    `${r.toFixed(3)} s vs ${u.toFixed(3)} s (+${(((r - u) / u) * 100).toFixed(0)}%)`;
}
await restartCost("full mock speed", {});
await restartCost("50 ms per gateway reply", { gatewayFaults: { stallSeconds: 0.05 } });

/** CPU seconds a process has used so far (Linux /proc; fields 14 and 15 are utime and stime in ticks). */
function cpuSecondsOf(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const starts: { wall: number; cpu: number }[] = [];
const { logDir: runsDir } = dirs();
mkdirSync(runsDir, { recursive: true });
for (let i = 0; i < RUNS * 4; i++) {
  const t0 = performance.now();
  const { worker, failure } = await WorkerProcess.start({ id: `w${i}`, adapter: adapters[0]!, corpusPath, logFile: path.join(runsDir, "start.log") });
  const built = failure ?? (await worker.build({
    arena: COLD_START_ARENA,
    config: coldStartConfig("m"),
    tag: "bench",
  }));
  const wall = (performance.now() - t0) / 1000;
  if (isFailure(built) || !built.ok) throw new Error(`worker did not build: ${JSON.stringify(built)}`);
  starts.push({ wall, cpu: cpuSecondsOf(worker.pid!) });
  await worker.kill();
}
const bare: number[] = [];
for (let i = 0; i < RUNS * 4; i++) {
  const t0 = performance.now();
  await execa(process.execPath, ["-e", "0"]);
  bare.push((performance.now() - t0) / 1000);
}
results["one worker start (spawn → ready → built, vanilla), wall / CPU"] =
  `${(median(starts.map((s) => s.wall)) * 1000).toFixed(0)} ms / ${(median(starts.map((s) => s.cpu)) * 1000).toFixed(0)} ms (bare \`node -e 0\`: ${(median(bare) * 1000).toFixed(0)} ms wall)`;

for (const [k, v] of Object.entries(results)) console.log(`${k}: ${v}`);
