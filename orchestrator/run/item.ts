/**
 * One cell: a fresh checkpoint folder, the item driven through its legs on the lane's pool, the
 * answer scored, the legs witnessed, and the record handed to the journal. An exception of ours
 * becomes a `harness` error on the item, never a lost cell.
 */
import { mkdirSync, rmSync } from "node:fs";
import { performance } from "node:perf_hooks";
import type { Arena } from "../arena/schemas.ts";
import { inside } from "../files/safe-path.ts";
import type { CompiledScript } from "../gateway/script.ts";
import { selectTurns } from "../gateway/selection.ts";
import { failureReason } from "../report/failure-reason.ts";
import type { ItemRecord } from "../report/record.ts";
import { itemKey } from "../store/journal.ts";
import type { WorkerPool } from "../supervisor/pool.ts";
import type { ItemEvidence, LaneContext } from "../witness/types.ts";
import { witnessItem } from "../witness/witness.ts";
import type { RunContext } from "./context.ts";
import { driveItem, type DrivenItem } from "./drive.ts";
import { harnessErrorRecord, itemRecord, scoredResult, workItem } from "./item-record.ts";
import { servedResult } from "../witness/served.ts";
import { applyProviderFaults } from "./provider-faults.ts";
import type { AdapterEntry } from "./options.ts";
import type { Cell } from "./plan.ts";
import type { RunGateway } from "./run-gateway.ts";

/** A lane whose build answered: what each of its cells needs. */
export interface OpenLane {
  readonly arena: Arena;
  readonly adapter: AdapterEntry;
  readonly pool: WorkerPool;
  readonly gateway: RunGateway;
  /** `<checkpoint root>/<adapter>/<arena>`: each cell gets a folder of its own inside. */
  readonly checkpoints: string;
  readonly witness: LaneContext;
  readonly script: CompiledScript | undefined;
  /** What the witness saw per cell, for the rules that compare a lane's items with each other. */
  readonly evidence: Map<string, ItemEvidence>;
  /** First start to last end of the arena's items (arenas share one queue). */
  readonly span: { start: number; end: number };
}

/** The rule id of a write outside the item's folder and TMPDIR, in the item's violations. */
export const SANDBOX_WRITE_RULE = "sandbox-write";

export async function runItem(ctx: RunContext, lane: OpenLane, { repeat, item }: Cell): Promise<ItemRecord | undefined> {
  if (ctx.stopped()) return undefined;
  const { arena, adapter, span } = lane;
  span.start = Math.min(span.start, performance.now());
  let scoreMs = 0;
  let witnessMs = 0;
  let driven: DrivenItem | undefined;
  let record: ItemRecord;
  try {
    // Fresh per item × repeat (a retried cell starts from an empty one): nothing an earlier
    // item or attempt left behind can be found.
    const checkpointDir = inside(lane.checkpoints, `${item.id}.r${repeat}`);
    rmSync(checkpointDir, { recursive: true, force: true });
    mkdirSync(checkpointDir, { recursive: true });
    driven = await driveItem(lane.pool, workItem(item, checkpointDir), {
      arena: arena.id,
      cell: itemKey(repeat, item.id),
      durable: arena.durable,
      legDeadlineMs: ctx.legDeadlineMs,
      reuseWorkerAcrossPause: ctx.options.reuseWorkerAcrossPause,
      ...(lane.gateway.watchLeg ? { watchLeg: lane.gateway.watchLeg } : {}),
    });
    ctx.options.onLegs?.(arena.id, adapter.name, item.id, driven.legs.map((l) => l.result));
    // An item that errored after the interrupt may have been cut short by it (its worker
    // killed): it is left for the resume to run again rather than recorded as the framework's.
    if (ctx.stopped() && driven.merged.error !== null) return undefined;
    const m = driven.merged;
    // What the gateway served is what is scored; the adapter's own report only when nothing watched the wire.
    const servedStartedAt = performance.now();
    const served = driven.witnessed.length > 0 ? servedResult(driven.witnessed, lane.witness.declaration, lane.witness.delegates) : undefined;
    witnessMs = performance.now() - servedStartedAt;
    const scored = served ? scoredResult(served, m.suspends) : undefined;
    const scoreStartedAt = performance.now();
    const score = await ctx.scorer.score(item.checks, {
      outputText: scored?.outputText ?? m.output_text ?? "",
      toolNames: scored?.toolNames ?? m.tool_calls.map((c) => c.name),
      beforeSuspend: scored?.beforeSuspend ?? m.tool_calls_before_suspend.map((c) => c.name),
      suspends: m.suspends,
      error: m.error,
    });
    scoreMs = performance.now() - scoreStartedAt;
    const seen: ItemEvidence = {
      itemId: item.id,
      repeat,
      input: item.input,
      legs: driven.witnessed,
      passed: score.passed,
      ...(served ? { served } : {}),
      ...(lane.script ? { scriptedCalls: selectTurns(lane.script, item.input).length } : {}),
    };
    const rulesStartedAt = performance.now();
    const violations = [
      ...(driven.witnessed.length > 0 ? witnessItem(seen, lane.witness) : []),
      // Not the wire's: what the worker's private area found written outside (supervisor/sandbox/private-area.ts).
      ...driven.strayWrites.map((s) => ({ rule: SANDBOX_WRITE_RULE, leg: s.leg, detail: s.detail })),
    ];
    witnessMs += performance.now() - rulesStartedAt;
    lane.evidence.set(itemKey(repeat, item.id), seen);
    // What the wire saw decides a failure's class and which violations stand (provider-faults.ts).
    record = applyProviderFaults(itemRecord(item, repeat, driven, score, violations, scored), driven.attempts);
    ctx.observeAttempts(driven.attempts);
  } catch (err) {
    record = harnessErrorRecord(item, repeat, err);
  }
  ctx.timings.push({
    arena: arena.id,
    framework: adapter.name,
    itemId: item.id,
    wallSeconds: driven?.wallSeconds ?? 0,
    adapterSeconds: driven?.adapterSeconds ?? 0,
    seatSeconds: driven?.seatSeconds ?? 0,
    scoreSeconds: scoreMs / 1000,
    witnessSeconds: witnessMs / 1000,
    restarts: driven?.restarts ?? 0,
  });
  span.end = Math.max(span.end, performance.now());
  ctx.options.onItem?.(arena.id, adapter.name, record);
  const reason = record.passed ? {} : { reason: failureReason(record) };
  ctx.advance(1, { arena: arena.id, framework: adapter.name, itemId: item.id, repeat, passed: record.passed, seconds: driven?.wallSeconds ?? 0, ...reason });
  return record;
}
