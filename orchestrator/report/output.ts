/**
 * Where outputs go (harness.md §13). Routing is by the record's mode, by construction: a mock
 * record can only ever produce files under `runs/`; `results/` receives live scorecards only.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { RunRecordSchema, recordFileName, type RunRecord } from "./record.ts";
import { renderCsv, renderJson, renderMarkdown, scorecardRows } from "./scorecard.ts";
import { renderSummary } from "./summary.ts";

export interface OutputDirs {
  /** Raw records and everything mock: git-ignored. */
  readonly runsDir: string;
  /** Live scorecards only. */
  readonly resultsDir: string;
}

export class RecordReadError extends Error {
  override readonly name = "RecordReadError";
  readonly file: string;
  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`);
    this.file = file;
  }
}

export function scorecardDir(dirs: OutputDirs, record: Pick<RunRecord, "mode" | "arena">): string {
  return record.mode === "live"
    ? path.join(dirs.resultsDir, record.arena)
    : path.join(dirs.runsDir, "scorecards", record.arena);
}

export function summaryPath(dirs: OutputDirs, mode: RunRecord["mode"]): string {
  return mode === "live" ? path.join(dirs.resultsDir, "summary.md") : path.join(dirs.runsDir, "summary.md");
}

/** Write the raw record, and the scorecards unless the run was partial. Returns the record path. */
export function writeRunOutputs(dirs: OutputDirs, record: RunRecord): { recordPath: string; scorecardDir?: string } {
  mkdirSync(dirs.runsDir, { recursive: true });
  const recordPath = path.join(dirs.runsDir, recordFileName(record));
  writeFileSync(recordPath, JSON.stringify(record, null, 2) + "\n");
  if (record.filtered_to) return { recordPath };
  const dir = scorecardDir(dirs, record);
  mkdirSync(dir, { recursive: true });
  const rows = scorecardRows(record);
  writeFileSync(path.join(dir, "scorecard.md"), renderMarkdown(record, rows));
  writeFileSync(path.join(dir, "scorecard.csv"), renderCsv(rows));
  writeFileSync(path.join(dir, "scorecard.json"), renderJson(record, rows));
  return { recordPath, scorecardDir: dir };
}

export function readRunRecord(file: string): RunRecord {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new RecordReadError(file, `not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const parsed = RunRecordSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RecordReadError(file, `${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return parsed.data;
}

/** Latest non-partial record per arena for `mode` (file names sort by time). */
export function latestRecords(runsDir: string, mode: RunRecord["mode"]): RunRecord[] {
  let files: string[];
  try {
    files = readdirSync(runsDir).filter((f) => f.endsWith(`__${mode}.json`)).sort();
  } catch {
    return [];
  }
  const latest = new Map<string, string>();
  for (const f of files) latest.set(f.split("__")[1]!, f);
  return [...latest.values()].map((f) => readRunRecord(path.join(runsDir, f)));
}

export function writeSummary(dirs: OutputDirs, mode: RunRecord["mode"]): string {
  const file = summaryPath(dirs, mode);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, renderSummary(latestRecords(dirs.runsDir, mode)));
  return file;
}
