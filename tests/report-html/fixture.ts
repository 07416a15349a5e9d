/**
 * A small synthetic run for the report's tests: two frameworks (`vanilla`, the baseline, and
 * `fancy`) on tool_use, resilience and durable_state, with one failure, one error, one rule
 * violation, a paused item and a transcript. Numbers are chosen so the expected figures can be
 * worked out by hand (see data.test.ts).
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { Manifest } from "../../orchestrator/store/manifest.ts";
import type { AdapterRecord, ItemRecord, RunRecord } from "../../orchestrator/report/record.ts";
import { compactRequest, transcriptKey, type JsonObject, type JsonValue, type LaneTranscriptFile } from "../../orchestrator/report/html/transcript.ts";
import { benchManifest } from "../support/records.ts";

export const RUN_ID = "20261201T080000000Z-abc123";
/** Shown as fancy's answer on tool_use t-02: must be displayed as text, never run. */
export const HOSTILE_ANSWER = 'Lyon </script><script>window.__pwned = 1</script><!-- "quoted"';
export const FAIL_DETAIL = "expected substring (ci) 'paris'";
export const ERROR_TEXT = "TypeError: cannot read properties of undefined (reading 'tool_calls')";

export function item(id: string, over: Partial<ItemRecord> = {}): ItemRecord {
  return {
    repeat: 0,
    item_id: id,
    passed: true,
    checks: [{ type: "icontains", ok: true, detail: "expected substring (ci) 'ok'", spec: { type: "icontains", value: "ok" } }],
    output_text: `answer to ${id}`,
    tool_calls: ["search"],
    prompt_tokens: 100,
    completion_tokens: 10,
    latency_s: 0.5,
    llm_calls: 2,
    error: null,
    ...over,
  };
}

/** The fixture framework's one declared departure, as a lane records it. */
export const FANCY_DECLARATION = { kind: "tool_transforms", what: "json-schema-draft-07", why: "its schema library stamps $schema on every parameters object" };

export function lane(adapter: string, items: ItemRecord[], over: Partial<AdapterRecord> = {}): AdapterRecord {
  return {
    framework: adapter,
    available: true,
    lib_version: `${adapter} 1.0.0`,
    variant: false,
    isolation: { level: "sandbox", network: "sealed", tool: "bubblewrap 0.8.0" },
    items,
    ...over,
  };
}

export function record(arena: string, adapterRecords: AdapterRecord[], over: Partial<RunRecord> = {}): RunRecord {
  return {
    schema: 1,
    format_version: 2,
    run_id: RUN_ID,
    status: "complete",
    arena,
    arena_description: `the ${arena} arena`,
    mode: "mock",
    model: "mock-model",
    temperature: 0,
    repeat: 1,
    dataset_size: adapterRecords[0]?.items.length ?? 0,
    started_at: "2026-12-01T08:00:00Z",
    duration_s: 1.5,
    harness_version: "0.1.0",
    node: "24.21.0",
    platform: "linux-x64",
    pricing: { input_per_m: 0.4, output_per_m: 1.6 },
    frameworks: adapterRecords,
    ...over,
  };
}

export function fixtureRecords(): RunRecord[] {
  const toolUse = record("tool_use", [
    lane("vanilla", [item("t-01", { prompt_tokens: 100, latency_s: 0.2 }), item("t-02", { prompt_tokens: 200, latency_s: 0.4 }), item("t-03", { prompt_tokens: 300, latency_s: 0.6 })]),
    lane("fancy", [
      item("t-01", { prompt_tokens: 150, violations: [{ rule: "tool-output", leg: 1, request: 2, detail: "calculator result rewritten" }] }),
      item("t-02", {
        passed: false,
        prompt_tokens: 250,
        checks: [{ type: "icontains", ok: false, detail: FAIL_DETAIL, spec: { type: "icontains", value: "Paris" } }],
        output_text: HOSTILE_ANSWER,
      }),
      item("t-03", { passed: false, prompt_tokens: 350, error: ERROR_TEXT, error_class: "adapter", output_text: "", checks: [] }),
    ], { declarations: [FANCY_DECLARATION] }),
  ]);
  const resilience = record("resilience", [
    // r-03 only vanilla ran: the grid shows a gap, not a status.
    lane("vanilla", [item("r-01"), item("r-02"), item("r-03")]),
    lane("fancy", [item("r-01"), item("r-02", { passed: false, checks: [{ type: "numeric_equals", ok: false, detail: "expected 65", spec: {} }] })]),
  ]);
  const leg = (prompt: number, suspended: boolean, state?: number) => ({
    prompt_tokens: prompt,
    completion_tokens: 5,
    llm_calls: 1,
    tool_calls: ["search"],
    suspended,
    latency_s: 0.1,
    ...(state !== undefined ? { resume_state_bytes: state } : {}),
  });
  const durable = record("durable_state", [
    lane("vanilla", [item("d-01", { suspends: 1, legs: [leg(400, true, 500), leg(600, false)] })]),
    lane("fancy", [item("d-01", { passed: false, suspends: 0, legs: [leg(900, false)] })]),
  ]);
  return [toolUse, resilience, durable];
}

export function fixtureManifest(): Manifest {
  return benchManifest({
    run_id: RUN_ID,
    config: { mode: "mock", model: "gpt-4.1-mini" },
    config_hash: "0",
    sessions: [{ started_at: "2026-12-01T08:00:00Z", finished_at: "2026-12-01T08:00:02Z", status: "complete" }],
  });
}

const SYSTEM = "You answer questions with the help of two tools.";
const TOOLS: JsonValue = [
  { type: "function", function: { name: "search", parameters: { type: "object", properties: { query: { type: "string" } } } } },
  { type: "function", function: { name: "calculator", parameters: { type: "object", properties: { expression: { type: "string" } } } } },
];
export const TOOL_ARGUMENTS = '{"expression":"2 + 2"}';
export const STREAMED_TEXT = "streamed: the capital is Lyon";

/** fancy × tool_use t-02: two requests in one leg, sharing the system prompt and tools block. */
export function fixtureTranscript(): LaneTranscriptFile {
  const blocks: Record<string, JsonValue> = {};
  const user = { role: "user", content: "What is the capital?" };
  const call = { id: "call_1", type: "function", function: { name: "calculator", arguments: TOOL_ARGUMENTS } };
  const first: JsonObject = { model: "mock-model", temperature: 0, messages: [{ role: "system", content: SYSTEM }, user], tools: TOOLS };
  const second: JsonObject = {
    model: "mock-model",
    temperature: 0,
    stream: true,
    messages: [{ role: "system", content: SYSTEM }, user, { role: "assistant", content: null, tool_calls: [call] }, { role: "tool", tool_call_id: "call_1", content: "4" }],
    tools: TOOLS,
  };
  return {
    format_version: 1,
    arena: "tool_use",
    framework: "fancy",
    blocks,
    items: {
      [transcriptKey("t-02", 0)]: {
        legs: [
          {
            exchanges: [
              {
                request: compactRequest(first, blocks),
                reply: { json: { choices: [{ index: 0, finish_reason: "tool_calls", message: { role: "assistant", content: null, tool_calls: [call] } }] } },
                usage: { prompt_tokens: 120, completion_tokens: 6 },
              },
              { request: compactRequest(second, blocks), reply: { stream: STREAMED_TEXT }, usage: { prompt_tokens: 130, completion_tokens: 4 } },
            ],
          },
        ],
      },
    },
  };
}

/** The fixture as a run folder on disk (run.json, records/, transcripts/), under a fresh temp root. */
export function writeFixtureRun(
  root = mkdtempSync(path.join(os.tmpdir(), "arena-report-")),
  mode: RunRecord["mode"] = "mock",
): { root: string; runsDir: string; runDir: string } {
  const runsDir = path.join(root, "runs");
  const runDir = path.join(runsDir, RUN_ID);
  mkdirSync(path.join(runDir, "records"), { recursive: true });
  writeFileSync(path.join(runDir, "run.json"), JSON.stringify({ ...fixtureManifest(), mode, git_sha: "0123456789abcdef0123456789abcdef01234567" }, null, 2));
  for (const r of fixtureRecords()) writeFileSync(path.join(runDir, "records", `${r.arena}.json`), JSON.stringify({ ...r, mode }, null, 2));
  const t = fixtureTranscript();
  mkdirSync(path.join(runDir, "transcripts", t.arena), { recursive: true });
  writeFileSync(path.join(runDir, "transcripts", t.arena, `${t.framework}.json`), JSON.stringify(t));
  return { root, runsDir, runDir };
}
