/**
 * The smallest valid item record and run manifest, for tests about something else (the store's
 * journal and drift check, the scorecard's statistics, the report): a test overrides the fields
 * it is about, and the fields the format requires are filled in here once.
 */
import { FORMAT_VERSION, type ItemRecord } from "../../orchestrator/report/record.ts";
import { blankItemRecord } from "../../orchestrator/run/item-record.ts";
import { configHash, type Manifest } from "../../orchestrator/store/manifest.ts";

/** A passed item of repeat 0 that made one LLM call and no tool call. */
export function minimalItem(item_id: string, over: Partial<ItemRecord> = {}): ItemRecord {
  return { ...blankItemRecord(item_id, 0), passed: true, prompt_tokens: 1, completion_tokens: 1, llm_calls: 1, ...over };
}

/** The manifest of `arena bench` in mock mode, once over every framework; `config_hash` follows `config` unless given. */
export function benchManifest(over: Partial<Manifest> = {}): Manifest {
  const config = over.config ?? {};
  return {
    format_version: FORMAT_VERSION,
    run_id: "20261201T080000000Z-000000",
    command: "bench",
    argv: ["bench"],
    created_at: "2026-12-01T08:00:00Z",
    mode: "mock",
    repeat: 1,
    frameworks: ["all"],
    arenas: [],
    corpus: { path: "arenas/corpus.json", sha256: "0" },
    config,
    config_hash: configHash(config),
    sessions: [],
    ...over,
  };
}
