/**
 * Reading run folders for the report. Every way a folder can be unusable (missing, no manifest,
 * a corrupt record or transcript) is a `LoadFailure` naming the one file at fault, so the CLI can
 * print one line and exit 2 instead of a stack trace.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { latestRunId } from "../../store/latest.ts";
import { ManifestError, readManifest } from "../../store/manifest.ts";
import { isRunId } from "../../store/run-id.ts";
import { readRunRecord, RecordReadError } from "../output.ts";
import type { RunRecord } from "../record.ts";
import type { RunInput } from "./data.ts";
import { manifestInputs } from "./inputs.ts";
import { LaneTranscriptFileSchema, missingBlocks, transcriptKey, type LaneTranscriptFile } from "./transcript.ts";

export interface LoadFailure {
  readonly file: string;
  readonly problem: string;
}
export type Loaded<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: LoadFailure };

/** Thrown only where a signature cannot return a `Loaded` (writeRunReport); carries the failure. */
export class ReportInputError extends Error {
  override readonly name = "ReportInputError";
  readonly failure: LoadFailure;
  constructor(failure: LoadFailure) {
    super(`${failure.file}: ${failure.problem}`);
    this.failure = failure;
  }
}

const fail = (file: string, problem: string): { ok: false; error: LoadFailure } => ({ ok: false, error: { file, problem } });

function isDirectory(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** `RUN` as typed: absent or `latest` = runs/latest; an existing folder; or a run id under runs/. */
export function resolveRunDir(runsDir: string, ref: string | undefined, cwd: string): Loaded<string> {
  if (ref === undefined || ref === "latest") {
    const id = latestRunId(runsDir);
    if (id === undefined) return fail(path.join(runsDir, "latest"), "does not name a run (run a bench first, or name a run)");
    return { ok: true, value: path.join(runsDir, id) };
  }
  const asPath = path.resolve(cwd, ref);
  if (isDirectory(asPath)) return { ok: true, value: asPath };
  if (isRunId(ref) && isDirectory(path.join(runsDir, ref))) return { ok: true, value: path.join(runsDir, ref) };
  return fail(isRunId(ref) ? path.join(runsDir, ref) : asPath, "no such run folder");
}

function jsonFiles(dir: string): string[] {
  try {
    return readdirSync(dir).filter((f) => f.endsWith(".json")).sort();
  } catch {
    return [];
  }
}

function rawGitSha(manifestFile: string): string | undefined {
  try {
    const sha = (JSON.parse(readFileSync(manifestFile, "utf8")) as { git_sha?: unknown }).git_sha;
    return typeof sha === "string" && sha !== "" ? sha : undefined;
  } catch {
    return undefined;
  }
}

function loadTranscript(file: string, records: readonly RunRecord[]): Loaded<LaneTranscriptFile> {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    return fail(file, `not valid JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const parsed = LaneTranscriptFileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return fail(file, `${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  const lane = parsed.data;
  const adapterRecord = records.find((r) => r.arena === lane.arena)?.frameworks.find((f) => f.framework === lane.framework);
  if (!adapterRecord) return fail(file, `a transcript of ${lane.arena} × ${lane.framework}, which the run's records do not have`);
  const known = new Set(adapterRecord.items.map((i) => transcriptKey(i.item_id, i.repeat)));
  for (const [key, transcript] of Object.entries(lane.items)) {
    if (!known.has(key)) return fail(file, `items.${key}: no such item in the record`);
    const missing = missingBlocks(transcript, lane.blocks);
    if (missing.length > 0) return fail(file, `items.${key}: refers to block ${missing[0]}, which the file does not hold`);
  }
  return { ok: true, value: lane };
}

/** One run folder: its manifest, every record, and whatever transcripts it has. */
export function loadRun(dir: string): Loaded<RunInput> {
  if (!isDirectory(dir)) return fail(dir, "no such run folder");
  const manifestFile = path.join(dir, "run.json");
  let manifest;
  try {
    manifest = readManifest(manifestFile);
  } catch (err) {
    if (err instanceof ManifestError) return fail(err.file, err.message.slice(err.file.length + 2));
    throw err;
  }
  const recordsDir = path.join(dir, "records");
  const records: RunRecord[] = [];
  for (const f of jsonFiles(recordsDir)) {
    try {
      records.push(readRunRecord(path.join(recordsDir, f)));
    } catch (err) {
      if (err instanceof RecordReadError) return fail(err.file, err.message.slice(err.file.length + 2));
      throw err;
    }
  }
  if (records.length === 0) return fail(recordsDir, "no run records (the run wrote none yet)");
  const transcripts: LaneTranscriptFile[] = [];
  const transcriptsDir = path.join(dir, "transcripts");
  for (const arena of isDirectory(transcriptsDir) ? readdirSync(transcriptsDir).sort() : []) {
    for (const f of jsonFiles(path.join(transcriptsDir, arena))) {
      const loaded = loadTranscript(path.join(transcriptsDir, arena, f), records);
      if (!loaded.ok) return loaded;
      transcripts.push(loaded.value);
    }
  }
  // Records carry it in their provenance; a manifest field (older layouts) is read as well.
  const gitSha = rawGitSha(manifestFile) ?? records.find((r) => r.provenance?.git_sha)?.provenance?.git_sha ?? undefined;
  const inputs = manifestInputs(manifest);
  return {
    ok: true,
    value: { runId: manifest.run_id, manifest, ...(gitSha ? { gitSha } : {}), records, ...(transcripts.length ? { transcripts } : {}), ...(Object.keys(inputs).length ? { inputs } : {}) },
  };
}
