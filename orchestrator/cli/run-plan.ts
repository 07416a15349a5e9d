/**
 * What a `run`/`bench` invocation will do, before anything runs: a new run from the flags, or the
 * missing cells of a recorded run (`--resume`, `--retry-errors`) with its recorded configuration.
 * A resume refuses, naming the difference, when the arena data, the corpus or the configuration
 * changed since (`--force` overrides; adapter versions are checked as each lane opens).
 */
import path from "node:path";
import { loadArena } from "../arena/load.ts";
import type { Arena } from "../arena/schemas.ts";
import type { ArenaConfig } from "../config/arena-config.ts";
import { FORMAT_VERSION, isoSeconds } from "../report/record.ts";
import type { AdapterEntry, PriorCells } from "../run/index.ts";
import { readJournal } from "../store/journal.ts";
import { latestRunId } from "../store/latest.ts";
import { RunLayout, type OutputRoots } from "../store/layout.ts";
import {
  configHash,
  configSnapshot,
  fingerprintArena,
  fingerprintFile,
  manifestDrift,
  readManifest,
  type Manifest,
} from "../store/manifest.ts";
import { currentOwner, ownerState } from "../store/owner.ts";
import { isRunId, newRunId } from "../store/run-id.ts";
import { UsageError } from "./command.ts";

export interface RunRequest {
  readonly layout: RunLayout;
  readonly manifest: Manifest;
  readonly arenas: readonly Arena[];
  readonly adapters: readonly AdapterEntry[];
  readonly config: ArenaConfig;
  readonly corpusPath: string;
  readonly itemFilter?: readonly string[];
  /** `--shard I/N`: the cells this run takes (cli/run-shard.ts); absent = every cell. */
  readonly keepCell?: (arena: string, adapter: string, repeat: number, itemId: string) => boolean;
  readonly prior?: PriorCells;
  /** When the run (its first session) began. */
  readonly startedAt: Date;
  /** This session's index in `manifest.sessions`. */
  readonly session: number;
  /** Set on a resume: the journal lines that could not be read (reported, then ignored). */
  readonly journalSkipped?: readonly { line: number; problem: string }[];
}

export interface NewRun {
  readonly command: Manifest["command"];
  readonly argv: readonly string[];
  readonly roots: OutputRoots;
  readonly arenas: readonly Arena[];
  readonly adapters: readonly AdapterEntry[];
  /** `--framework` as given (`all` stays `all`, so a resume selects the same variants). */
  readonly adapterArgs: readonly string[];
  readonly config: ArenaConfig;
  readonly corpusPath: string;
  readonly itemFilter?: readonly string[];
}

function fingerprints(arenas: readonly Arena[], corpusPath: string): Pick<Manifest, "arenas" | "corpus"> {
  return {
    arenas: arenas.map((a) => ({ id: a.id, path: a.dir, sha256: fingerprintArena(a.dir) })),
    corpus: { path: corpusPath, sha256: fingerprintFile(corpusPath) },
  };
}

export function planNewRun(run: NewRun, now = new Date()): RunRequest {
  const layout = new RunLayout(run.roots, newRunId(now));
  const config = configSnapshot(run.config);
  const manifest: Manifest = {
    format_version: FORMAT_VERSION,
    run_id: layout.runId,
    command: run.command,
    argv: [...run.argv],
    created_at: isoSeconds(now),
    mode: run.config.mode,
    repeat: run.config.repeat,
    frameworks: [...run.adapterArgs],
    ...(run.itemFilter ? { item_filter: [...run.itemFilter] } : {}),
    ...fingerprints(run.arenas, run.corpusPath),
    config,
    config_hash: configHash(config),
    sessions: [{ started_at: isoSeconds(now), status: "running", process: currentOwner() }],
  };
  return {
    layout,
    manifest,
    arenas: run.arenas,
    adapters: run.adapters,
    config: run.config,
    corpusPath: run.corpusPath,
    ...(run.itemFilter ? { itemFilter: run.itemFilter } : {}),
    startedAt: now,
    session: 0,
  };
}

/** `RUN` as given: a run id, `latest`, or a path to a run folder; absent = the latest run. */
export function resolveRunRef(roots: OutputRoots, ref: string | undefined, cwd: string): RunLayout {
  let id = ref === undefined || ref === "latest" ? latestRunId(roots.runsDir) : path.basename(path.resolve(cwd, ref));
  if (id === undefined) throw new UsageError(`no run to resume: ${path.join(roots.runsDir, "latest")} does not name one`);
  if (!isRunId(id)) throw new UsageError(`'${ref}' is not a run id (runs/<YYYYmmddTHHMMSSmmmZ-xxxxxx>)`);
  return new RunLayout(roots, id);
}

export interface ResumeOptions {
  readonly layout: RunLayout;
  /** The adapters the recorded `--framework` values select. */
  readonly adapters: (names: readonly string[]) => AdapterEntry[];
  /** The configuration as the environment gives it now, for the recorded mode and repeat. */
  readonly config: (mode: Manifest["mode"], repeat: number) => ArenaConfig;
  readonly retryErrors: boolean;
  readonly force: boolean;
  /** Refuses a corpus that cannot be read, before it is hashed (a FIFO must not be opened). */
  readonly checkCorpus: (file: string) => void;
}

export function planResume(options: ResumeOptions, now = new Date()): RunRequest {
  const { layout } = options;
  const recorded = readManifest(layout.manifest);
  if (recorded.command === "score") {
    throw new UsageError(`refusing to resume ${layout.runId}: it is a re-score of ${recorded.scored_from ?? "another run"}, nothing in it ran (resume that run instead)`);
  }
  // Two processes appending to one journal would run the same cells twice and interleave their lines.
  const last = recorded.sessions.at(-1);
  if (last?.status === "running" && last.process !== undefined && ownerState(last.process) === "alive") {
    throw new UsageError(`refusing to resume ${layout.runId}: process ${last.process.pid} is still running it`);
  }
  const arenas = recorded.arenas.map((a) => loadArena(a.path));
  options.checkCorpus(recorded.corpus.path);
  const config = options.config(recorded.mode, recorded.repeat);
  const snapshot = configSnapshot(config);
  const drift = manifestDrift(recorded, { ...fingerprints(arenas, recorded.corpus.path), config: snapshot });
  if (drift.length > 0 && !options.force) {
    throw new UsageError(`refusing to resume ${layout.runId}: ${drift.join("; ")} (--force resumes anyway)`);
  }
  const journal = readJournal(layout.journal);
  const items = new Map([...journal.items].map(([k, cells]) => [k, new Map(cells)]));
  if (options.retryErrors) {
    for (const cells of items.values()) for (const [k, record] of cells) if (record.error) cells.delete(k);
  }
  const created = new Date(recorded.created_at);
  const manifest: Manifest = {
    ...recorded,
    sessions: [
      ...recorded.sessions,
      {
        started_at: isoSeconds(now),
        status: "running",
        process: currentOwner(),
        kind: options.retryErrors ? "retry-errors" : "resume",
        ...(drift.length > 0 ? { forced: true } : {}),
      },
    ],
  };
  return {
    layout,
    manifest,
    arenas,
    adapters: options.adapters(recorded.frameworks),
    config,
    corpusPath: recorded.corpus.path,
    ...(recorded.item_filter ? { itemFilter: recorded.item_filter } : {}),
    prior: { items, lanes: journal.lanes },
    startedAt: Number.isNaN(created.getTime()) ? now : created,
    session: manifest.sessions.length - 1,
    journalSkipped: journal.skipped,
  };
}
