/**
 * One run: every selected arena × adapter × item × repeat, scheduled on one p-queue. Each adapter
 * gets one worker pool for the run, and each adapter × arena a "lane" that opens the arena on it
 * (a build in a worker) on first use; the pool closes after the adapter's last lane, so the number
 * of live processes tracks the concurrency, not the size of the matrix.
 */
import { mkdirSync, rmSync } from "node:fs";
import os from "node:os";
import { performance } from "node:perf_hooks";
import PQueue from "p-queue";
import type { Arena, Item } from "../arena/schemas.ts";
import type { AgentResult } from "../../contract/protocol.ts";
import type { ArenaConfig } from "../config/arena-config.ts";
import { inside } from "../files/safe-path.ts";
import {
  FORMAT_VERSION,
  HARNESS_VERSION,
  isoSeconds,
  type FrameworkRecord,
  type ItemRecord,
  type RunRecord,
} from "../report/record.ts";
import { cellKey, itemKey } from "../store/journal.ts";
import { checkDeclaredDelegates, harnessUnsupported, isSuspendTool, namesFor } from "../../contract/tools/registry.ts";
import { WorkerPool } from "../supervisor/pool.ts";
import { Isolation } from "../supervisor/sandbox/index.ts";
import { driveItem, type DrivenItem } from "./drive.ts";
import { harnessErrorRecord, itemRecord, workItem } from "./item-record.ts";
import { startRunGateway, type GatewayFaults, type RunGateway } from "./run-gateway.ts";
import type { GatewayRecords } from "../gateway/index.ts";
import { createScorer, type Scorer } from "./scorer.ts";
import { ADAPTER_ERROR_DETAIL } from "../scoring/score.ts";
import type { ItemEvidence, LaneContext } from "../witness/types.ts";
import { witnessItem, witnessLane } from "../witness/witness.ts";
import { compileScript, type CompiledScript } from "../gateway/script.ts";
import { selectTurns } from "../gateway/selection.ts";
import { canonicalOutputs } from "../witness/canonical.ts";

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

/** The cells of an earlier session of the same run: they are kept, not run again. */
export interface PriorCells {
  /** Finished cells by `cellKey(arena, framework)`, then `itemKey(repeat, item)`. */
  readonly items: ReadonlyMap<string, ReadonlyMap<string, ItemRecord>>;
  /** Each lane's recorded outcome by `cellKey(arena, framework)`. */
  readonly lanes: ReadonlyMap<string, Omit<FrameworkRecord, "items">>;
}

export interface RunOptions {
  readonly arenas: readonly Arena[];
  readonly adapters: readonly AdapterEntry[];
  readonly config: ArenaConfig;
  readonly corpusPath: string;
  /** Names the run in its records (`runs/<runId>/`). */
  readonly runId?: string;
  /** When the run began (a resumed run keeps its first session's start). Default: now. */
  readonly startedAt?: Date;
  /** Items in flight at once (default: number of cores). */
  readonly concurrency?: number;
  /** Restrict to these item ids (a partial run: no scorecard). */
  readonly itemFilter?: readonly string[];
  readonly dirs: {
    /** Worker logs of this run. */
    readonly logDir: string;
    /** This session's checkpoint root; each adapter × arena gets a fresh folder inside it. */
    readonly checkpointRoot: string;
    /** Where the gateway spills request bodies beyond its memory budget (default: its own temp dir). */
    readonly gatewayDir?: string;
  };
  /** Cells finished by an earlier session of this run (`--resume`): merged, not run. */
  readonly prior?: PriorCells;
  /** A finished cell, the moment it finishes (the journal). */
  readonly onItem?: (arena: string, framework: string, record: ItemRecord) => void;
  /** A lane's outcome once its build answered (the journal). */
  readonly onLane?: (arena: string, lane: Omit<FrameworkRecord, "items">) => void;
  /**
   * Refuse a lane before it runs anything, e.g. a resume whose adapter version changed: the
   * returned text stops the whole run, as an interrupt does, and is reported as `refused`.
   */
  readonly checkLane?: (arena: string, framework: string, libVersion: string) => string | undefined;
  /** Stop scheduling when aborted; in-flight items get `graceMs` to finish, then their workers are killed. */
  readonly signal?: AbortSignal;
  /** How long in-flight items may finish after `signal` aborts (default 3 s). */
  readonly graceMs?: number;
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
  /**
   * Each item's leg results as its workers sent them (probes judge what an adapter reported about
   * itself, e.g. its tool-call arguments, which the record keeps only by name).
   */
  readonly onLegs?: (arena: string, framework: string, itemId: string, results: readonly AgentResult[]) => void;
}

export interface RunOutcome {
  /** One per arena; `status` says whether every cell ran. */
  readonly records: RunRecord[];
  /** Items that failed or errored, over all arenas and frameworks (prior cells included). */
  readonly failedItems: number;
  /** True when `signal` stopped the run before every cell ran. */
  readonly interrupted: boolean;
  /** Why `checkLane` stopped the run, when it did. */
  readonly refused?: string;
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

function requiresPause(arena: Arena): boolean {
  return namesFor(arena.declaredTools).some(isSuspendTool);
}

export async function runArenas(options: RunOptions): Promise<RunOutcome> {
  const { config } = options;
  const concurrency = options.concurrency ?? os.availableParallelism();
  const queue = new PQueue({ concurrency });
  const startedIso = isoSeconds(options.startedAt ?? new Date());
  const runId = options.runId ?? `unnamed-${process.pid}`;
  mkdirSync(options.dirs.logDir, { recursive: true });
  const legDeadlineMs =
    options.legDeadlineMs ?? Math.max(30_000, config.requestTimeoutS * 1000 * (config.maxToolIterations + 1) + 5_000);
  const allArenaTools = [...new Set(options.arenas.flatMap((a) => namesFor(a.declaredTools)))];
  const gateways = new Map<string, RunGateway>();
  const records: RunRecord[] = [];
  const gatewayRecords = new Map<string, GatewayRecords>();
  const timings: ItemTiming[] = [];
  let failedItems = 0;
  let refused: string | undefined;
  const stop = new AbortController();
  const stopped = () => stop.signal.aborted;
  const canonical = canonicalOutputs(options.corpusPath);

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
  /** Violations that arrived after their item was answered (a duplicate result): applied once every worker is gone. */
  const lateViolations: { arena: string; framework: string; cell: string; message: string }[] = [];
  for (const adapter of options.adapters) {
    const lanes = plan.filter((p) => p.adapters.includes(adapter)).length;
    if (lanes === 0) continue;
    const pool = new WorkerPool({
      adapter: { name: adapter.name, module: adapter.module },
      corpusPath: options.corpusPath,
      logDir: options.dirs.logDir,
      label: adapter.name,
      env: options.workerEnv,
      cwd: options.workerCwd,
      // Sealed (or watched): writable only under the adapter's own checkpoint folder; the network only to the gateways.
      isolation: new Isolation({
        adapter: adapter.name,
        checkpointDir: inside(options.dirs.checkpointRoot, adapter.name),
        endpoints: () => [...gateways.values()].map((g) => g.baseUrlFor("sandbox")),
      }),
      onProtocolViolation: (v) => {
        if (v.owner?.cell) lateViolations.push({ arena: v.owner.arena, framework: adapter.name, cell: v.owner.cell, message: v.message });
      },
    });
    pools.set(adapter, { pool, lanesLeft: lanes });
  }

  // An outside abort (Ctrl-C) or a refused lane: nothing new starts; what is in flight gets a
  // grace period, then every worker's process group is killed so the run can be written up.
  let graceTimer: NodeJS.Timeout | undefined;
  const halt = () => {
    if (stopped()) return;
    stop.abort();
    // Queued cells still start, see `stopped()` and return at once: the queue drains, nothing hangs.
    graceTimer = setTimeout(() => {
      for (const { pool } of pools.values()) void pool.killAll();
    }, options.graceMs ?? 3_000);
  };
  if (options.signal?.aborted) halt();
  options.signal?.addEventListener("abort", halt, { once: true });

  try {
    for (const { arena } of plan) {
      gateways.set(arena.id, await startRunGateway(arena, config, options.gatewayFaults, options.dirs.gatewayDir));
    }
    const arenaRuns = plan.map(async ({ arena, items, adapters }) => {
      // Arenas share one queue, so an arena's duration is the span of its own items (first start to
      // last end), not the time since the run began.
      const span = { start: Number.POSITIVE_INFINITY, end: Number.NEGATIVE_INFINITY };
      const gateway = gateways.get(arena.id)!;
      const frameworks = await Promise.all(adapters.map((adapter) => runLane({ arena, items, adapter, gateway, span })));
      const complete = frameworks.every((fw) => !fw.available || fw.items.length === items.length * config.repeat);
      const record: RunRecord = {
        schema: 1,
        format_version: FORMAT_VERSION,
        run_id: runId,
        status: complete && !stopped() ? "complete" : "interrupted",
        arena: arena.id,
        arena_description: arena.description,
        mode: config.mode,
        model: config.mode === "mock" ? "mock-model" : config.model,
        temperature: config.temperature,
        repeat: config.repeat,
        dataset_size: items.length,
        ...(options.itemFilter ? { filtered_to: [...items.map((i) => i.id)].sort() } : {}),
        started_at: startedIso,
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
    clearTimeout(graceTimer);
    options.signal?.removeEventListener("abort", halt);
    await Promise.all([...pools.values()].map((p) => (stopped() ? p.pool.killAll() : p.pool.close())));
    await Promise.all([...gateways.values()].map((g) => g.settle?.(1_000)));
    for (const [id, g] of gateways) if (g.mock) gatewayRecords.set(id, g.mock.recorder.records());
    await Promise.all([...gateways.values()].map((g) => g.stop()));
    await scorer.close();
  }
  applyLateViolations();

  return { records, failedItems, interrupted: stopped() && refused === undefined, refused, gatewayRecords, timings };

  /**
   * A cell whose worker answered it twice (or late) broke the protocol, even though the first
   * answer was scored: it becomes a `protocol` error, and the journal gets the corrected line.
   */
  function applyLateViolations(): void {
    for (const v of lateViolations) {
      const fw = records.find((r) => r.arena === v.arena)?.frameworks.find((f) => f.framework === v.framework);
      const index = fw?.items.findIndex((i) => itemKey(i.repeat, i.item_id) === v.cell) ?? -1;
      if (!fw || index === -1) continue;
      const before = fw.items[index]!;
      if (before.error_class === "protocol") continue;
      const after: ItemRecord = {
        ...before,
        passed: false,
        // What the scorer gives any errored item (score.ts): every check fails, skipped.
        checks: before.checks.map((c) => ({ ...c, ok: false, detail: ADAPTER_ERROR_DETAIL })),
        error: `WorkerFailure: ${v.message}`,
        error_class: "protocol",
      };
      if (before.passed) failedItems += 1;
      fw.items[index] = after;
      options.onItem?.(v.arena, v.framework, after);
    }
  }

  async function runLane(lane: {
    arena: Arena;
    items: readonly Item[];
    adapter: AdapterEntry;
    gateway: RunGateway;
    span: { start: number; end: number };
  }): Promise<FrameworkRecord> {
    const { arena, items, adapter, gateway, span } = lane;
    const variant = adapter.variant ?? false;
    const key = cellKey(arena.id, adapter.name);
    const prior = options.prior?.items.get(key) ?? new Map<string, ItemRecord>();
    const shared = pools.get(adapter)!;
    const pool = shared.pool;
    /** This lane is finished: its spares go back to the pool, which closes after the adapter's last lane. */
    const laneDone = async () => {
      await pool.retire(arena.id);
      shared.lanesLeft -= 1;
      if (shared.lanesLeft === 0) await pool.close();
    };
    const settle = (outcome: FrameworkRecord): FrameworkRecord => {
      const { items: _items, ...laneOutcome } = outcome;
      options.onLane?.(arena.id, laneOutcome);
      return outcome;
    };
    const unavailable = (reason: string, kind: FrameworkRecord["unavailable_kind"], libVersion: string, traceback?: string) => {
      done += items.length * config.repeat;
      options.onProgress?.({ arena: arena.id, framework: adapter.name, unavailable: reason, done, total });
      return settle({
        framework: adapter.name,
        available: false,
        lib_version: libVersion,
        variant,
        reason,
        unavailable_kind: kind,
        ...(traceback ? { traceback } : {}),
        items: [],
      });
    };

    const cells = Array.from({ length: config.repeat }, (_, repeat) => items.map((item) => ({ repeat, item }))).flat();
    const todo = cells.filter((c) => !prior.has(itemKey(c.repeat, c.item.id)));
    const recordedLane = options.prior?.lanes.get(key);
    const unsupported = harnessUnsupported(arena.declaredTools);
    if (unsupported) {
      await laneDone();
      return unavailable(unsupported, "unsupported", recordedLane?.lib_version ?? "unknown");
    }
    if (todo.length === 0 && recordedLane?.available) {
      // Every cell finished in an earlier session: nothing to build.
      done += cells.length;
      await laneDone();
      return settle({ ...recordedLane, items: cells.map((c) => prior.get(itemKey(c.repeat, c.item.id))!) });
    }
    if (stopped()) {
      await laneDone();
      return { framework: adapter.name, available: true, lib_version: recordedLane?.lib_version ?? "unknown", variant, items: [] };
    }

    const laneCheckpoints = inside(options.dirs.checkpointRoot, adapter.name, arena.id);
    const opened = await queue.add(() =>
      pool.open({
        arena: { id: arena.id, tools: [...arena.declaredTools], systemPrompt: arena.systemPrompt, durable: arena.durable },
        config: {
          model: config.model,
          apiKey: gateway.apiKey,
          temperature: config.temperature,
          requestTimeoutS: config.requestTimeoutS,
          maxToolIterations: config.maxToolIterations,
        },
        baseUrlFor: (tag) => gateway.baseUrlFor(tag),
        // Two per item in flight: a spare can start while the one before it is claimed.
        warmSpares: arena.durable && !options.reuseWorkerAcrossPause ? 2 * concurrency : 0,
        spareBudget: todo.length,
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
    const refusal = options.checkLane?.(arena.id, adapter.name, opened.libVersion);
    if (refusal !== undefined) {
      refused ??= refusal;
      halt();
    }
    settle({ framework: adapter.name, available: true, lib_version: opened.libVersion, variant, items: [] });
    const witnessCtx: LaneContext = {
      mode: config.mode,
      model: config.model,
      temperature: config.temperature,
      declaredTools: arena.declaredTools,
      systemPrompt: arena.systemPrompt,
      wireExceptions: opened.wireExceptions,
      delegates: opened.delegates,
      canonical,
    };
    const script: CompiledScript | undefined = config.mode === "mock" ? compileScript(arena.script) : undefined;
    const evidence = new Map<string, ItemEvidence>();

    done += cells.length - todo.length;
    const runCell = async ({ repeat, item }: { repeat: number; item: Item }): Promise<ItemRecord | undefined> => {
      if (stopped()) return undefined;
      span.start = Math.min(span.start, performance.now());
      const scoreStart = { at: 0 };
      let driven: DrivenItem | undefined;
      let record: ItemRecord;
      try {
        // Fresh per item × repeat (a retried cell starts from an empty one): nothing an earlier
        // item or attempt left behind can be found.
        const checkpointDir = inside(laneCheckpoints, `${item.id}.r${repeat}`);
        rmSync(checkpointDir, { recursive: true, force: true });
        mkdirSync(checkpointDir, { recursive: true });
        driven = await driveItem(pool, workItem(item, checkpointDir), {
          arena: arena.id,
          cell: itemKey(repeat, item.id),
          durable: arena.durable,
          legDeadlineMs,
          reuseWorkerAcrossPause: options.reuseWorkerAcrossPause,
          ...(gateway.watchLeg ? { watchLeg: gateway.watchLeg } : {}),
        });
        options.onLegs?.(arena.id, adapter.name, item.id, driven.legs.map((l) => l.result));
        // An item that errored after the interrupt may have been cut short by it (its worker
        // killed): it is left for the resume to run again rather than recorded as the framework's.
        if (stopped() && driven.merged.error !== null) return undefined;
        const m = driven.merged;
        scoreStart.at = performance.now();
        const score = await scorer.score(item.checks, {
          outputText: m.output_text ?? "",
          toolNames: m.tool_calls.map((c) => c.name),
          beforeSuspend: m.tool_calls_before_suspend.map((c) => c.name),
          suspends: m.suspends,
          error: m.error,
        });
        const seen: ItemEvidence = {
          itemId: item.id,
          repeat,
          input: item.input,
          legs: driven.witnessed,
          passed: score.passed,
          ...(script ? { scriptedCalls: selectTurns(script, item.input).length } : {}),
        };
        const violations = driven.witnessed.length > 0 ? witnessItem(seen, witnessCtx) : [];
        evidence.set(itemKey(repeat, item.id), seen);
        record = itemRecord(item, repeat, driven, score, violations);
      } catch (err) {
        record = harnessErrorRecord(item, repeat, err);
      }
      timings.push({
        arena: arena.id,
        framework: adapter.name,
        itemId: item.id,
        wallSeconds: driven?.wallSeconds ?? 0,
        adapterSeconds: driven?.adapterSeconds ?? 0,
        scoreSeconds: scoreStart.at ? (performance.now() - scoreStart.at) / 1000 : 0,
        restarts: driven?.restarts ?? 0,
      });
      span.end = Math.max(span.end, performance.now());
      options.onItem?.(arena.id, adapter.name, record);
      done += 1;
      options.onProgress?.({ arena: arena.id, framework: adapter.name, itemId: item.id, repeat, passed: record.passed, done, total });
      return record;
    };
    const fresh = new Map<string, ItemRecord>();
    try {
      await Promise.all(
        todo.map((cell) =>
          queue.add(async () => {
            const record = await runCell(cell);
            if (record) fresh.set(itemKey(cell.repeat, cell.item.id), record);
          }),
        ),
      );
    } finally {
      await laneDone();
    }
    // Rules that compare the lane's items with each other: their violations join the items' own.
    const inOrder = cells.map((c) => evidence.get(itemKey(c.repeat, c.item.id))).filter((e): e is ItemEvidence => e !== undefined);
    for (const [seen, violations] of witnessLane(inOrder)) {
      const key = itemKey(seen.repeat, seen.itemId);
      const record = fresh.get(key);
      if (!record) continue;
      const updated: ItemRecord = { ...record, violations: [...(record.violations ?? []), ...violations] };
      fresh.set(key, updated);
      options.onItem?.(arena.id, adapter.name, updated);
    }
    // Dataset order within each repeat, whichever session ran the cell.
    const itemRecords = cells
      .map((c) => fresh.get(itemKey(c.repeat, c.item.id)) ?? prior.get(itemKey(c.repeat, c.item.id)))
      .filter((r): r is ItemRecord => r !== undefined);
    failedItems += itemRecords.filter((r) => !r.passed).length;
    return { framework: adapter.name, available: true, lib_version: opened.libVersion, variant, isolation: pool.spec.isolation?.record(), items: itemRecords };
  }
}
