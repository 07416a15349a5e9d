/**
 * `arena merge RUN… [--out DIR]`: the shard runs of one plan (`--shard I/N`) as one run folder.
 * The shards are checked to belong together (store/merge-check.ts), their cells laid out as the
 * unsharded run lays them out (store/merge.ts), and the result goes through the conclusion every
 * run goes through (cli/run-conclude.ts): the same writers make its records, scorecards, summary
 * and report, and the same judgement gives its exit code.
 */
import { existsSync, statSync } from "node:fs";
import path from "node:path";
import { loadArena } from "../../arena/load.ts";
import type { Arena } from "../../arena/schemas.ts";
import { DEFAULTS, readEnvironment, type ArenaConfig } from "../../config/arena-config.ts";
import { HistoryError, resolveRun } from "../../history/runs.ts";
import { RecordReadError } from "../../report/output.ts";
import { isoSeconds } from "../../report/record.ts";
import { planRun, type RunOutcome } from "../../run/index.ts";
import { JournalWriter } from "../../store/journal.ts";
import { pointLatestAt } from "../../store/latest.ts";
import { claimRunFolder, RunLayout, type OutputRoots } from "../../store/layout.ts";
import { fingerprintArena, ManifestError, readManifest, writeManifest, type Manifest } from "../../store/manifest.ts";
import { mergeShards, readShard, type MergeArena } from "../../store/merge.ts";
import { checkShards, MergeRefusedError } from "../../store/merge-check.ts";
import { currentOwner } from "../../store/owner.ts";
import { UsageError, type CommandContext } from "../command.ts";
import { EXIT_USAGE } from "../exit-codes.ts";
import { REPO_ROOT, resolveOutputRoots } from "../paths.ts";
import { concludeRun } from "../run-conclude.ts";
import { planJudgement } from "../run-judgement.ts";
import { resolveAdapters } from "../run-flow.ts";
import type { RunRequest } from "../run-plan.ts";

/** A run id (or `latest`) in the configured runs folder, or a run folder anywhere (a CI artifact). */
function locate(roots: OutputRoots, ref: string, cwd: string): RunLayout {
  const dir = path.resolve(cwd, ref);
  if (existsSync(path.join(dir, "run.json")) && statSync(dir).isDirectory()) return new RunLayout({ ...roots, runsDir: path.dirname(dir) }, path.basename(dir));
  try {
    return resolveRun(roots, ref, cwd);
  } catch (err) {
    if (err instanceof HistoryError) throw new UsageError(err.message);
    throw err;
  }
}

/** The configuration as the shards recorded it; a merge calls no provider, so no key is read. */
function recordedConfig(manifest: Manifest): ArenaConfig {
  const c = manifest.config;
  const text = (k: string, fallback: string) => (typeof c[k] === "string" ? (c[k] as string) : fallback);
  const num = (k: string, fallback: number) => (typeof c[k] === "number" ? (c[k] as number) : fallback);
  return {
    ...DEFAULTS,
    mode: manifest.mode,
    repeat: manifest.repeat,
    model: text("model", DEFAULTS.model),
    temperature: num("temperature", DEFAULTS.temperature),
    requestTimeoutS: num("request_timeout_s", DEFAULTS.requestTimeoutS),
    maxToolIterations: num("max_tool_iterations", DEFAULTS.maxToolIterations),
    priceInputPerM: num("price_input_per_m", DEFAULTS.priceInputPerM),
    priceOutputPerM: num("price_output_per_m", DEFAULTS.priceOutputPerM),
  };
}

/** The arenas as the shards recorded them, refused when their files changed since. */
function recordedArenas(manifest: Manifest, cwd: string): Arena[] {
  const changed = manifest.arenas.filter((a) => !existsSync(a.path) || fingerprintArena(a.path) !== a.sha256);
  if (changed.length > 0) {
    throw new MergeRefusedError(changed.map((a) => `arena ${a.id}: its files at ${a.path} are not what the shards ran (check out the commit they ran at)`));
  }
  return manifest.arenas.map((a) => loadArena(a.path, { cwd }));
}

export async function run(ctx: CommandContext): Promise<number> {
  const { io, positionals, flags } = ctx;
  if (positionals.length === 0) throw new UsageError("expected the shard runs to merge (RUN…: run ids or run folders)");
  const roots = resolveOutputRoots(readEnvironment(process.env, REPO_ROOT), io.cwd);
  const out = typeof flags.out === "string" ? path.resolve(io.cwd, flags.out) : roots.runsDir;
  try {
    const runs = positionals.map((ref) => {
      const layout = locate(roots, ref, io.cwd);
      try {
        return { ref, runId: layout.runId, manifest: readManifest(layout.manifest), dir: layout.dir };
      } catch (err) {
        if (err instanceof ManifestError) throw new MergeRefusedError([err.message]);
        throw err;
      }
    });
    const shards = checkShards(runs);
    const first = shards[0]!.manifest;
    const arenas = recordedArenas(first, io.cwd);
    const adapters = resolveAdapters(first.frameworks);
    const plan: MergeArena[] = planRun(arenas, adapters, first.item_filter).map((p) => ({
      id: p.arena.id,
      items: p.items.map((i) => ({ id: i.id, input: i.input })),
      adapters: p.adapters.map((a) => a.name),
    }));
    const contents = shards.map((s) => readShard(s.ref, s.dir));
    // A merged live run is judged as a live run is (run-judgement.ts), and checked before anything is written.
    const judgement = planJudgement(flags, first.mode, { roots, cwd: io.cwd, runId: "(merged)" }, (line) => io.stderr(`warning: ${line}\n`));

    // Merged before a folder is claimed, so a refusal leaves nothing behind.
    const merged = mergeShards(plan, first.repeat, contents, "");
    const now = new Date();
    const layout = claimRunFolder({ ...roots, runsDir: out }, now);
    const records = merged.records.map((r) => ({ ...r, run_id: layout.runId }));
    const { shard: _shard, ...common } = first;
    const manifest: Manifest = {
      ...common,
      run_id: layout.runId,
      argv: process.argv.slice(2),
      created_at: isoSeconds(now),
      merged_from: shards.map((s) => s.runId),
      sessions: [{ started_at: isoSeconds(now), status: "running", process: currentOwner() }],
    };
    writeManifest(layout.manifest, manifest);
    pointLatestAt(out, layout.runId);
    // The merged run is a run folder like any other: its journal lets `--resume`, `runs` and `score` read it.
    const journal = new JournalWriter(layout.journal);
    for (const record of records) {
      for (const { items, ...lane } of record.frameworks) {
        journal.append({ type: "lane", arena: record.arena, lane });
        for (const item of items) journal.append({ type: "item", arena: record.arena, framework: lane.framework, record: item });
      }
    }
    io.stderr(`merging ${shards.length} shard(s) of ${first.shard!.plan_sha256.slice(0, 12)}: ${shards.map((s) => s.runId).join(", ")}\n`);
    const config = recordedConfig(first);
    const request: RunRequest = {
      layout,
      manifest,
      arenas,
      adapters,
      config,
      corpusPath: first.corpus.path,
      ...(first.item_filter ? { itemFilter: first.item_filter } : {}),
      startedAt: now,
      session: 0,
    };
    const outcome: RunOutcome = {
      records,
      failedItems: records.flatMap((r) => r.frameworks.flatMap((f) => f.items)).filter((i) => !i.passed).length,
      interrupted: false,
      gatewayRecords: new Map(),
      transcripts: merged.transcripts,
      timings: [],
      laneWitnessTimings: [],
    };
    const command = first.command === "bench" ? "bench" : "run";
    return await concludeRun({ request, outcome, io, flags: { expectations: flags.expectations, strict: flags.strict }, command, ...(judgement ? { judgement } : {}) });
  } catch (err) {
    if (err instanceof MergeRefusedError) {
      io.stderr(`arena merge: ${err.message}\n`);
      return EXIT_USAGE;
    }
    if (err instanceof RecordReadError) {
      io.stderr(`arena merge: cannot merge: ${err.message}\n`);
      return EXIT_USAGE;
    }
    throw err;
  }
}
