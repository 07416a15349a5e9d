/**
 * A wide run for the item table's browser test: 13 frameworks on two arenas, 3 repeats each,
 * with its arenas' datasets on disk (so the questions come from them, fingerprint checked) and
 * a second run of the same items for the combined report's `R2/<framework>` columns.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { ItemRecord, RunRecord } from "../../orchestrator/report/record.ts";
import { compactRequest, transcriptKey, type CompactExchange, type JsonObject, type LaneTranscriptFile } from "../../orchestrator/report/html/transcript.ts";
import { fingerprintArena } from "../../orchestrator/store/manifest.ts";
import { benchManifest } from "../support/records.ts";
import { item, lane, record } from "./fixture.ts";

export const WIDE_FRAMEWORKS = ["vanilla", ...Array.from({ length: 12 }, (_, i) => `framework_${String(i + 1).padStart(2, "0")}`)];
export const RUN_A = "20261201T080000000Z-aaaaaa";
export const RUN_B = "20261202T080000000Z-bbbbbb";
/** Past the table's excerpt: search must read the full answer to find it. */
export const DEEP_TOKEN = "zebracorn";

/** The call the model made on framework_05's failing q-03: its arguments are not JSON. */
export const MALFORMED_ARGUMENTS = '{"query": "river Vienna';
export const ECHOED_DETAIL = 'search({}): expected "ERROR: bad arguments", seen "no results"';

/** framework_05 × q-03, repeat 3: the model's malformed call, sent back by the framework as `{}`. */
export function malformedTranscript(): LaneTranscriptFile {
  const blocks: LaneTranscriptFile["blocks"] = {};
  const system = { role: "system", content: "Answer with the search tool." };
  const user = { role: "user", content: QUESTIONS.tool_use!["q-03"]!.input };
  const call = (args: string) => ({ id: "call_1", type: "function", function: { name: "search", arguments: args } });
  const echoed = { role: "assistant", content: null, tool_calls: [call("{}")] };
  const result = { role: "tool", tool_call_id: "call_1", content: "no results" };
  const body = (messages: unknown[]): JsonObject => ({ model: "mock-model", messages: messages as JsonObject[] });
  const exchanges: CompactExchange[] = [
    { request: compactRequest(body([system, user]), blocks), reply: { json: { role: "assistant", content: null, tool_calls: [call(MALFORMED_ARGUMENTS)] } } },
    { request: compactRequest(body([system, user, echoed, result]), blocks), reply: { json: { role: "assistant", content: "It is the Rhine." } } },
  ];
  return { format_version: 1, arena: "tool_use", framework: "framework_05", blocks, items: { [transcriptKey("q-03", 2)]: { legs: [{ exchanges }] } } };
}

export const QUESTIONS: Record<string, Record<string, { input: string; value: string }>> = {
  tool_use: {
    "q-01": { input: "What is the capital of France?", value: "Paris" },
    "q-02": { input: "What is 6 times 7?", value: "42" },
    "q-03": { input: "Which river flows through Vienna?", value: "Danube" },
  },
  resilience: {
    "q-04": { input: "What is 19 * 21 + 6?", value: "405" },
    "q-05": { input: "Name the tallest mountain on Earth.", value: "Everest" },
  },
};

/** Which cells fail, by design: framework index k fails q-03 on repeat k % 3, framework_05 errors on q-05, and the provider fails framework_07's q-01 once. */
function cell(arena: string, id: string, k: number, repeat: number): ItemRecord {
  const { value } = QUESTIONS[arena]![id]!;
  const spec = { type: "icontains", value };
  const ok = (detail: string, passed: boolean) => [{ type: "icontains", ok: passed, detail, spec }];
  const filler = "the answer comes after a long preamble that fills the excerpt the table shows ".repeat(3);
  const answer = id === "q-02" && k === 3 ? `${filler}${value} ${DEEP_TOKEN}` : `The answer is ${value}.`;
  if (id === "q-01" && k === 7 && repeat === 1) {
    return item(id, { repeat, passed: false, error: "HTTP 503 Service Unavailable", error_class: "infra", provider_faults: [{ leg: 1, fault: "server_error", status: 503 }], output_text: "", checks: ok("skipped: adapter error", false) });
  }
  if (id === "q-05" && k === 5) {
    return item(id, { repeat, passed: false, error: "adapter gave up: iteration budget exhausted", error_class: "adapter", output_text: "", checks: ok("skipped: adapter error", false) });
  }
  if (id === "q-03" && k > 0 && repeat === k % 3) {
    // framework_05's failure also broke a rule, flagged on both later requests of the leg.
    const violations = k === 5 ? [2, 3].map((request) => ({ rule: "tool-output", leg: 1, request, detail: ECHOED_DETAIL })) : undefined;
    return item(id, { repeat, passed: false, output_text: "It is the Rhine.", checks: ok(`expected substring (ci) '${value.toLowerCase()}'`, false), ...(violations ? { violations } : {}) });
  }
  return item(id, { repeat, output_text: answer, checks: ok(`expected substring (ci) '${value.toLowerCase()}'`, true) });
}

export function wideRecords(runId: string): RunRecord[] {
  return Object.entries(QUESTIONS).map(([arena, items]) =>
    record(
      arena,
      WIDE_FRAMEWORKS.map((fw, k) => lane(fw, Object.keys(items).flatMap((id) => [0, 1, 2].map((r) => cell(arena, id, k, r))))),
      { run_id: runId, repeat: 3, dataset_size: Object.keys(items).length },
    ),
  );
}

function writeRun(runsDir: string, runId: string, arenas: { id: string; path: string; sha256: string }[]): string {
  const dir = path.join(runsDir, runId);
  mkdirSync(path.join(dir, "records"), { recursive: true });
  writeFileSync(path.join(dir, "run.json"), JSON.stringify(benchManifest({ run_id: runId, repeat: 3, arenas, sessions: [{ started_at: "2026-12-01T08:00:00Z", status: "complete" }] })));
  for (const r of wideRecords(runId)) writeFileSync(path.join(dir, "records", `${r.arena}.json`), JSON.stringify(r));
  const t = malformedTranscript();
  mkdirSync(path.join(dir, "transcripts", t.arena), { recursive: true });
  writeFileSync(path.join(dir, "transcripts", t.arena, `${t.framework}.json`), JSON.stringify(t));
  return dir;
}

export function writeWideRuns(): { root: string; runsDir: string; runA: string; runB: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), "arena-items-"));
  const arenas = Object.entries(QUESTIONS).map(([id, items]) => {
    const dir = path.join(root, "arenas", id);
    mkdirSync(dir, { recursive: true });
    const lines = Object.entries(items).map(([itemId, q]) => JSON.stringify({ id: itemId, input: q.input, checks: [{ type: "icontains", value: q.value }] }));
    writeFileSync(path.join(dir, "dataset.jsonl"), `${lines.join("\n")}\n`);
    return { id, path: dir, sha256: fingerprintArena(dir) };
  });
  const runsDir = path.join(root, "runs");
  return { root, runsDir, runA: writeRun(runsDir, RUN_A, arenas), runB: writeRun(runsDir, RUN_B, arenas) };
}
