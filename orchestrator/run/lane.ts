/**
 * One adapter on one arena. The lane decides first whether the arena can run on the adapter at
 * all (the availability policy: a tool the harness cannot serve, a build that fails, a delegate
 * that collides, a pause arena without a resume API), then runs its cells on the shared queue and
 * applies the witness's rules that compare the lane's items with each other.
 */
import type { Arena, Item } from "../arena/schemas.ts";
import { inside } from "../files/safe-path.ts";
import { compileScript } from "../gateway/script.ts";
import type { AdapterRecord, IsolationRecord, ItemRecord } from "../report/record.ts";
import { laneTranscript } from "../report/transcripts-file.ts";
import { cellKey, itemKey } from "../store/journal.ts";
import { isFailure } from "../supervisor/failure.ts";
import type { OpenOutcome } from "../supervisor/pool.ts";
import type { BuildOutcome } from "../supervisor/worker-outcomes.ts";
import type { ItemEvidence } from "../witness/types.ts";
import { witnessLane } from "../witness/witness.ts";
import { allowedSystemPrompts, declaredLines, type WireDeclaration } from "../../contract/declarations.ts";
import { declarationFor } from "./declarations.ts";
import { checkDeclaredDelegates, harnessUnsupported, isSuspendTool, namesFor } from "../../contract/tools/registry.ts";
import type { RunContext, SharedPool } from "./context.ts";
import { heldSlot } from "./held-slot.ts";
import { runItem, type OpenLane } from "./item.ts";
import type { AdapterEntry } from "./options.ts";
import { cellsToRun, dispatchOrder, keptCells, laneCells, waitsOnProvider, type Cell } from "./plan.ts";
import type { RunGateway } from "./run-gateway.ts";

export interface LaneInput {
  readonly arena: Arena;
  readonly items: readonly Item[];
  readonly adapter: AdapterEntry;
  readonly gateway: RunGateway;
  readonly span: { start: number; end: number };
  /**
   * Where the lane's first build waits in the queue (higher starts first among adapters equally
   * busy, run-queue.ts; every item of every lane outranks every build). Lanes are ranked adapter by
   * adapter, so a pool's workers go from one of its lanes to the next instead of giving their slot
   * to another adapter's build.
   */
  readonly openPriority?: number;
  /**
   * Where the lane's items wait (default 0): above every build, and ranked adapter by adapter as
   * the builds are, so among adapters equally busy one adapter's items run before the next one's.
   * Taken in arrival order instead, the adapters' items interleaved on the same slot, and on a run
   * as narrow as the machine the budget stopped one adapter's idle worker to start the other's,
   * over and over: a process start each time (supervisor/pool.ts).
   */
  readonly itemPriority?: number;
}

type Unavailable = (reason: string, kind: AdapterRecord["unavailable_kind"], libVersion: string, traceback?: string) => AdapterRecord;

export async function runLane(ctx: RunContext, lane: LaneInput): Promise<AdapterRecord> {
  const { arena, items, adapter } = lane;
  const { config, options } = ctx;
  const variant = adapter.variant ?? false;
  const key = cellKey(arena.id, adapter.name);
  const prior = options.prior?.items.get(key) ?? new Map<string, ItemRecord>();
  const recordedLane = options.prior?.lanes.get(key);
  const shared = ctx.pools.get(adapter)!;
  const settle = (outcome: AdapterRecord): AdapterRecord => {
    const { items: _items, ...laneOutcome } = outcome;
    options.onLane?.(arena.id, laneOutcome);
    return outcome;
  };
  const cells = keptCells(laneCells(items, config.repeat), arena.id, adapter.name, options.keepCell);
  const unavailable: Unavailable = (reason, kind, libVersion, traceback) => {
    ctx.advance(cells.length, { arena: arena.id, framework: adapter.name, unavailable: reason });
    const record = { framework: adapter.name, available: false, lib_version: libVersion, variant, reason, unavailable_kind: kind };
    return settle({ ...record, ...(traceback ? { traceback } : {}), items: [] });
  };

  const todo = cellsToRun(cells, prior);
  const unsupported = harnessUnsupported(arena.declaredTools);
  if (unsupported) {
    await laneDone(shared, arena);
    return unavailable(unsupported, "unsupported", recordedLane?.lib_version ?? "unknown");
  }
  if (todo.length === 0 && recordedLane?.available) {
    // Every cell finished in an earlier session: nothing to build.
    ctx.advance(cells.length);
    await laneDone(shared, arena);
    return settle({ ...recordedLane, items: cells.map((c) => prior.get(itemKey(c.repeat, c.item.id))!) });
  }
  if (ctx.stopped()) {
    await laneDone(shared, arena);
    return { framework: adapter.name, available: true, lib_version: recordedLane?.lib_version ?? "unknown", variant, items: [] };
  }

  // The build's slot is held until the lane's items wait on the queue (held-slot.ts says why).
  const opening = heldSlot(ctx.queue, adapter.name, () => openArena(ctx, lane, shared, todo.length), lane.openPriority ?? -1);
  try {
    const built = await opening.result;
    // What the adapter declares reaches the caller even when the lane then refuses it (a delegate that collides).
    if (isBuilt(built)) options.onBuilt?.(arena.id, adapter.name, { delegates: built.delegates, wireExceptions: built.wireExceptions });
    const cannotRun = isBuilt(built) ? notRunnable(ctx, arena, built, unavailable) : buildFailure(built, unavailable);
    if (cannotRun || !isBuilt(built)) {
      opening.release();
      await laneDone(shared, arena);
      return cannotRun!;
    }
    let declaration: WireDeclaration;
    try {
      declaration = declarationFor(adapter.name, adapter.declarationsOf ?? adapter.module);
    } catch (err) {
      opening.release();
      await laneDone(shared, arena);
      return unavailable(`build failed: ${(err as Error).message}`, "build_failed", built.libVersion);
    }
    const stop = options.checkLane?.(arena.id, adapter.name, built.libVersion);
    if (stop !== undefined) ctx.refuse(stop);
    const declared = declaredLines(declaration);
    settle({ framework: adapter.name, available: true, lib_version: built.libVersion, variant, ...(declared.length > 0 ? { declarations: declared } : {}), items: [] });

    const open: OpenLane = {
      arena,
      adapter,
      pool: shared.pool,
      gateway: lane.gateway,
      checkpoints: inside(options.dirs.checkpointRoot, adapter.name, arena.id),
      witness: {
        mode: config.mode,
        model: config.model,
        temperature: config.temperature,
        maxToolIterations: config.maxToolIterations,
        declaredTools: arena.declaredTools,
        systemPrompt: arena.systemPrompt,
        wireExceptions: built.wireExceptions.map((e) => e.key),
        delegates: built.delegates,
        declaration,
        systemPrompts: allowedSystemPrompts(declaration, arena.systemPrompt),
        canonical: ctx.canonical,
      },
      script: config.mode === "mock" ? compileScript(arena.script) : undefined,
      evidence: new Map<string, ItemEvidence>(),
      span: lane.span,
    };
    ctx.advance(cells.length - todo.length);
    const waiting = waitsOnProvider(config.mode, options.gatewayFaults);
    const fresh = await runCells(ctx, open, dispatchOrder(arena, todo, ctx.concurrency, waiting), shared, lane.itemPriority ?? 0, opening.release);
    // What the witness saw, in dataset order: the cross-item rules and the lane's transcript read it.
    const seen = cells.map((c) => open.evidence.get(itemKey(c.repeat, c.item.id))).filter((e): e is ItemEvidence => e !== undefined);
    const laneRulesStartedAt = performance.now();
    witnessAcrossItems(ctx, open, seen, fresh);
    ctx.laneWitnessTimings.push({ arena: arena.id, framework: adapter.name, items: seen.length, seconds: (performance.now() - laneRulesStartedAt) / 1000 });
    ctx.transcripts.push(laneTranscript(arena.id, adapter.name, seen));
    // Dataset order within each repeat, whichever session ran the cell.
    const itemRecords = cells
      .map((c) => fresh.get(itemKey(c.repeat, c.item.id)) ?? prior.get(itemKey(c.repeat, c.item.id)))
      .filter((r): r is ItemRecord => r !== undefined);
    const isolation = withIdentityProblems(shared.pool.spec.isolation?.record(), lane.gateway, adapter.name, arena.id);
    return {
      framework: adapter.name,
      available: true,
      lib_version: built.libVersion,
      variant,
      isolation,
      ...(declared.length > 0 ? { declarations: declared } : {}),
      items: itemRecords,
    };
  } finally {
    // Every way out, items queued or none to queue: the build's slot goes back to the queue.
    opening.release();
  }
}

/**
 * What the lane's gateway saw of this adapter off its legs (run-gateway.ts offLeg): attempts
 * under one of its workers' identities that no leg claimed, and requests its workers sent under
 * an identity that was not theirs (named by the sandbox bridge). Each is charged to this lane.
 */
function withIdentityProblems(isolation: IsolationRecord | undefined, gateway: RunGateway, adapter: string, arena: string): IsolationRecord | undefined {
  const seen = gateway.offLeg?.(`${adapter}__${arena}__`, `${adapter}/`);
  if (!seen || !isolation) return isolation;
  const problems = [
    ...seen.unclaimed.map((u) => `${u.tag}: ${u.attempts} request(s) under its identity outside every leg`),
    ...seen.refused.map((r) => `${r.sender ?? r.heldBy}: sent a request ${r.claimed === "" ? "with no identity" : `claiming ${r.claimed}`} (${r.reason}; refused)`),
  ];
  return problems.length === 0 ? isolation : { ...isolation, violations: [...(isolation.violations ?? []), ...problems] };
}

function openArena(ctx: RunContext, lane: LaneInput, shared: SharedPool, cellsToRun: number): Promise<OpenOutcome> {
  const { arena, gateway } = lane;
  const { config } = ctx;
  return shared.pool.open({
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
    warmSpares: arena.durable && !ctx.options.reuseWorkerAcrossPause ? 2 * ctx.concurrency : 0,
    spareBudget: cellsToRun,
  });
}

/** The first build answered and the adapter accepted the arena. */
function isBuilt(opened: OpenOutcome | void): opened is Extract<BuildOutcome, { ok: true }> {
  return opened !== undefined && !isFailure(opened) && opened.ok;
}

function buildFailure(opened: Exclude<OpenOutcome, { ok: true }> | void, unavailable: Unavailable): AdapterRecord {
  if (!opened) return unavailable("build did not run", "build_failed", "unknown");
  if (isFailure(opened)) return unavailable(`build failed: ${opened.message}`, "build_failed", "unknown", opened.logTail);
  return unavailable(opened.reason, opened.kind, opened.libVersion, opened.traceback);
}

/** Why a built arena still cannot run on this adapter; undefined when it can. */
function notRunnable(ctx: RunContext, arena: Arena, built: Extract<BuildOutcome, { ok: true }>, unavailable: Unavailable): AdapterRecord | undefined {
  try {
    checkDeclaredDelegates(built.delegates, ctx.allArenaTools);
  } catch (err) {
    return unavailable(`build failed: ${(err as Error).message}`, "build_failed", built.libVersion);
  }
  if (namesFor(arena.declaredTools).some(isSuspendTool) && !built.resumable) {
    const why = "arena requires the run to pause and resume, but this adapter does not implement the resume API";
    return unavailable(why, "unsupported", built.libVersion);
  }
  return undefined;
}

/** The lane's items on the queue; `queued` is called once they all wait there, before any ends. */
async function runCells(ctx: RunContext, lane: OpenLane, todo: readonly Cell[], shared: SharedPool, priority: number, queued: () => void): Promise<Map<string, ItemRecord>> {
  const fresh = new Map<string, ItemRecord>();
  try {
    const runs = todo.map((cell) =>
      ctx.queue.add(lane.adapter.name, async () => {
        const record = await runItem(ctx, lane, cell);
        if (record) fresh.set(itemKey(cell.repeat, cell.item.id), record);
      }, priority),
    );
    queued();
    await Promise.all(runs);
  } finally {
    await laneDone(shared, lane.arena);
  }
  return fresh;
}

/** Rules that compare the lane's items with each other: their violations join the items' own. */
function witnessAcrossItems(ctx: RunContext, lane: OpenLane, inOrder: readonly ItemEvidence[], fresh: Map<string, ItemRecord>): void {
  for (const [seen, violations] of witnessLane(inOrder)) {
    const key = itemKey(seen.repeat, seen.itemId);
    const record = fresh.get(key);
    if (!record) continue;
    const updated: ItemRecord = { ...record, violations: [...(record.violations ?? []), ...violations] };
    fresh.set(key, updated);
    ctx.options.onItem?.(lane.arena.id, lane.adapter.name, updated);
  }
}

/** This lane is finished: its spares go back to the pool, which closes after the adapter's last lane. */
async function laneDone(shared: SharedPool, arena: Arena): Promise<void> {
  await shared.pool.retire(arena.id);
  shared.lanesLeft -= 1;
  if (shared.lanesLeft === 0) await shared.pool.close();
}
