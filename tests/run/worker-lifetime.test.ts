/**
 * The worker lifetime policy (orchestrator/supervisor/pool.ts): one pool per adapter for the whole
 * run, its workers reused across arenas, and still a fresh process for every durable resume.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { adapterEntry, firstUserText, OUR_ARENAS, OUR_CORPUS, quickRun, tempDirs } from "../support/run.ts";

function workerLogs(logDir: string): string[] {
  return readdirSync(logDir).sort();
}

describe("worker lifetime", () => {
  it("one worker serves every arena of the run, with its traffic tagged per arena", async () => {
    const { dirs } = tempDirs();
    const started = performance.now();
    const outcome = await quickRun({
      arenaDirs: [path.join(OUR_ARENAS, "tool_use"), path.join(OUR_ARENAS, "rag")],
      adapters: [adapterEntry("vanilla")],
      corpusPath: OUR_CORPUS,
      concurrency: 1,
      dirs,
    });
    const wall = (performance.now() - started) / 1000;
    expect(outcome.failedItems).toBe(0);
    expect(workerLogs(dirs.logDir)).toEqual(["vanilla__w0.log"]);
    // One item at a time on one queue: each arena's duration is its own span, so they add up to
    // at most the run's wall time (not each the whole run, as when measured from the run's start).
    const durations = outcome.records.map((r) => r.duration_s);
    expect(durations.every((d) => d > 0)).toBe(true);
    expect(durations.reduce((a, d) => a + d, 0)).toBeLessThanOrEqual(wall);
    for (const arena of ["tool_use", "rag"]) {
      const tags = new Set(outcome.gatewayRecords.get(arena)!.requests.map((r) => r.tag));
      expect([...tags]).toEqual([`vanilla__${arena}__w0`]);
    }
  }, 60_000);

  it("a durable resume still lands on a process that never saw the item when workers are shared", async () => {
    const { dirs } = tempDirs();
    const outcome = await quickRun({
      arenaDirs: [path.join(OUR_ARENAS, "tool_use"), path.join(OUR_ARENAS, "durable_state")],
      adapters: [adapterEntry("vanilla")],
      corpusPath: OUR_CORPUS,
      concurrency: 2,
      dirs,
    });
    expect(outcome.failedItems).toBe(0);
    const durable = outcome.records.find((r) => r.arena === "durable_state")!.frameworks[0]!.items;
    const paused = durable.filter((i) => (i.legs?.length ?? 0) > 1);
    expect(paused.length).toBe(durable.length);
    // Each pause killed its process, so the run needed at least one more worker than pauses.
    const pauses = paused.reduce((n, i) => n + i.legs!.length - 1, 0);
    expect(workerLogs(dirs.logDir).length).toBeGreaterThan(pauses);
    // Every leg of an item came from a different worker (a tag names one process on one arena).
    const inputs = new Map(loadArena(path.join(OUR_ARENAS, "durable_state")).items.map((i) => [i.input, i.id]));
    const tagsByItem = new Map<string, Set<string>>();
    for (const request of outcome.gatewayRecords.get("durable_state")!.requests) {
      const itemId = inputs.get(firstUserText(request.body) ?? "");
      if (itemId !== undefined) tagsByItem.set(itemId, (tagsByItem.get(itemId) ?? new Set()).add(request.tag));
    }
    for (const item of paused) expect(tagsByItem.get(item.item_id)?.size, item.item_id).toBe(item.legs!.length);
  }, 120_000);
});
