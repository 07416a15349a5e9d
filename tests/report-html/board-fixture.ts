/**
 * Runs for the leaderboard's tests, with figures worked out by hand:
 *
 * - `rankedRecords()`: tool_use (4 items) — vanilla 4/4, alpha 3/4, beta 3/4, gamma 1/3 served
 *   (its t-04 the provider failed: a 503) — so ranks are 1, =2, =2, 4; rag (6 items) — vanilla and
 *   alpha 6/6, gamma 0/6 (six items vanilla passed: exact McNemar p = 2 × 0.5⁶ = 0.031, below
 *   0.05), beta not installed. Overall: vanilla 100%, alpha (0.75 + 1)/2, gamma (0.333 + 0)/2, then beta 75%, unranked (one arena).
 * - `manyFrameworkRecords(n)`: n synthetic frameworks on one arena, framework k passing k mod 5
 *   of 4 items, for the colour-and-symbol check.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import type { RunRecord } from "../../orchestrator/report/record.ts";
import { fixtureManifest, item, lane, record, RUN_ID } from "./fixture.ts";

const failed = { passed: false, checks: [{ type: "icontains", ok: false, detail: "expected substring (ci) 'ok'", spec: { type: "icontains", value: "ok" } }] };
const outcomes = (prefix: string, passes: readonly boolean[]) => passes.map((p, i) => item(`${prefix}-0${i + 1}`, p ? {} : failed));

export function rankedRecords(): RunRecord[] {
  const toolUse = record("tool_use", [
    lane("vanilla", outcomes("t", [true, true, true, true])),
    lane("alpha", outcomes("t", [true, true, false, true])),
    lane("beta", outcomes("t", [false, true, true, true])),
    lane("gamma", [
      ...outcomes("t", [true, false, false]),
      item("t-04", { passed: false, error: "provider answered 503 Service Unavailable", error_class: "infra", checks: [], output_text: "" }),
    ]),
  ]);
  const allPass = [true, true, true, true, true, true];
  const rag = record("rag", [
    lane("vanilla", outcomes("g", allPass)),
    lane("alpha", outcomes("g", allPass)),
    lane("beta", [], { available: false, unavailable_kind: "not_installed", reason: "beta is not installed" }),
    lane("gamma", outcomes("g", allPass.map(() => false))),
  ]);
  return [rag, toolUse];
}

export function syntheticName(k: number): string {
  return `synth-${String(k + 1).padStart(2, "0")}`;
}

export function manyFrameworkRecords(count: number): RunRecord[] {
  const lanes = Array.from({ length: count }, (_, k) => lane(syntheticName(k), outcomes("t", [0, 1, 2, 3].map((i) => i < k % 5))));
  return [record("tool_use", lanes)];
}

/** As a run folder on disk, for writeRunReport; `status` marks every arena's record. */
export function writeBoardRun(records: readonly RunRecord[], status: RunRecord["status"] = "complete"): { root: string; runDir: string } {
  const root = mkdtempSync(path.join(os.tmpdir(), "arena-board-"));
  const runDir = path.join(root, "runs", RUN_ID);
  mkdirSync(path.join(runDir, "records"), { recursive: true });
  writeFileSync(path.join(runDir, "run.json"), JSON.stringify(fixtureManifest(), null, 2));
  for (const r of records) writeFileSync(path.join(runDir, "records", `${r.arena}.json`), JSON.stringify({ ...r, status }, null, 2));
  return { root, runDir };
}
