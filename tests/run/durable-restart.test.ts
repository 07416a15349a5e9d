/**
 * The durable_state restart suite: the real orchestrator, real child processes, a real SIGKILL
 * at every pause. The two hostile fixtures prove the suite can fail: the cheater passes only
 * when the worker survives the pause, and the restarter fails on exact call counts.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../fixtures/catalogue.ts";
import { adapterEntry, OUR_ARENAS, OUR_CORPUS, quickRun } from "../support/run.ts";
import { describeWithReference, REFERENCE_ARENAS, REFERENCE_CORPUS } from "../support/reference.ts";

const cheater = { name: "cheater", module: FIXTURES.cheater.module };
const restarter = { name: "restarter", module: FIXTURES.restarter.module };

function suite(arenaDir: string, corpusPath: string) {
  it("vanilla passes every item across a real restart", async () => {
    const { records } = await quickRun({ arenaDirs: [arenaDir], adapters: [adapterEntry("vanilla")], corpusPath });
    const adapterRecord = records[0]!.frameworks[0]!;
    expect(adapterRecord.items.length).toBeGreaterThanOrEqual(8);
    for (const item of adapterRecord.items) {
      expect(item.passed, `${item.item_id}: ${item.error}`).toBe(true);
      expect(item.suspends).toBe(1);
    }
  }, 60_000);

  it("the cheater passes when the worker is reused across the pause (the cheat works in memory)", async () => {
    const { records } = await quickRun({
      arenaDirs: [arenaDir],
      adapters: [cheater],
      corpusPath,
      reuseWorkerAcrossPause: true,
    });
    const items = records[0]!.frameworks[0]!.items;
    expect(items.every((i) => i.passed)).toBe(true);
  }, 60_000);

  it("the cheater fails every item under the real restart", async () => {
    const { records } = await quickRun({ arenaDirs: [arenaDir], adapters: [cheater], corpusPath });
    const items = records[0]!.frameworks[0]!.items;
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expect(item.passed).toBe(false);
      expect(item.error).toMatch(/^KeyError: '/);
    }
  }, 60_000);

  it("the restarter fails on call_counts (it redoes the work before the pause)", async () => {
    const { records } = await quickRun({ arenaDirs: [arenaDir], adapters: [restarter], corpusPath });
    const items = records[0]!.frameworks[0]!.items;
    expect(items.length).toBeGreaterThan(0);
    for (const item of items) {
      expect(item.passed).toBe(false);
      expect(item.error).toBeNull();
      const failed = item.checks.filter((c) => !c.ok).map((c) => c.type);
      expect(failed).toContain("call_counts");
    }
  }, 60_000);
}

describe("durable restart suite: our durable_state arena", () => {
  suite(path.join(OUR_ARENAS, "durable_state"), OUR_CORPUS);
});

describeWithReference("durable restart suite: the reference durable_state arena", () => {
  suite(path.join(REFERENCE_ARENAS, "durable_state"), REFERENCE_CORPUS);
});
