/**
 * The measured side of scripts/live-scale.ts, started inside its cgroups: one in-process run (this
 * process is the orchestrator, with its gateway and witness) of `--arena` × `--repeat` on
 * `--framework`, every gateway answer held `--hold` seconds, `--inflight` items at once, each worker
 * carrying `--items-per-worker` of them (seats). Prints one JSON line: wall, this process's own CPU,
 * every item's LLM calls (in record order, and in the order the lane dispatched them: for the ideal,
 * the schedule and the floor), the slot-seconds items spent, and how many worker processes started.
 */
import os from "node:os";
import path from "node:path";
import { mkdtempSync, readdirSync } from "node:fs";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { DEFAULTS } from "../../orchestrator/config/arena-config.ts";
import { runArenas } from "../../orchestrator/run/index.ts";
import { findAdapter } from "../../contract/catalogue.ts";
import { dispatchOrder, laneCells, waitsOnProvider } from "../../orchestrator/run/plan.ts";
import { itemKey } from "../../orchestrator/store/journal.ts";

const ROOT = path.resolve(import.meta.dirname, "../..");
const { values } = parseArgs({
  options: {
    arena: { type: "string", default: "tool_use" },
    framework: { type: "string", default: "vanilla" },
    repeat: { type: "string", default: "16" },
    inflight: { type: "string", default: "64" },
    hold: { type: "string", default: "0.5" },
    "items-per-worker": { type: "string", default: "1" },
  },
});

const entry = findAdapter(values.framework!);
if (!entry) throw new Error(`live-scale: no adapter named ${values.framework}`);
const gatewayFaults = { holdSeconds: Number(values.hold) };
const arena = loadArena(path.join(ROOT, "arenas", values.arena!));
const scratch = mkdtempSync(path.join(os.tmpdir(), "arena-live-scale-"));
const cpu0 = process.cpuUsage();
const t0 = performance.now();
const outcome = await runArenas({
  arenas: [arena],
  adapters: [{ name: entry.name, module: entry.module }],
  config: { ...DEFAULTS, repeat: Number(values.repeat) },
  corpusPath: path.join(ROOT, "arenas", "corpus.json"),
  dirs: { logDir: path.join(scratch, "logs"), checkpointRoot: path.join(scratch, "ck") },
  concurrency: Number(values.inflight),
  gatewayFaults,
  itemsPerWorker: Number(values["items-per-worker"]),
});
const wall = (performance.now() - t0) / 1000;
const sum = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0);
const cpu = process.cpuUsage(cpu0);
const items = outcome.records.flatMap((r) => r.frameworks.flatMap((f) => f.items));
// The order the lane handed its cells to the queue (run/plan.ts), with the calls each one made.
const callsOf = new Map(items.map((i) => [itemKey(i.repeat, i.item_id), i.llm_calls]));
const dispatched = dispatchOrder(arena, laneCells(arena.items, Number(values.repeat)), Number(values.inflight), waitsOnProvider(DEFAULTS.mode, gatewayFaults)).map((c) => callsOf.get(itemKey(c.repeat, c.item.id)) ?? 0);
process.stdout.write(
  `${JSON.stringify({
    wall,
    orchestratorCpu: (cpu.user + cpu.system) / 1e6,
    // Split, because system time (syscalls: sockets, the private area's renames) and user time (JavaScript) shrink differently.
    orchestratorUser: cpu.user / 1e6,
    orchestratorSystem: cpu.system / 1e6,
    calls: items.map((i) => i.llm_calls),
    dispatched,
    // Slot-seconds, summed over items: where a slot's time went while it held an item.
    inItems: sum(outcome.timings.map((t) => t.wallSeconds + t.scoreSeconds + t.witnessSeconds)),
    inSeatWaits: sum(outcome.timings.map((t) => t.seatSeconds)),
    inAdapters: sum(outcome.timings.map((t) => t.adapterSeconds)),
    passed: items.filter((i) => i.passed).length,
    errors: items.filter((i) => i.error !== null).map((i) => i.error).slice(0, 3),
    workers: readdirSync(path.join(scratch, "logs")).length,
  })}\n`,
);
