/**
 * What `arena run` and `arena bench` share: plan the run (new, or the missing cells of a recorded
 * one), check everything that can be checked before the first item, run with a journal, write the
 * run folder, and map the outcome to an exit code (exit-codes.ts).
 */
import { loadArena } from "../arena/load.ts";
import type { Arena } from "../arena/schemas.ts";
import { defaultConcurrency, MAX_CONCURRENCY } from "../config/concurrency.ts";
import { defaultItemsPerWorker, ITEMS_PER_WORKER_FLAG, MAX_ITEMS_PER_WORKER } from "../config/items-per-worker.ts";
import { ConfigError, emptyValueNotes, LiveRefusedError, loadArenaConfig, MAX_REPEAT, parseCount, readEnvironment, type ArenaConfig, type Mode } from "../config/arena-config.ts";
import { redactSecrets, registerSecrets } from "../files/redact.ts";
import { runArenas, type AdapterEntry } from "../run/index.ts";
import { workerKeyFor } from "../run/run-gateway.ts";
import { cellKey, JournalWriter } from "../store/journal.ts";
import { ADAPTER_CATALOG, ADAPTER_GROUP_NAMES, adapterGroup, findAdapter } from "../../contract/catalogue.ts";
import { CorpusError, loadCorpus } from "../../contract/tools/search.ts";
import { UsageError, type CommandContext, type Io } from "./command.ts";
import { selectArenas } from "./common.ts";
import { adapterModuleAt } from "./adapter-path.ts";
import { EXIT_USAGE, exitForSignal } from "./exit-codes.ts";
import { onInterrupt } from "./interrupt.ts";
import { createProgress } from "./progress.ts";
import { didYouMean } from "./suggest.ts";
import { planNewRun, planResume, resolveRunRef, type RunRequest } from "./run-plan.ts";
import { beforeFirstItem } from "./run-checks.ts";
import { markedNoRestart, noRestartOf } from "./no-restart.ts";
import { applyShard, shardLine } from "./run-shard.ts";
import { concludeRun } from "./run-conclude.ts";
import { checkItems } from "./run-items.ts";
import { planJudgement } from "./run-judgement.ts";
import { checkExpectations, refuseInvalidArenas } from "./run-inputs.ts";

import { REPO_ROOT, resolveOutputRoots } from "./paths.ts";
import { readSandboxMode } from "../supervisor/sandbox/mode.ts";
import { gitSha, machine, providerHost, type Provenance } from "../report/provenance.ts";

export { REPO_ROOT };

/** How an `--adapter PATH` is recorded among the framework arguments (and read back on resume). */
const MODULE_ARG = "module:";

export function resolveAdapters(raw: unknown): AdapterEntry[] {
  const names = Array.isArray(raw) ? (raw as string[]) : ["all"];
  const out: AdapterEntry[] = [];
  for (const name of names) {
    if (name.startsWith(MODULE_ARG)) {
      const own = adapterModuleAt(name.slice(MODULE_ARG.length), "/");
      if (out.some((o) => o.name === own.name)) throw new UsageError(`--adapter ${own.module}: an adapter named '${own.name}' is already in the run`);
      out.push({ name: own.name, module: own.module });
      continue;
    }
    const group = adapterGroup(name);
    if (group) {
      for (const e of group) {
        if (!out.some((o) => o.name === e.name)) {
          out.push({ name: e.name, module: e.module, variant: e.arenas !== undefined, ...(e.arenas ? { onlyArenas: e.arenas } : {}) });
        }
      }
      continue;
    }
    const entry = findAdapter(name);
    if (!entry) {
      const known = [...ADAPTER_CATALOG.map((e) => e.name), ...ADAPTER_GROUP_NAMES];
      throw new UsageError(`unknown framework '${name}'${didYouMean(name, known)} (known: ${known.join(", ")})`);
    }
    if (!out.some((o) => o.name === name)) out.push({ name, module: entry.module, variant: entry.arenas !== undefined });
  }
  return out;
}

export interface RunFlowOptions {
  readonly command: "run" | "bench";
  readonly items?: readonly string[];
}

/** A flag's value as a count, through the same parser as the environment's numbers, at most `max`. */
function countFlag(raw: unknown, flag: string, fallback: number, max: number): number {
  if (raw === undefined) return fallback;
  return parseCount(String(raw), `--${flag}`, { max });
}

/** Everything written to the terminal goes through redaction too: a provider may echo the key. */
function redactedIo(io: Io): Io {
  return { cwd: io.cwd, stdout: (t) => io.stdout(redactSecrets(t)), stderr: (t) => io.stderr(redactSecrets(t)) };
}

/** `mode` only when given: otherwise ARENA_LLM_MODE (or the default) decides (harness.md §1). */
function loadConfig(env: Readonly<Record<string, string | undefined>>, mode: Mode | undefined, repeat: number): ArenaConfig {
  return loadArenaConfig(env, { ...(mode !== undefined ? { mode } : {}), repeat });
}

export async function runFlow(ctx: CommandContext, options: RunFlowOptions): Promise<number> {
  const io = redactedIo(ctx.io);
  const { flags, common } = ctx;
  const env = readEnvironment(process.env, REPO_ROOT); // a broken .env is a ConfigError: exit 2 (main.ts)
  const roots = resolveOutputRoots(env, io.cwd);
  for (const note of emptyValueNotes(env)) io.stderr(`${note}\n`);
  // Checked with the other values, before the run folder exists (the pools read it again).
  readSandboxMode(env);
  const resumeRef = flags.resume === true ? (ctx.positionals[0] ?? "latest") : typeof flags["retry-errors"] === "string" ? flags["retry-errors"] : undefined;
  if (flags.resume !== true && ctx.positionals.length > 0) throw new UsageError(`unexpected argument '${ctx.positionals[0]}' (a run id goes after --resume)`);

  let request: RunRequest;
  try {
    if (resumeRef !== undefined) {
      for (const flag of ["framework", "adapter", "mode", "repeat", "item", "no-restart"]) {
        if (flags[flag] !== undefined) throw new UsageError(`--${flag} cannot be combined with a resume: it runs with the recorded configuration`);
      }
      request = planResume({
        layout: resolveRunRef(roots, resumeRef, io.cwd),
        adapters: (names) => resolveAdapters(names),
        config: (mode, repeat) => loadConfig(env, mode, repeat),
        retryErrors: flags["retry-errors"] !== undefined,
        force: flags.force === true,
        checkCorpus,
      });
    } else {
      // `arena run` alone once ran the whole matrix (hundreds of cells): the full matrix is what
      // `bench` is for, and a `run` names what it runs.
      if (options.command === "run" && common.arenas.length === 0 && (options.items ?? []).length === 0) {
        throw new UsageError("--arena ID or --item ID says what to run (the whole matrix is arena bench)");
      }
      const mode = flags.mode as string | undefined;
      if (mode !== undefined && mode !== "mock" && mode !== "live") throw new UsageError(`--mode must be mock or live, got '${mode}'`);
      const config = loadConfig(env, mode as Mode | undefined, countFlag(flags.repeat, "repeat", 1, MAX_REPEAT));
      // `--adapter PATH` (an author's own module) alone runs just that; with --framework, both.
      const own = (Array.isArray(flags.adapter) ? (flags.adapter as string[]) : []).map((p) => `${MODULE_ARG}${adapterModuleAt(p, io.cwd).module}`);
      const named = Array.isArray(flags.framework) ? (flags.framework as string[]) : own.length > 0 ? [] : ["all"];
      const adapterArgs = [...named, ...own];
      const entries = resolveAdapters(adapterArgs);
      let arenas: Arena[] = selectArenas(common, io.cwd).map((ref) => loadArena(ref.dir));
      if (arenas.length === 0) throw new UsageError(`no arenas in ${common.arenasDir}`);
      arenas = checkItems(arenas, options.items ?? [], common.arenas.length > 0);
      checkCorpus(common.corpus);
      request = planNewRun({
        command: options.command,
        argv: process.argv.slice(2),
        roots,
        arenas,
        adapters: entries,
        adapterArgs,
        config,
        corpusPath: common.corpus,
        ...(options.items && options.items.length > 0 ? { itemFilter: options.items } : {}),
      });
    }
    request = applyShard(request, flags, resumeRef !== undefined);
    // Both a new run and a resume: the arenas may have changed since, the flags are this session's.
    refuseInvalidArenas(request.arenas, request.config.mode, io.cwd);
    if (noRestartOf(flags, request) && request.session === 0) request = markedNoRestart(request);
    request = withItemsPerWorker(request, flags);
    checkExpectations(flags, request.arenas, io.cwd);
  } catch (err) {
    if (err instanceof LiveRefusedError) {
      io.stderr(`${err.message}\n`);
      return EXIT_USAGE;
    }
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
  // Before any money is spent: the flags that judge the run must fit its mode, and their files and baseline must read.
  const judgement = planJudgement(flags, request.config.mode, { roots, cwd: io.cwd, runId: request.layout.runId }, (line) => io.stderr(`warning: ${line}\n`));
  // The provider's key, and the per-run key the workers are given instead (the proxy swaps them).
  registerSecrets([request.config.apiKey, workerKeyFor(request.config)]);
  for (const skipped of request.journalSkipped ?? []) {
    io.stderr(`warning: ${request.layout.journal}:${skipped.line}: skipped (${skipped.problem}); that cell runs again\n`);
  }

  const requested = { value: countFlag(flags.concurrency, "concurrency", defaultConcurrency(request.config.mode), MAX_CONCURRENCY), given: flags.concurrency !== undefined };
  const checked = await beforeFirstItem(request, requested, io);
  if (checked.exitCode !== undefined) return checked.exitCode;
  request = checked.request;

  const shard = shardLine(request);
  if (shard !== undefined) io.stderr(`${shard}\n`);
  const journal = new JournalWriter(request.layout.journal);
  const progress = createProgress({
    write: (t) => io.stderr(t),
    mode: flags.quiet === true ? "quiet" : process.stderr.isTTY ? "tty" : "plain",
  });
  const interrupt = onInterrupt((line) => io.stderr(`\n${line}\n`));
  let outcome;
  try {
    outcome = await runArenas({
      arenas: request.arenas,
      adapters: request.adapters,
      config: request.config,
      corpusPath: request.corpusPath,
      runId: request.layout.runId,
      startedAt: request.startedAt,
      concurrency: checked.concurrency,
      ...(request.manifest.no_restart ? { reuseWorkerAcrossPause: true } : {}),
      ...(request.manifest.items_per_worker ? { itemsPerWorker: request.manifest.items_per_worker } : {}),
      ...(request.itemFilter ? { itemFilter: request.itemFilter } : {}),
      ...(request.keepCell ? { keepCell: request.keepCell } : {}),
      ...(request.prior ? { prior: request.prior } : {}),
      // Per session: a resume's workers are new processes and must not append to the first session's logs.
      dirs: request.layout.sessionDirs(request.session),
      onItem: (arena, adapter, record) => {
        journal.append({ type: "item", arena, framework: adapter, record });
        progress.onItem(arena, adapter, record);
      },
      onLane: (arena, lane) => journal.append({ type: "lane", arena, lane }),
      checkLane: (arena, adapter, libVersion) => {
        const recorded = request.prior?.lanes.get(cellKey(arena, adapter));
        if (!recorded?.available || recorded.lib_version === libVersion || flags.force === true) return undefined;
        return `refusing to resume ${request.layout.runId}: ${adapter} is ${libVersion} now, ${recorded.lib_version} when the run recorded it (--force resumes anyway)`;
      },
      signal: interrupt.signal,
      provenance: provenanceOf(request, checked.concurrency),
      onProgress: (e) => progress.onProgress(e),
      onPlan: (plan) => progress.onPlan(plan),
    });
  } finally {
    progress.stop();
    interrupt.dispose();
  }
  const received = interrupt.received();
  return concludeRun({
    request,
    outcome,
    io,
    flags,
    command: options.command,
    ...(judgement ? { judgement } : {}),
    ...(received ? { interruptedBy: received, interruptExit: exitForSignal(received) } : {}),
  });
}

/**
 * `--items-per-worker` (config/items-per-worker.ts) into a new run's manifest, when over 1; a
 * resume runs as the run was recorded, so the flag may only repeat the recorded value there.
 */
function withItemsPerWorker(request: RunRequest, flags: Readonly<Record<string, unknown>>): RunRequest {
  const recorded = request.manifest.items_per_worker ?? 1;
  const given = flags[ITEMS_PER_WORKER_FLAG];
  const value = countFlag(given, ITEMS_PER_WORKER_FLAG, request.session > 0 ? recorded : defaultItemsPerWorker(request.config.mode), MAX_ITEMS_PER_WORKER);
  if (request.session > 0) {
    if (value !== recorded) throw new UsageError(`--${ITEMS_PER_WORKER_FLAG} ${value}: a resume runs as the run was recorded (${recorded} item${recorded === 1 ? "" : "s"} per worker)`);
    return request;
  }
  const { items_per_worker: _old, ...manifest } = request.manifest;
  return { ...request, manifest: value > 1 ? { ...manifest, items_per_worker: value } : manifest };
}

/** Every worker loads the corpus too, but a bad one is the user's input: say so here, once. */
function checkCorpus(file: string): void {
  try {
    loadCorpus(file);
  } catch (err) {
    if (err instanceof CorpusError) throw new UsageError(`--corpus ${err.message}`);
    throw err;
  }
}
/** What every record of this session says about its origins (report/provenance.ts). */
function provenanceOf(request: RunRequest, concurrency: number): (arenaId: string) => Provenance {
  const { manifest, config } = request;
  const shared = {
    command: process.argv.slice(2),
    git_sha: gitSha(REPO_ROOT),
    provider_host: providerHost(config.mode, config.baseUrl),
    config: manifest.config,
    concurrency,
    ...(manifest.no_restart ? { no_restart: true as const } : {}),
    ...(manifest.items_per_worker ? { items_per_worker: manifest.items_per_worker } : {}),
    corpus_sha256: manifest.corpus.sha256,
    machine: machine(),
  };
  return (arenaId) => ({ ...shared, arena_sha256: manifest.arenas.find((a) => a.id === arenaId)?.sha256 ?? "" });
}

