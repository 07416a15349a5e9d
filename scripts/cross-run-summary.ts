/**
 * What the run-folder summary across runs costs at the end of a mock run (`latestRecords`,
 * report/output.ts), with and without its record index (report/record-index.ts), on a copy of a
 * runs folder's records (default: this checkout's `runs/`). Each round times a pass with no index
 * (every record read whole), then one with the index that pass left, in this process.
 *
 * Usage: node scripts/cross-run-summary.ts [--rounds N] [RUNS_DIR]
 */
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { latestRecords } from "../orchestrator/report/output.ts";
import { RECORD_INDEX_FILE } from "../orchestrator/report/record-index.ts";
import { isRunId } from "../orchestrator/store/run-id.ts";
import { median } from "./support/measure.ts";
import { loadAverage } from "./support/timed-run.ts";

const { values, positionals } = parseArgs({ allowPositionals: true, options: { rounds: { type: "string" } } });
const rounds = Number(values.rounds ?? 7);
const source = path.resolve(positionals[0] ?? fileURLToPath(new URL("../runs", import.meta.url)));
const copy = mkdtempSync(path.join(os.tmpdir(), "arena-cross-run-"));
process.once("exit", () => rmSync(copy, { recursive: true, force: true }));
let records = 0;
const runs = readdirSync(source).filter(isRunId);
for (const run of runs) {
  const from = path.join(source, run, "records");
  try {
    cpSync(from, path.join(copy, run, "records"), { recursive: true });
    records += readdirSync(from).length;
  } catch {
    // A run folder without records (stopped before its first arena concluded).
  }
}

const cpuMs = (f: () => void) => {
  const before = process.cpuUsage();
  f();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000;
};
const without: number[] = [];
const withIndex: number[] = [];
const warnings = new Set<string>();
for (let r = 0; r < rounds; r++) {
  rmSync(path.join(copy, RECORD_INDEX_FILE), { force: true });
  without.push(cpuMs(() => latestRecords(copy, "mock", (w) => warnings.add(w))));
  withIndex.push(cpuMs(() => latestRecords(copy, "mock", (w) => warnings.add(w))));
}
process.stdout.write(`${runs.length} runs, ${records} records (${source}); load average ${loadAverage()}; ${rounds} rounds, ${warnings.size} records skipped with a warning\n`);
process.stdout.write(`no index: ${median(without).toFixed(1)} ms of CPU (${without.map((x) => x.toFixed(0)).join(" ")})\n`);
process.stdout.write(`with the index: ${median(withIndex).toFixed(1)} ms of CPU (${withIndex.map((x) => x.toFixed(1)).join(" ")})\n`);
