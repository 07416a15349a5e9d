/**
 * What witnessing costs, measured inside a real run: a mock bench (every arena × every adapter of
 * the catalogue, in process, sealed workers where bwrap works) whose run times the witness on
 * each item as it judges it — the served result and every per-item rule, on the real exchanges,
 * with each adapter's real declarations — and each lane's cross-item rules. Nothing is re-judged
 * out of context, so what is timed is exactly what a bench pays.
 *
 * The figure to hold it against is the gateway's own time per reply (the throughput section of
 * `pnpm bench:gateway`, which also serves with this witness running on the same thread).
 *
 * Usage: node scripts/witness-cost.ts [--runs N]   (also `pnpm bench:gateway --section witness`)
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { ADAPTER_CATALOG } from "../contract/catalogue.ts";
import { listArenas } from "../orchestrator/arena/discover.ts";
import { loadArena } from "../orchestrator/arena/load.ts";
import { DEFAULTS } from "../orchestrator/config/arena-config.ts";
import { runArenas, type AdapterEntry, type RunOutcome } from "../orchestrator/run/index.ts";

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const us = (seconds: number) => (seconds * 1e6).toFixed(0);

/** One line per arena and a total: items, requests, per-item witness time and its share per request. */
export function witnessReport(outcome: Pick<RunOutcome, "timings" | "laneWitnessTimings" | "gatewayRecords">): string[] {
  const rows: string[][] = [["arena", "items", "requests", "µs/item p50", "p95", "max", "µs/request", "lane rules µs/item"]];
  const arenas = [...new Set(outcome.timings.map((t) => t.arena))].sort();
  const line = (label: string, picked: (a: string) => boolean) => {
    const items = outcome.timings.filter((t) => picked(t.arena));
    const seconds = items.map((t) => t.witnessSeconds).sort((a, b) => a - b);
    const total = seconds.reduce((a, b) => a + b, 0);
    const requests = [...outcome.gatewayRecords].filter(([a]) => picked(a)).reduce((n, [, g]) => n + g.requests.length, 0);
    const lane = outcome.laneWitnessTimings.filter((l) => picked(l.arena)).reduce((a, l) => a + l.seconds, 0);
    rows.push([label, String(items.length), String(requests), us(quantile(seconds, 0.5)), us(quantile(seconds, 0.95)), us(seconds.at(-1) ?? 0), requests ? us(total / requests) : "—", items.length ? us(lane / items.length) : "—"]);
  };
  for (const a of arenas) line(a, (x) => x === a);
  line("all", () => true);
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((c, i) => (i === 0 ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  "));
}

export async function witnessCost(runs = 1): Promise<string> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const corpusPath = path.join(root, "arenas", "corpus.json");
  const arenas = listArenas(path.join(root, "arenas")).map((ref) => loadArena(ref.dir));
  const adapters: AdapterEntry[] = ADAPTER_CATALOG.map((e) => ({ name: e.name, module: e.module, ...(e.arenas ? { onlyArenas: e.arenas } : {}) }));
  const out: string[] = [];
  for (let run = 1; run <= runs; run++) {
    const tmp = mkdtempSync(path.join(os.tmpdir(), "arena-witness-"));
    try {
      const outcome = await runArenas({ arenas, adapters, config: DEFAULTS, corpusPath, dirs: { logDir: path.join(tmp, "logs"), checkpointRoot: path.join(tmp, "ck") } });
      out.push(`witness, run ${run} of ${runs}: a mock bench of ${arenas.length} arenas × ${adapters.length} adapters, each item timed as the run judged it`, ...witnessReport(outcome), "");
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  }
  return out.join("\n");
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { runs: { type: "string", default: "1" } } });
  process.stdout.write(await witnessCost(Number(values.runs)));
}
