/**
 * What witnessing costs per request: a real mock bench (every arena × every adapter, in process)
 * is run once for its recorded requests, then every item's evidence is judged again by the
 * witness, repeatedly, and timed. The figure to hold it against is the gateway's own time per
 * reply, measured by the throughput section of the same benchmark.
 *
 * Usage: node scripts/witness-cost.ts [--rounds N]   (also `pnpm bench:gateway --section witness`)
 */
import { BASELINE_DECLARATION } from "../contract/declarations.ts";
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { listArenas } from "../orchestrator/arena/discover.ts";
import { loadArena } from "../orchestrator/arena/load.ts";
import { DEFAULTS } from "../orchestrator/config/arena-config.ts";
import { runArenas, type AdapterEntry } from "../orchestrator/run/index.ts";
import type { ItemEvidence, LaneContext } from "../orchestrator/witness/types.ts";
import { canonicalOutputs } from "../orchestrator/witness/canonical.ts";
import { witnessItem, witnessLane } from "../orchestrator/witness/witness.ts";
import type { Body } from "../orchestrator/witness/wire.ts";
import { ADAPTER_CATALOG } from "../contract/catalogue.ts";
import { toJs } from "@agentic-arena/py-semantics";

export async function witnessCost(rounds: number): Promise<string> {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
  const corpusPath = path.join(root, "arenas", "corpus.json");
  const arenas = listArenas(path.join(root, "arenas")).map((ref) => loadArena(ref.dir));
  const adapters: AdapterEntry[] = ADAPTER_CATALOG.map((e) => ({ name: e.name, module: e.module, ...(e.arenas ? { onlyArenas: e.arenas } : {}) }));
  const tmp = mkdtempSync(path.join(os.tmpdir(), "arena-witness-"));
  const outcome = await runArenas({ arenas, adapters, config: DEFAULTS, corpusPath, dirs: { logDir: path.join(tmp, "logs"), checkpointRoot: path.join(tmp, "ck") } });
  const canonical = canonicalOutputs(corpusPath);
  // One evidence per worker tag (all its requests as one leg): the rules' work is per request.
  const lanes: { lane: LaneContext; items: ItemEvidence[] }[] = [];
  let requests = 0;
  for (const arena of arenas) {
    const records = outcome.gatewayRecords.get(arena.id);
    if (!records) continue;
    const byTag = new Map<string, Body[]>();
    for (const r of records.requests) byTag.set(r.tag, [...(byTag.get(r.tag) ?? []), toJs(r.body) as Body]);
    const lane: LaneContext = {
      mode: "mock",
      model: DEFAULTS.model,
      temperature: DEFAULTS.temperature,
      declaredTools: arena.declaredTools,
      systemPrompt: arena.systemPrompt,
      wireExceptions: [],
      delegates: [],
      declaration: BASELINE_DECLARATION,
      systemPrompts: [arena.systemPrompt],
      canonical,
    };
    const items = [...byTag].map(([tag, bodies]) => {
      requests += bodies.length;
      const usage = { prompt_tokens: 0, completion_tokens: 0, llm_calls: bodies.length };
      return { itemId: tag, repeat: 0, input: "", legs: [{ requests: bodies, served: usage, reported: usage, answered: true }], passed: true };
    });
    lanes.push({ lane, items });
  }
  const t0 = performance.now();
  for (let r = 0; r < rounds; r++) {
    for (const { lane, items } of lanes) {
      for (const item of items) witnessItem(item, lane);
      witnessLane(items);
    }
  }
  const ms = (performance.now() - t0) / (rounds * requests);
  return `witness: ${requests} recorded requests of a mock bench (7 arenas × ${adapters.length} adapters), judged ${rounds}× by every rule: ${(ms * 1000).toFixed(1)} µs per request\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { rounds: { type: "string", default: "20" } } });
  process.stdout.write(await witnessCost(Number(values.rounds)));
}
