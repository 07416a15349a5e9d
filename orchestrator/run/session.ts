/**
 * One session of a run: every planned arena × adapter × item × repeat, scheduled on one queue (run-queue.ts).
 * Each adapter gets one worker pool for the session, and each adapter × arena a lane (lane.ts)
 * that opens the arena on it on first use; the pool closes after the adapter's last lane, so the
 * number of live processes tracks the concurrency, not the size of the matrix. It returns the
 * records; what gets written is the CLI's decision.
 */
import { mkdirSync } from "node:fs";
import os from "node:os";
import type { Arena, Item } from "../arena/schemas.ts";
import { inside } from "../files/safe-path.ts";
import type { GatewayRecords } from "../gateway/index.ts";
import { FORMAT_VERSION, HARNESS_VERSION, isoSeconds, type AdapterRecord, type RunRecord } from "../report/record.ts";
import { WorkerPool } from "../supervisor/pool.ts";
import { WorkerBudget } from "../supervisor/worker-budget.ts";
import { seatsFor } from "../config/items-per-worker.ts";
import { backgroundRemovalsSettled } from "../supervisor/sandbox/background-removal.ts";
import { Isolation } from "../supervisor/sandbox/index.ts";
import { canonicalOutputs } from "../witness/canonical.ts";
import { namesFor } from "../../contract/tools/registry.ts";
import type { LateViolation, RunContext, SharedPool } from "./context.ts";
import { CircuitBreaker } from "./breaker.ts";
import { runLane } from "./lane.ts";
import { applyLateViolations } from "./late-violations.ts";
import type { AdapterEntry, ItemTiming, RunOptions, RunOutcome } from "./options.ts";
import { keptCells, laneCells, lanesPerAdapter, planRun, totalCells } from "./plan.ts";
import { planEvent } from "./plan-event.ts";
import { startRunGateway, type RunGateway } from "./run-gateway.ts";
import { RunQueue } from "./run-queue.ts";
import { createScorer } from "./scorer.ts";

export async function runArenas(options: RunOptions): Promise<RunOutcome> {
  const { config } = options;
  const concurrency = options.concurrency ?? os.availableParallelism();
  const startedAt = isoSeconds(options.startedAt ?? new Date());
  mkdirSync(options.dirs.logDir, { recursive: true });
  const plan = planRun(options.arenas, options.adapters, options.itemFilter, options.keepCell, config.repeat);
  const total = totalCells(plan, config.repeat, options.keepCell);
  options.onPlan?.(planEvent(options, plan, concurrency, total));
  const gateways = new Map<string, RunGateway>();
  const pools = new Map<AdapterEntry, SharedPool>();
  const lateViolations: LateViolation[] = [];
  const stop = new AbortController();
  let refused: string | undefined;
  let done = 0;

  // One budget for every pool: the workers alive outside the spares never outnumber the slots.
  const budget = new WorkerBudget({ slots: concurrency, ...(options.onWorkerCounts ? { onChange: options.onWorkerCounts } : {}) });
  for (const [adapter, lanes] of lanesPerAdapter(plan, options.adapters)) {
    pools.set(adapter, { pool: workerPool(options, adapter, gateways, lateViolations, budget), lanesLeft: lanes });
  }
  // An outside abort (Ctrl-C) or a refused lane: nothing new starts; what is in flight gets a
  // grace period, then every worker's process group is killed so the run can be written up.
  let graceTimer: NodeJS.Timeout | undefined;
  const halt = (grace = true) => {
    if (stop.signal.aborted) return;
    stop.abort();
    // Queued cells still start, see `stopped()` and return at once: the queue drains, nothing hangs.
    // The breaker lets the items in flight run to their own deadlines: no one asked to kill them.
    if (!grace) return;
    graceTimer = setTimeout(() => {
      for (const { pool } of pools.values()) void pool.killAll();
    }, options.graceMs ?? 3_000);
  };
  const breaker = new CircuitBreaker(config.maxProviderFaults);
  let broken: string | undefined;
  if (options.signal?.aborted) halt();
  const onAbort = () => halt();
  options.signal?.addEventListener("abort", onAbort, { once: true });

  const ctx: RunContext = {
    options,
    config,
    concurrency,
    // Started once every lane has queued its first build, so the first slots go by rank too (below).
    queue: new RunQueue(concurrency),
    legDeadlineMs:
      options.legDeadlineMs ?? Math.max(30_000, config.requestTimeoutS * 1000 * (config.maxToolIterations + 1) + 5_000),
    allArenaTools: [...new Set(options.arenas.flatMap((a) => namesFor(a.declaredTools)))],
    canonical: canonicalOutputs(options.corpusPath),
    scorer: createScorer({ deadlineMs: options.scoreDeadlineMs ?? 2_000 }),
    pools,
    gateways,
    timings: [] as ItemTiming[],
    laneWitnessTimings: [],
    lateViolations,
    transcripts: [],
    stopped: () => stop.signal.aborted,
    refuse: (reason) => {
      refused ??= reason;
      halt();
    },
    observeAttempts: (legs) => {
      const reason = breaker.observe(legs);
      if (reason === undefined || stop.signal.aborted) return;
      broken = reason;
      halt(false);
    },
    advance: (cells, event) => {
      done += cells;
      if (event) options.onProgress?.({ ...event, done, total });
    },
  };

  const records: RunRecord[] = [];
  const gatewayRecords = new Map<string, GatewayRecords>();
  try {
    for (const { arena } of plan) {
      gateways.set(arena.id, await startRunGateway(arena, config, options.gatewayFaults, options.dirs.gatewayDir));
    }
    const arenaRuns = plan.map(async ({ arena, items, adapters }) => {
      // Arenas share one queue, so an arena's duration is the span of its own items (first start to
      // last end), not the time since the run began.
      const span = { start: Number.POSITIVE_INFINITY, end: Number.NEGATIVE_INFINITY };
      const gateway = gateways.get(arena.id)!;
      const openPriority = (adapter: AdapterEntry) => -1 - (options.adapters.indexOf(adapter) * plan.length + plan.findIndex((p) => p.arena === arena));
      const itemPriority = (adapter: AdapterEntry) => options.adapters.length - options.adapters.indexOf(adapter);
      const adapterRecords = await Promise.all(
        adapters.map((adapter) => runLane(ctx, { arena, items, adapter, gateway, span, openPriority: openPriority(adapter), itemPriority: itemPriority(adapter) })),
      );
      return arenaRecord(ctx, { arena, items, frameworks: adapterRecords, span, startedAt });
    });
    // Every lane reached its first build synchronously above: had the queue been running, the
    // first builds would have taken the free slots in the order lanes were called (arena by arena),
    // not by rank, and another adapter's items would have joined the first adapter's from the start.
    ctx.queue.start();
    records.push(...(await Promise.all(arenaRuns)));
  } finally {
    clearTimeout(graceTimer);
    options.signal?.removeEventListener("abort", onAbort);
    await Promise.all([...pools.values()].map((p) => (ctx.stopped() ? p.pool.killAll() : p.pool.close())));
    // Dead workers' folders are removed off the loop (background-removal.ts); none outlives the session.
    await backgroundRemovalsSettled();
    await Promise.all([...gateways.values()].map((g) => g.settle?.(1_000)));
    for (const [id, g] of gateways) if (g.mock) gatewayRecords.set(id, g.mock.recorder.records());
    await Promise.all([...gateways.values()].map((g) => g.stop()));
    await ctx.scorer.close();
  }
  applyLateViolations(records, lateViolations, options.onItem);
  const failedItems = records.flatMap((r) => r.frameworks.flatMap((f) => f.items)).filter((i) => !i.passed).length;
  const interrupted = ctx.stopped() && refused === undefined && broken === undefined;
  return { records, failedItems, interrupted, refused, ...(broken !== undefined ? { breaker: broken } : {}), gatewayRecords, timings: ctx.timings, laneWitnessTimings: ctx.laneWitnessTimings, transcripts: ctx.transcripts };
}

function workerPool(
  options: RunOptions,
  adapter: AdapterEntry,
  gateways: ReadonlyMap<string, RunGateway>,
  lateViolations: LateViolation[],
  budget: WorkerBudget,
): WorkerPool {
  return new WorkerPool({
    budget,
    adapter: { name: adapter.name, module: adapter.module },
    corpusPath: options.corpusPath,
    logDir: options.dirs.logDir,
    label: adapter.name,
    seats: seatsFor(adapter, options.itemsPerWorker),
    env: options.workerEnv,
    cwd: options.workerCwd,
    // Sealed: the output roots hidden, writable only the folder of the item in flight; the network
    // only to the gateways. Watched: writes outside the adapter's checkpoint folder reported.
    isolation: new Isolation({
      adapter: adapter.name,
      checkpointDir: inside(options.dirs.checkpointRoot, adapter.name),
      // The run's data as well as its records: a dataset, a mock script or a reference arena is not the worker's to read.
      hidden: [
        ...(options.dirs.outputRoots ?? [options.dirs.logDir, options.dirs.checkpointRoot, ...(options.dirs.gatewayDir ? [options.dirs.gatewayDir] : [])]),
        ...options.arenas.map((a) => a.dir),
      ],
      endpoints: () => [...gateways.values()].map((g) => g.baseUrlFor("sandbox")),
    }),
    onProtocolViolation: (v) => {
      if (v.owner?.cell) lateViolations.push({ arena: v.owner.arena, framework: adapter.name, cell: v.owner.cell, message: v.message });
    },
  });
}

interface ArenaOutcome {
  readonly arena: Arena;
  readonly items: readonly Item[];
  readonly frameworks: AdapterRecord[];
  readonly span: { readonly start: number; readonly end: number };
  readonly startedAt: string;
}

function arenaRecord(ctx: RunContext, { arena, items, frameworks, span, startedAt }: ArenaOutcome): RunRecord {
  const { config, options } = ctx;
  const planned = (adapter: string) => keptCells(laneCells(items, config.repeat), arena.id, adapter, options.keepCell).length;
  const complete = frameworks.every((adapterRecord) => !adapterRecord.available || adapterRecord.items.length === planned(adapterRecord.framework));
  return {
    schema: 1,
    format_version: FORMAT_VERSION,
    run_id: options.runId ?? `unnamed-${process.pid}`,
    status: complete && !ctx.stopped() ? "complete" : "interrupted",
    arena: arena.id,
    arena_description: arena.description,
    mode: config.mode,
    model: config.mode === "mock" ? "mock-model" : config.model,
    temperature: config.temperature,
    repeat: config.repeat,
    dataset_size: items.length,
    ...(options.itemFilter ? { filtered_to: [...items.map((i) => i.id)].sort() } : {}),
    started_at: startedAt,
    duration_s: span.end > span.start ? Math.round((span.end - span.start) / 10) / 100 : 0,
    harness_version: HARNESS_VERSION,
    node: process.versions.node,
    platform: `${process.platform}-${process.arch}`,
    pricing: { input_per_m: config.priceInputPerM, output_per_m: config.priceOutputPerM },
    ...(options.provenance ? { provenance: options.provenance(arena.id) } : {}),
    frameworks,
  };
}
