/**
 * Worker memory: how much resident memory one worker process of each adapter takes, so that
 * `--concurrency` can be bounded by what the machine has (orchestrator/config/concurrency.ts).
 *
 *   pnpm exec node scripts/worker-memory.ts [--items N|all] [--repeat N] [--runs N] [--arena ID]... [--framework NAME]...
 *
 * For every adapter in the catalogue it starts the real worker host the way a run does
 * (WorkerProcess → workers/host.ts over IPC), builds it for the arenas it serves and runs the
 * first N items of each (default all, as a bench does; durable pauses are resumed on the same
 * process) against the mock gateway, reading the worker's /proc/<pid>/status:
 *
 * - `ready`: VmRSS once the host reported ready (Node, zod, the fetch client; no adapter yet);
 * - `tool_use`: VmHWM (peak RSS) after the first arena was built and its items ran;
 * - `every arena`: VmHWM after all the adapter's arenas — in a bench one worker serves every
 *   arena of the run and keeps a runner for each, so this is the figure a bench must budget for.
 *
 * `--repeat N` runs those items N times over (as `arena bench --repeat N` would on one worker).
 * With `--arena`, only those arenas (in that order); with `--framework`, only those adapters.
 * Each adapter is measured `--runs` times (default 1) on a fresh process and the largest figure
 * kept. Linux only (/proc). Figures go into docs/performance.md ("Worker memory") by hand.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { loadArena } from "../orchestrator/arena/load.ts";
import type { Arena } from "../orchestrator/arena/schemas.ts";
import { DEFAULTS } from "../orchestrator/config/arena-config.ts";
import { parseCount } from "../orchestrator/config/values.ts";
import { startRunGateway, type RunGateway } from "../orchestrator/run/run-gateway.ts";
import { isFailure } from "../orchestrator/supervisor/failure.ts";
import { WorkerProcess } from "../orchestrator/supervisor/worker-process.ts";
import { ADAPTER_CATALOG, type CatalogEntry } from "../contract/catalogue.ts";
import type { Json } from "../contract/protocol.ts";

const ROOT = path.resolve(import.meta.dirname, "..");
const { values } = parseArgs({
  options: {
    items: { type: "string", default: "all" },
    runs: { type: "string", default: "1" },
    repeat: { type: "string", default: "1" },
    framework: { type: "string", multiple: true },
    arena: { type: "string", multiple: true },
  },
});
const ITEMS = values.items === "all" ? Number.POSITIVE_INFINITY : parseCount(values.items, "--items");
const RUNS = parseCount(values.runs, "--runs");
const REPEAT = parseCount(values.repeat, "--repeat");
const MIB = 1024 * 1024;

/** VmRSS and VmHWM of a live process, in bytes (the kernel reports kB). */
function memoryOf(pid: number): { rss: number; hwm: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? Number.NaN) * 1024;
  return { rss: kb("VmRSS"), hwm: kb("VmHWM") };
}

const allArenas = new Map<string, Arena>();
const arenaDir = path.join(ROOT, "arenas");
for (const id of ["tool_use", "rag", "structured_output", "resilience", "human_in_the_loop", "durable_state", "multi_agent"]) {
  allArenas.set(id, loadArena(path.join(arenaDir, id)));
}

/** The arenas a bench would hand this adapter's workers, tool_use first. */
function arenasFor(entry: CatalogEntry): Arena[] {
  const ids = values.arena ?? (entry.arenas ? [...entry.arenas] : [...allArenas.keys()]);
  return ids.map((id) => allArenas.get(id) ?? loadArena(path.join(arenaDir, id)));
}

const gateways = new Map<string, RunGateway>();
async function gatewayFor(arena: Arena): Promise<RunGateway> {
  let g = gateways.get(arena.id);
  if (!g) gateways.set(arena.id, (g = await startRunGateway(arena, DEFAULTS)));
  return g;
}

interface Sample {
  readonly ready: number;
  readonly first: number;
  readonly all: number;
  readonly rssEnd: number;
  readonly items: number;
  readonly failed: string[];
}

async function measure(entry: CatalogEntry, scratch: string, run: number): Promise<Sample> {
  const logFile = path.join(scratch, `${entry.name}-${run}.log`);
  const started = await WorkerProcess.start({
    id: `w${run}`,
    adapter: { name: entry.name, module: entry.module },
    corpusPath: path.join(arenaDir, "corpus.json"),
    logFile,
  });
  const worker = started.worker;
  if (started.failure) throw new Error(`${entry.name}: worker did not start: ${started.failure.message}`);
  const pid = worker.pid!;
  const ready = memoryOf(pid).rss;
  let first = 0;
  let items = 0;
  const failed: string[] = [];
  try {
    for (const [index, arena] of arenasFor(entry).entries()) {
      const gateway = await gatewayFor(arena);
      const tag = `${entry.name}__${arena.id}__w${run}`;
      const built = await worker.build({
        arena: { id: arena.id, tools: [...arena.declaredTools], systemPrompt: arena.systemPrompt, durable: arena.durable },
        config: {
          model: DEFAULTS.model,
          baseUrl: gateway.baseUrlFor(tag),
          apiKey: "mock-key",
          temperature: DEFAULTS.temperature,
          requestTimeoutS: DEFAULTS.requestTimeoutS,
          maxToolIterations: DEFAULTS.maxToolIterations,
        },
        tag,
      });
      if (isFailure(built)) throw new Error(`${entry.name}/${arena.id}: build: ${built.message}`);
      if (!built.ok) throw new Error(`${entry.name}/${arena.id}: not available: ${built.reason}`);
      for (const item of Array.from({ length: REPEAT }, () => arena.items.slice(0, ITEMS)).flat()) {
        const checkpointDir = path.join(scratch, `ck-${entry.name}-${run}-${arena.id}-${items}`);
        const work = { id: item.id, input: item.input, resume_with: item.resume_with, checkpointDir };
        let leg = await worker.run(arena.id, work, 60_000);
        for (let resumes = 0; leg.kind === "suspended" && resumes < 3; resumes++) {
          const decision = item.resume_with === "deny" ? "deny" : "approve";
          leg = await worker.resume(arena.id, work, leg.result.resume_state as Json, decision, 60_000);
        }
        items += 1;
        // Memory is what is measured here, and an adapter error still ran the adapter (resilience
        // items make some frameworks error by design); they are listed so the table says so.
        if (isFailure(leg)) throw new Error(`${entry.name}/${arena.id}/${item.id}: ${leg.message}`);
        if (leg.kind === "error" || leg.result.error) failed.push(`${arena.id}/${item.id}`);
      }
      if (index === 0) first = memoryOf(pid).hwm;
    }
    const end = memoryOf(pid);
    return { ready, first, all: end.hwm, rssEnd: end.rss, items, failed };
  } finally {
    await worker.stop();
  }
}

const mib = (bytes: number) => (bytes / MIB).toFixed(0);
const scratch = mkdtempSync(path.join(os.tmpdir(), "arena-worker-memory-"));
console.error(`node ${process.versions.node}, ${os.cpus().length} cores, ${(os.totalmem() / 1024 ** 3).toFixed(1)} GiB RAM; ${values.items} item(s) per arena × ${REPEAT}, ${RUNS} run(s), max kept`);
const rows: string[] = [];
let largest = { name: "", bytes: 0 };
try {
  for (const entry of ADAPTER_CATALOG.filter((e) => !values.framework || values.framework.includes(e.name))) {
    const samples: Sample[] = [];
    for (let run = 0; run < RUNS; run++) samples.push(await measure(entry, scratch, run));
    const max = (pick: (s: Sample) => number) => Math.max(...samples.map(pick));
    const arenas = arenasFor(entry).map((a) => a.id);
    const failed = [...new Set(samples.flatMap((s) => s.failed))];
    rows.push(
      `| \`${entry.name}\` | ${mib(max((s) => s.ready))} | ${mib(max((s) => s.first))} (${arenas[0]}) | ` +
        `${mib(max((s) => s.all))} (${arenas.length} arena${arenas.length > 1 ? "s" : ""}, ${samples[0]!.items} items) | ` +
        `${mib(max((s) => s.rssEnd))} | ${failed.length > 0 ? `adapter error on ${failed.join(", ")}` : ""} |`,
    );
    if (max((s) => s.all) > largest.bytes) largest = { name: entry.name, bytes: max((s) => s.all) };
    console.error(`${entry.name}: done`);
  }
} finally {
  await Promise.all([...gateways.values()].map((g) => g.stop()));
  rmSync(scratch, { recursive: true, force: true });
}

console.log("| adapter | RSS at ready (MiB) | peak RSS after first arena (MiB) | peak RSS after every arena (MiB) | RSS at end (MiB) | notes |");
console.log("|---|--:|--:|--:|--:|---|");
for (const row of rows) console.log(row);
console.log(`\nlargest peak: ${largest.name}, ${mib(largest.bytes)} MiB`);
