/**
 * What a durable restart costs an item, per adapter: the harness's clock for the whole item minus
 * its legs' own clocks is the time spent between legs (the SIGKILL at the pause, taking the folder
 * to a fresh worker, and whatever of that worker's start was not already done), per pause. Beside
 * it, the adapter's cold start (spawn → ready → built): where the gap is far below the cold start,
 * the warm spare (a worker started and built while the item ran, orchestrator/supervisor/pool.ts)
 * hid the start, the framework's import included.
 *
 *   node scripts/restart-gap.ts [--framework NAME]... [--runs N]
 *
 * Default: every catalogue adapter that can pause, on `durable_state`, concurrency 1.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { ADAPTER_CATALOG } from "../contract/catalogue.ts";
import { DEFAULT_CORPUS_PATH } from "../contract/tools/corpus-path.ts";
import { loadArena } from "../orchestrator/arena/load.ts";
import { DEFAULTS } from "../orchestrator/config/arena-config.ts";
import { WITHOUT_RESUME } from "../orchestrator/probes/declarations.ts";
import { runArenas } from "../orchestrator/run/index.ts";
import { coldStartMs, median } from "./support/measure.ts";

const { values } = parseArgs({ options: { framework: { type: "string", multiple: true }, runs: { type: "string", default: "3" } } });
const arena = loadArena(path.resolve(import.meta.dirname, "../arenas/durable_state"));
const entries = ADAPTER_CATALOG.filter((e) => (values.framework ? values.framework.includes(e.name) : e.arenas === undefined && !WITHOUT_RESUME.has(e.name)));

process.stdout.write("| adapter | runtime | pauses | gap per pause (ms, median) | gap max (ms) | cold start (ms, median) |\n|---|---|--:|--:|--:|--:|\n");
for (const e of entries) {
  const root = mkdtempSync(path.join(os.tmpdir(), "arena-restart-gap-"));
  try {
    const outcome = await runArenas({
      arenas: [arena],
      adapters: [{ name: e.name, module: e.module, variant: false }],
      config: DEFAULTS,
      corpusPath: DEFAULT_CORPUS_PATH,
      concurrency: 1,
      dirs: { logDir: path.join(root, "logs"), checkpointRoot: path.join(root, "ck") },
    });
    const items = outcome.records.flatMap((r) => r.frameworks.filter((f) => f.framework === e.name).flatMap((f) => f.items));
    const gaps: number[] = [];
    for (const i of items) {
      const legs = i.legs ?? [];
      if (legs.length < 2) continue;
      const inLegs = legs.reduce((a, l) => a + (l.latency_s ?? 0), 0);
      gaps.push(((i.latency_s - inLegs) * 1000) / (legs.length - 1));
    }
    const starts: number[] = [];
    for (let r = 0; r < Number(values.runs); r++) {
      starts.push(await coldStartMs({ adapter: { name: e.name, module: e.module }, arena: { id: arena.id, tools: [...arena.declaredTools], systemPrompt: arena.systemPrompt, durable: true }, corpusPath: DEFAULT_CORPUS_PATH, model: DEFAULTS.model }));
    }
    const pauses = items.reduce((a, i) => a + Math.max(0, (i.legs?.length ?? 1) - 1), 0);
    process.stdout.write(`| \`${e.name}\` | ${e.runtime} | ${pauses} | ${gaps.length ? median(gaps).toFixed(0) : "—"} | ${gaps.length ? Math.max(...gaps).toFixed(0) : "—"} | ${median(starts).toFixed(0)} |\n`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
