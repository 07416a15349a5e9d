/**
 * Where outputs go (harness.md §13, with run folders): each run's records, scorecards and summary
 * live in its own `runs/<run-id>/`, never overwritten by a later run; `results/` receives live
 * scorecards only, lane by lane, never over a row better served by the provider (report/publish.ts).
 * Routing is by the record's mode, by construction. Every file is written atomically and redacted.
 */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../files/atomic.ts";
import { inside } from "../files/safe-path.ts";
import type { RunLayout } from "../store/layout.ts";
import { isRunId } from "../store/run-id.ts";
import { FORMAT_VERSION, RunRecordSchema, type RunRecord } from "./record.ts";
import { renderCsv, renderJson, renderMarkdown, scorecardRows } from "./scorecard.ts";
import { renderSummary, type CellSource } from "./summary.ts";
import { mergePublished, PublishedReadError, readPublished, replacesServed, writePublished, type PublishedFile, type PublishOutcome } from "./publish.ts";
import type { Servedness } from "./not-served.ts";
import { RecordIndex, type RecordFacts } from "./record-index.ts";
import type { PublishedSource } from "./scorecard-schema.ts";

export class RecordReadError extends Error {
  override readonly name = "RecordReadError";
  readonly file: string;
  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`);
    this.file = file;
  }
}

export function writeRunRecord(layout: RunLayout, record: RunRecord): string {
  const file = layout.record(record.arena);
  writeFileAtomic(file, JSON.stringify(record, null, 2) + "\n");
  return file;
}

/** `sources`: a published scorecard's rows' runs (results/ only). */
export function writeScorecards(dir: string, record: RunRecord, sources?: readonly PublishedSource[]): string {
  const rows = scorecardRows(record);
  writeFileAtomic(path.join(dir, "scorecard.md"), renderMarkdown(record, rows, sources));
  writeFileAtomic(path.join(dir, "scorecard.csv"), renderCsv(rows));
  writeFileAtomic(path.join(dir, "scorecard.json"), renderJson(record, rows, sources));
  return dir;
}

/**
 * A live record merged into `results/<arena>/` by the publishing rule: the scorecards and
 * `published.json` are rewritten from the merged record, or left alone when nothing of the run
 * may be published and nothing was there. Mock records are refused by construction.
 */
export function publishLiveScorecards(resultsDir: string, record: RunRecord): PublishOutcome & { dir: string } {
  if (record.mode !== "live") throw new Error(`refusing to publish a ${record.mode} record to results/`);
  const dir = inside(resultsDir, record.arena);
  const outcome = mergePublished(readPublished(dir), record);
  if (outcome.file) {
    writeScorecards(dir, outcome.file.record, outcome.file.sources);
    writePublished(dir, outcome.file);
  }
  return { ...outcome, dir };
}

/** Every arena's published record under `results/`, and where each row came from; one that does not read is skipped with a warning. */
export function publishedRecords(resultsDir: string, warn: (line: string) => void): LatestRecords {
  const records: RunRecord[] = [];
  const sources: CellSource[] = [];
  for (const arena of listDir(resultsDir)) {
    let file: PublishedFile | undefined;
    try {
      file = readPublished(path.join(resultsDir, arena));
    } catch (err) {
      if (!(err instanceof PublishedReadError)) throw err;
      warn(`skipped ${err.message}`);
      continue;
    }
    if (!file) continue;
    records.push(file.record);
    for (const s of file.sources) sources.push({ arena: file.record.arena, framework: s.framework, runId: s.run_id, startedAt: s.started_at });
  }
  return { records, sources };
}

export function readRunRecord(file: string): RunRecord {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new RecordReadError(file, `not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const version = (data as { format_version?: unknown } | null)?.format_version;
  if (version !== FORMAT_VERSION) {
    throw new RecordReadError(file, `format_version ${JSON.stringify(version ?? null)}, this harness reads ${FORMAT_VERSION}`);
  }
  const parsed = RunRecordSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new RecordReadError(file, `${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return parsed.data;
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

export interface LatestRecords {
  /** One record per arena: the newest run's meta, with each framework row from the newest run that has it. */
  readonly records: RunRecord[];
  readonly sources: CellSource[];
}

/**
 * The newest complete, non-partial result per arena × framework for `mode`, across run folders,
 * unless an older one was better served by the provider (report/publish.ts).
 * An unreadable or old-format record is skipped with one warning naming the file. Which records
 * hold those results is decided from the record index (report/record-index.ts); only they are
 * read whole.
 */
export function latestRecords(runsDir: string, mode: RunRecord["mode"], warn: (line: string) => void): LatestRecords {
  for (const f of listDir(runsDir).filter((f) => f.endsWith(".json"))) {
    warn(`skipped ${path.join(runsDir, f)}: a record from before run folders (format_version 1); delete it or keep it for reference`);
  }
  const index = RecordIndex.open(runsDir);
  const seen: { readonly file: string; readonly facts: RecordFacts }[] = [];
  for (const runId of listDir(runsDir).filter(isRunId)) {
    const recordsDir = path.join(runsDir, runId, "records");
    for (const f of listDir(recordsDir).filter((f) => f.endsWith(".json"))) {
      const file = path.join(recordsDir, f);
      try {
        seen.push({ file, facts: index.facts(file, readRunRecord) });
      } catch (err) {
        warn(`skipped ${err instanceof RecordReadError ? err.message : String(err)}`);
      }
    }
  }
  // A record the index vouched for may still fail to read whole (it went, or this harness reads
  // records more strictly than the one that noted it): it is skipped and the choice made again.
  for (;;) {
    const chosen = chooseLatest(seen, mode);
    try {
      const latest = readChosen(chosen, index);
      index.save();
      return latest;
    } catch (err) {
      const at = err instanceof RecordReadError ? seen.findIndex((s) => s.file === err.file) : -1;
      if (at < 0) throw err;
      const { file, message } = err as RecordReadError;
      warn(`skipped ${message}`);
      seen.splice(at, 1);
      index.drop(file);
    }
  }
}

interface Chosen {
  /** Per arena: the newest record's file (its meta), and each framework's lane as file and position. */
  readonly base: Map<string, string>;
  readonly rows: Map<string, Map<string, { readonly file: string; readonly at: number; readonly served: Servedness }>>;
}

function chooseLatest(seen: readonly { readonly file: string; readonly facts: RecordFacts }[], mode: RunRecord["mode"]): Chosen {
  const base = new Map<string, string>();
  const rows: Chosen["rows"] = new Map();
  for (const { file, facts } of seen) {
    if (facts.mode !== mode || facts.status !== "complete" || facts.filtered) continue;
    base.set(facts.arena, file);
    const byAdapter = rows.get(facts.arena) ?? new Map();
    rows.set(facts.arena, byAdapter);
    for (const [at, lane] of facts.lanes.entries()) {
      // The publishing rule here too: a newer lane the provider served less completely does not hide a better one.
      const earlier = byAdapter.get(lane.framework);
      if (!earlier || replacesServed(lane.served, earlier.served)) byAdapter.set(lane.framework, { file, at, served: lane.served });
    }
  }
  return { base, rows };
}

function readChosen({ base, rows }: Chosen, index: RecordIndex): LatestRecords {
  const records: RunRecord[] = [];
  const sources: CellSource[] = [];
  for (const [arena, file] of base) {
    const meta = index.record(file, readRunRecord);
    const cells = [...rows.get(arena)!].map(([framework, lane]) => {
      const record = index.record(lane.file, readRunRecord);
      const adapterRecord = record.frameworks[lane.at];
      // Rewritten since the index noted it (a run writing it now): as unreadable, this once.
      if (adapterRecord?.framework !== framework) throw new RecordReadError(lane.file, `changed while the summary was made (no ${framework} lane at ${lane.at})`);
      return { record, adapterRecord };
    });
    records.push({ ...meta, frameworks: cells.map((c) => c.adapterRecord) });
    for (const c of cells) sources.push({ arena, framework: c.adapterRecord.framework, runId: c.record.run_id, startedAt: c.record.started_at });
  }
  return { records, sources };
}

/** `runs/summary.md` (mock, from run folders) or `results/summary.md` (live, from what results/ publishes), naming each cell's run. */
export function writeCrossRunSummary(
  roots: { runsDir: string; resultsDir: string },
  mode: RunRecord["mode"],
  warn: (line: string) => void,
): string | undefined {
  const file = mode === "live" ? path.join(roots.resultsDir, "summary.md") : path.join(roots.runsDir, "summary.md");
  // Live: what results/ publishes, so the summary never shows a lane the scorecards kept out.
  const { records, sources } = mode === "live" ? publishedRecords(roots.resultsDir, warn) : latestRecords(roots.runsDir, mode, warn);
  // Nothing published yet (a first live run the provider served on no lane): no summary to claim.
  if (mode === "live" && records.length === 0) return undefined;
  writeFileAtomic(file, renderSummary(records, sources));
  return file;
}

/** This run's own summary, `runs/<run-id>/summary.md`. */
export function writeRunSummary(layout: RunLayout, records: readonly RunRecord[]): string {
  const sources = records.flatMap((r) => r.frameworks.map((adapterRecord) => ({ arena: r.arena, framework: adapterRecord.framework, runId: r.run_id, startedAt: r.started_at })));
  writeFileAtomic(layout.summary, renderSummary(records, sources));
  return layout.summary;
}
