/**
 * Idle workers give their memory back (orchestrator/supervisor/worker-budget.ts, pool.ts): across
 * a whole run, the workers alive outside the spares never outnumber the items in flight, and an
 * adapter's lanes run one after another, so its workers go from one lane to the next and are let go
 * when its lanes are done — not kept until the end of the run.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { BudgetCounts } from "../../orchestrator/supervisor/worker-budget.ts";
import { adapterEntry, OUR_ARENAS, OUR_CORPUS, quickRun, tempDirs } from "../support/run.ts";

describe("the run's worker budget", () => {
  it("holds at most one worker per item in flight over two adapters, each started once", async () => {
    const { dirs } = tempDirs();
    const counts: BudgetCounts[] = [];
    const outcome = await quickRun({
      arenaDirs: [path.join(OUR_ARENAS, "tool_use"), path.join(OUR_ARENAS, "rag")],
      adapters: [adapterEntry("vanilla"), adapterEntry("ai_sdk")],
      corpusPath: OUR_CORPUS,
      concurrency: 1,
      dirs,
      onWorkerCounts: (c) => counts.push(c),
    });
    expect(outcome.failedItems).toBe(0);
    expect(counts.length).toBeGreaterThan(10);
    // Never more than the one slot: vanilla's idle worker was stopped before ai_sdk's started.
    expect(Math.max(...counts.map((c) => c.busy + c.idle))).toBe(1);
    // Adapter by adapter: one process each served both arenas (no restart between its lanes).
    expect(readdirSync(dirs.logDir).sort()).toEqual(["ai_sdk__w0.log", "vanilla__w0.log"]);
    expect(counts.at(-1)).toEqual({ busy: 0, idle: 0 });
  }, 120_000);
});
