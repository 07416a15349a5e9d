/**
 * `runs/<run-id>/run.json`: what the run was asked to do and with what, so `--resume` can redo
 * exactly the missing cells with the recorded configuration — and refuse, naming the difference,
 * when the arena data, the corpus, the adapters or the configuration are no longer what they were.
 */
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "../files/atomic.ts";
import type { ArenaConfig } from "../config/arena-config.ts";
import { FORMAT_VERSION } from "../report/record.ts";

const Fingerprinted = z.object({ path: z.string(), sha256: z.string() });

export const ManifestSchema = z.object({
  format_version: z.literal(FORMAT_VERSION),
  run_id: z.string(),
  /** `score`: a re-score of `scored_from`'s recorded answers (`arena score`); nothing ran. */
  command: z.enum(["run", "bench", "score"]),
  /** The run whose answers this run's records re-score; set only with `command: score`. */
  scored_from: z.string().optional(),
  /** The command line as typed, for the record; resuming reads the fields below, not this. */
  argv: z.array(z.string()),
  created_at: z.string(),
  mode: z.enum(["mock", "live"]),
  repeat: z.number().int().positive(),
  frameworks: z.array(z.string()),
  item_filter: z.array(z.string()).optional(),
  /** `--shard I/N`: this run holds one part of the plan (run/shard.ts); `arena merge` joins the parts. */
  shard: z
    .object({
      index: z.number().int().positive(),
      count: z.number().int().positive(),
      /** The whole plan's cells (every shard's), hashed: shards of one plan carry the same value. */
      plan_sha256: z.string(),
      cells: z.number().int().nonnegative(),
      total_cells: z.number().int().nonnegative(),
      cost: z.number().int().nonnegative(),
      total_cost: z.number().int().nonnegative(),
    })
    .optional(),
  /** Set on a run `arena merge` made: the shard runs it joins, in shard order. */
  merged_from: z.array(z.string()).optional(),
  /** `--no-restart` (measurement only): durable pauses resumed on the same process (cli/no-restart.ts). */
  no_restart: z.literal(true).optional(),
  /** `--items-per-worker` when over 1: items one worker carried at once on non-durable arenas (config/items-per-worker.ts). */
  items_per_worker: z.number().int().min(2).optional(),
  arenas: z.array(Fingerprinted.extend({ id: z.string() })),
  corpus: Fingerprinted,
  /** Every config value except the key; `config_hash` is over exactly this object. */
  config: z.record(z.string(), z.union([z.string(), z.number()])),
  config_hash: z.string(),
  sessions: z.array(
    z.object({
      started_at: z.string(),
      finished_at: z.string().optional(),
      status: z.enum(["running", "complete", "interrupted", "failed"]),
      /** `resume`, `retry-errors` or absent (the first session). */
      kind: z.enum(["resume", "retry-errors"]).optional(),
      forced: z.boolean().optional(),
      /** The process that ran the session (owner.ts): a `running` session whose process is gone was killed. */
      process: z
        .object({ pid: z.number().int().positive(), host: z.string(), start_ticks: z.string().optional(), boot_id: z.string().optional() })
        .optional(),
    }),
  ),
});
export type Manifest = z.infer<typeof ManifestSchema>;

/** The files that make an arena what it is, hashed in a fixed order. */
const ARENA_FILES = ["arena.toml", "dataset.jsonl", "mock_script.json", "cases.json"];

export function sha256(...parts: readonly (string | Buffer)[]): string {
  const hash = createHash("sha256");
  for (const p of parts) hash.update(p).update("\u0000");
  return hash.digest("hex");
}

export function fingerprintArena(dir: string): string {
  return sha256(...ARENA_FILES.map((f) => (existsSync(path.join(dir, f)) ? `${f}:${sha256(readFileSync(path.join(dir, f)))}` : `${f}:-`)));
}

export function fingerprintFile(file: string): string {
  return sha256(readFileSync(file));
}

/** The configuration as recorded: the key is never part of it (it may rotate between sessions). */
export function configSnapshot(config: ArenaConfig): Record<string, string | number> {
  return {
    mode: config.mode,
    model: config.model,
    base_url: config.mode === "mock" ? "(mock gateway)" : config.baseUrl,
    temperature: config.temperature,
    request_timeout_s: config.requestTimeoutS,
    max_tool_iterations: config.maxToolIterations,
    price_input_per_m: config.priceInputPerM,
    price_output_per_m: config.priceOutputPerM,
    repeat: config.repeat,
  };
}

export function configHash(snapshot: Record<string, string | number>): string {
  return sha256(JSON.stringify(Object.entries(snapshot).sort(([a], [b]) => (a < b ? -1 : 1))));
}

export class ManifestError extends Error {
  override readonly name = "ManifestError";
  readonly file: string;
  constructor(file: string, problem: string) {
    super(`${file}: ${problem}`);
    this.file = file;
  }
}

export function readManifest(file: string): Manifest {
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ManifestError(file, code === "ENOENT" ? "no such run (run.json is missing)" : `not valid JSON (${(err as Error).message})`);
  }
  const parsed = ManifestSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ManifestError(file, `${issue.path.join(".") || "(root)"}: ${issue.message}`);
  }
  return parsed.data;
}

export function writeManifest(file: string, manifest: Manifest): void {
  writeFileAtomic(file, `${JSON.stringify(manifest, null, 2)}\n`);
}

/**
 * What differs between a recorded run and the present: the reasons `--resume` refuses. Empty
 * means the missing cells can be run and merged with the recorded ones as if never interrupted.
 */
export function manifestDrift(recorded: Manifest, now: Pick<Manifest, "arenas" | "corpus" | "config">): string[] {
  const drift: string[] = [];
  for (const arena of recorded.arenas) {
    const current = now.arenas.find((a) => a.id === arena.id);
    if (!current) drift.push(`arena ${arena.id} is no longer at ${arena.path}`);
    else if (current.sha256 !== arena.sha256) drift.push(`arena ${arena.id}: its files changed (${arena.path})`);
  }
  if (now.corpus.sha256 !== recorded.corpus.sha256) drift.push(`corpus ${recorded.corpus.path} changed`);
  for (const [key, value] of Object.entries(recorded.config)) {
    if (now.config[key] !== value) drift.push(`config ${key}: ${JSON.stringify(value)} then, ${JSON.stringify(now.config[key])} now`);
  }
  return drift;
}
