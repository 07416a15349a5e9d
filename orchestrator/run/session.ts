/**
 * One run: every selected arena × adapter × item × repeat, scheduled on one p-queue. Each adapter
 * gets one worker pool for the run, and each adapter × arena a "lane" that opens the arena on it
 * (a build in a worker) on first use; the pool closes after the adapter's last lane, so the number
 * of live processes tracks the concurrency, not the size of the matrix.
 */
import { mkdirSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import PQueue from "p-queue";
import type { Arena, Item } from "../arena/schemas.ts";
import type { ArenaConfig } from "../config/arena-config.ts";
import {
  HARNESS_VERSION,
  timestamps,
  type FrameworkRecord,
  type ItemRecord,
  type LegRecord,
  type RunRecord,
} from "../report/record.ts";
import { writeRunOutputs, writeSummary, type OutputDirs } from "../report/output.ts";
import { checkDeclaredDelegates, isSuspendTool, namesFor } from "../../workers/tools/registry.ts";
import { WorkerPool } from "../workers/pool.ts";
import { driveItem, type DrivenLeg } from "./drive.ts";
import { startRunGateway, type GatewayFaults, type RunGateway } from "./run-gateway.ts";
import type { GatewayRecords } from "../gateway/index.ts";
import { createScorer, type Scorer } from "./scorer.ts";

export interface AdapterEntry {
  readonly name: string;
  /** Absolute path of the module whose default export is the Adapter. */
  readonly module: string;
  /** A variant entry (a different structure, e.g. a pipeline); marked † in summaries. */
  readonly variant?: boolean;
  /** Run only on these arenas (set for variants selected through `all`; absent = every arena). */
  readonly onlyArenas?: readonly string[];
}

export interface ProgressEvent {
  readonly arena: string;
  readonly framework: string;
  readonly itemId?: string;
  readonly repeat?: number;
  readonly passed?: boolean;
  readonly unavailable?: string;
  readonly done: number;
  readonly total: number;
}

export interface RunOptions {
  readonly arenas: readonly Arena[];
  readonly adapters: readonly AdapterEntry[];
  readonly config: ArenaConfig;
  readonly corpusPath: string;
  /** Items in flight at once (default: number of cores). */
  readonly concurrency?: number;
  /** Restrict to these item ids (a partial run: no scorecard). */
  readonly itemFilter?: readonly string[];
  readonly dirs: OutputDirs & {
    /** Harness-owned checkpoint root; each adapter × arena gets a fresh subfolder. */
    readonly checkpointsDir: string;
  };
  /** Write records/scorecards/summary (tests may only want the records in memory). */
  readonly write?: boolean;
  readonly onProgress?: (event: ProgressEvent) => void;
  /** Per-leg deadline for a worker's answer (default: derived from the request timeout and budget). */
  readonly legDeadlineMs?: number;
  /** Per-item scoring deadline (regexes from data files score untrusted text). */
  readonly scoreDeadlineMs?: number;
  /** Test-only: resume durable arenas on the same process. See DriveOptions. */
  readonly reuseWorkerAcrossPause?: boolean;
  /** Extra environment for workers (tests). */
  readonly workerEnv?: Readonly<Record<string, string>>;
  /** Working directory for workers (probes run them in an empty temp dir; default: inherited). */
  readonly workerCwd?: string;
  /** Transport faults for the mock gateways (probes). */
  readonly gatewayFaults?: GatewayFaults;
}

export interface RunOutcome {
  readonly records: RunRecord[];
  readonly recordPaths: string[];
  readonly summaryPath?: string;
  /** Items that failed or errored, over all arenas and frameworks. */
  readonly failedItems: number;
  /** What each arena's mock gateway received and served, by arena id (mock mode only). */
  readonly gatewayRecords: ReadonlyMap<string, GatewayRecords>;
  /** Where each item's time went (for the harness benchmark; not part of any record). */
  readonly timings: readonly ItemTiming[];
}

export interface ItemTiming {
  readonly arena: string;
  readonly framework: string;
  readonly itemId: string;
  /** Orchestrator wall time for the item's legs, restarts included. */
  readonly wallSeconds: number;
  /** Time inside the adapter's run/resume, measured in the workers. */
  readonly adapterSeconds: number;
  /** Time to score the item off the main loop. */
  readonly scoreSeconds: number;
  readonly restarts: number;
}

function workItem(item: Item) {
  return { id: item.id, input: item.input, resume_with: item.resume_with };
}

function legRecord(leg: DrivenLeg): LegRecord {
  return {
    prompt_tokens: leg.result.prompt_tokens,
    completion_tokens: leg.result.completion_tokens,
    llm_calls: leg.result.llm_calls,
    tool_calls: leg.result.tool_calls.map((c) => c.name),
    suspended: leg.result.suspended,
    ...(leg.served ? { served: leg.served } : {}),
    ...(leg.resumeStateBytes !== undefined ? { resume_state_bytes: leg.resumeStateBytes } : {}),
  };
}

function requiresPause(arena: Arena): boolean {
  return namesFor(arena.declaredTools).some(isSuspendTool);
}

export async function runArenas(options: RunOptions): Promise<RunOutcome> {
  const { config } = options;
  const concurrency = options.concurrency ?? os.availableParallelism();
  const queue = new PQueue({ concurrency });
  const started = new Date();
  const stamp = timestamps(started);
  const runId = `${stamp.file}-${process.pid}`;
  const logDir = path.join(options.dirs.runsDir, "logs", runId);
  mkdirSync(logDir, { recursive: true });
  const legDeadlineMs =
    options.legDeadlineMs ?? Math.max(30_000, config.requestTimeoutS * 1000 * (config.maxToolIterations + 1) + 5_000);
  const allArenaTools = [...new Set(options.arenas.flatMap((a) => namesFor(a.declaredTools)))];
  const gateways = new Map<string, RunGateway>();
  const records: RunRecord[] = [];
  const gatewayRecords = new Map<string, GatewayRecords>();
  const timings: ItemTiming[] = [];
  let failedItems = 0;

  const plan = options.arenas.map((arena) => ({
    arena,
    items: options.itemFilter ? arena.items.filter((i) => options.itemFilter!.includes(i.id)) : arena.items,
    adapters: options.adapters.filter((a) => !a.onlyArenas || a.onlyArenas.includes(arena.id)),
  }));
  const scorer: Scorer = createScorer({
    deadlineMs: options.scoreDeadlineMs ?? 2_000,
    expectedChecks: plan.flatMap((p) => p.items.map((i) => i.checks)),
  });
  const total = plan.reduce((acc, p) => acc + p.items.length * config.repeat * p.adapters.length, 0);
  let done = 0;
  const pools = new Map<AdapterEntry, { pool: WorkerPool; lanesLeft: number }>();
  for (const adapter of options.adapters) {
    const lanes = plan.filter((p) => p.adapters.includes(adapter)).length;
    if (lanes === 0) continue;
    const pool = new WorkerPool({
      adapter: { name: adapter.name, module: adapter.module },
      corpusPath: options.corpusPath,
      logDir,
      label: adapter.name,
      env: options.workerEnv,
      cwd: options.workerCwd,
    });
    pools.set(adapter, { pool, lanesLeft: lanes });
  }

  try {
    for (const { arena } of plan) {
      gateways.set(arena.id, await startRunGateway(arena, config, options.gatewayFaults));
    }
    const arenaRuns = plan.map(async ({ arena, items, adapters }) => {
      // Arenas share one queue, so an arena's duration is the span of its own items (first start to
      // last end), not the time since the run began.
      const span = { start: Number.POSITIVE_INFINITY, end: Number.NEGATIVE_INFINITY };
      const gateway = gateways.get(arena.id)!;
      const frameworks = await Promise.all(adapters.map((adapter) => runLane({ arena, items, adapter, gateway, span })));
      const record: RunRecord = {
        schema: 1,
        arena: arena.id,
        arena_description: arena.description,
        mode: config.mode,
        model: config.mode === "mock" ? "mock-model" : config.model,
        temperature: config.temperature,
        repeat: config.repeat,
        dataset_size: items.length,
        ...(options.itemFilter ? { filtered_to: [...items.map((i) => i.id)].sort() } : {}),
        started_at: stamp.iso,
        duration_s: span.end > span.start ? Math.round((span.end - span.start) / 10) / 100 : 0,
        harness_version: HARNESS_VERSION,
        node: process.versions.node,
        platform: `${process.platform}-${process.arch}`,
        pricing: { input_per_m: config.priceInputPerM, output_per_m: config.priceOutputPerM },
        frameworks,
      };
      return record;
    });
    records.push(...(await Promise.all(arenaRuns)));
  } finally {
    await Promise.all([...pools.values()].map((p) => p.pool.close()));
    for (const [id, g] of gateways) if (g.mock) gatewayRecords.set(id, g.mock.recorder.records());
    await Promise.all([...gateways.values()].map((g) => g.stop()));
    await scorer.close();
  }

  const recordPaths: string[] = [];
  let summaryPath: string | undefined;
  if (options.write !== false) {
    for (const record of records) recordPaths.push(writeRunOutputs(options.dirs, record).recordPath);
    if (!options.itemFilter) summaryPath = writeSummary(options.dirs, config.mode);
  }
  return { records, recordPaths, summaryPath, failedItems, gatewayRecords, timings };

  async function runLane(lane: {
    arena: Arena;
    items: readonly Item[];
    adapter: AdapterEntry;
    gateway: RunGateway;
    span: { start: number; end: number };
  }): Promise<FrameworkRecord> {
    const { arena, items, adapter, gateway, span } = lane;
    const variant = adapter.variant ?? false;
    const checkpointDir = path.join(options.dirs.checkpointsDir, runId, adapter.name, arena.id);
    rmSync(checkpointDir, { recursive: true, force: true });
    mkdirSync(checkpointDir, { recursive: true });
    const shared = pools.get(adapter)!;
    const pool = shared.pool;
    /** This lane is finished: its spares go back to the pool, which closes after the adapter's last lane. */
    const laneDone = async () => {
      await pool.retire(arena.id);
      shared.lanesLeft -= 1;
      if (shared.lanesLeft === 0) await pool.close();
    };
    const unavailable = (reason: string, kind: FrameworkRecord["unavailable_kind"], libVersion: string, traceback?: string) => {
      done += items.length * config.repeat;
      options.onProgress?.({ arena: arena.id, framework: adapter.name, unavailable: reason, done, total });
      return {
        framework: adapter.name,
        available: false,
        lib_version: libVersion,
        variant,
        reason,
        unavailable_kind: kind,
        ...(traceback ? { traceback } : {}),
        items: [],
      } satisfies FrameworkRecord;
    };

    const opened = await queue.add(() =>
      pool.open({
        arena: { id: arena.id, tools: [...arena.declaredTools], systemPrompt: arena.systemPrompt, durable: arena.durable },
        config: {
          model: config.model,
          apiKey: config.apiKey,
          temperature: config.temperature,
          requestTimeoutS: config.requestTimeoutS,
          maxToolIterations: config.maxToolIterations,
          checkpointDir,
        },
        baseUrlFor: (tag) => gateway.baseUrlFor(tag),
        // Two per item in flight: a spare can start while the one before it is claimed.
        warmSpares: arena.durable && !options.reuseWorkerAcrossPause ? 2 * concurrency : 0,
        spareBudget: items.length * config.repeat,
      }),
    );
    if (!opened || !opened.ok) {
      await laneDone();
      if (!opened) return unavailable("build did not run", "build_failed", "unknown");
      if ("failure" in opened) {
        return unavailable(`build failed: ${opened.failure.message}`, "build_failed", "unknown", opened.failure.logTail);
      }
      return unavailable(opened.reason, opened.kind, opened.libVersion, opened.traceback);
    }
    try {
      checkDeclaredDelegates(opened.delegates, allArenaTools);
    } catch (err) {
      await laneDone();
      return unavailable(`build failed: ${(err as Error).message}`, "build_failed", opened.libVersion);
    }
    if (requiresPause(arena) && !opened.resumable) {
      await laneDone();
      return unavailable(
        "arena requires the run to pause and resume, but this adapter does not implement the resume API",
        "unsupported",
        opened.libVersion,
      );
    }

    const jobs: Promise<ItemRecord>[] = [];
    for (let repeat = 0; repeat < config.repeat; repeat++) {
      for (const item of items) {
        jobs.push(
          queue.add(async () => {
            span.start = Math.min(span.start, performance.now());
            const driven = await driveItem(pool, workItem(item), {
              arena: arena.id,
              durable: arena.durable,
              legDeadlineMs,
              reuseWorkerAcrossPause: options.reuseWorkerAcrossPause,
              servedUsage: (tag) => gateway.servedUsage(tag),
            });
            const m = driven.merged;
            const scoreStart = performance.now();
            const score = await scorer.score(item.checks, {
              outputText: m.output_text ?? "",
              toolNames: m.tool_calls.map((c) => c.name),
              beforeSuspend: m.tool_calls_before_suspend.map((c) => c.name),
              suspends: m.suspends,
              error: m.error,
            });
            const record: ItemRecord = {
              repeat,
              item_id: item.id,
              passed: score.passed,
              checks: score.checks,
              output_text: m.output_text ?? "",
              tool_calls: m.tool_calls.map((c) => c.name),
              prompt_tokens: m.prompt_tokens,
              completion_tokens: m.completion_tokens,
              latency_s: Math.round((m.latency_s || driven.wallSeconds) * 10_000) / 10_000,
              llm_calls: m.llm_calls,
              error: m.error,
              ...(m.suspends > 0
                ? { suspends: m.suspends, tool_calls_before_suspend: m.tool_calls_before_suspend.map((c) => c.name) }
                : {}),
              ...(driven.served ? { served: driven.served } : {}),
              ...(driven.legs.length > 1 ? { legs: driven.legs.map(legRecord) } : {}),
              ...(driven.traceback ? { traceback: driven.traceback } : {}),
            };
            timings.push({
              arena: arena.id,
              framework: adapter.name,
              itemId: item.id,
              wallSeconds: driven.wallSeconds,
              adapterSeconds: driven.adapterSeconds,
              scoreSeconds: (performance.now() - scoreStart) / 1000,
              restarts: driven.restarts,
            });
            span.end = Math.max(span.end, performance.now());
            if (!record.passed) failedItems += 1;
            done += 1;
            options.onProgress?.({
              arena: arena.id,
              framework: adapter.name,
              itemId: item.id,
              repeat,
              passed: record.passed,
              done,
              total,
            });
            return record;
          }) as Promise<ItemRecord>,
        );
      }
    }
    try {
      const itemRecords = await Promise.all(jobs);
      return { framework: adapter.name, available: true, lib_version: opened.libVersion, variant, items: itemRecords };
    } finally {
      await laneDone();
    }
  }
}
