/**
 * The limits the witness now checks on every run (orchestrator/witness/limits.ts), in ordinary
 * runs: `best-of-two` resends, from its third request on, each request that follows a tool result
 * once the gateway has served it (reporting both calls, so its figures match), and is caught by
 * `retry` on every later item — on the items whose resent turn is the final answer, by `retry`
 * alone; the baseline on the same arena breaks neither rule. `iteration-cap` in a bench-style run is
 * tests/witness/probe-sniffer.test.ts.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../fixtures/catalogue.ts";
import type { ItemRecord } from "../../orchestrator/report/record.ts";
import { adapterEntry, OUR_ARENAS, OUR_CORPUS, quickRun } from "../support/run.ts";

const rulesOf = (i: ItemRecord) => [...new Set((i.violations ?? []).map((v) => v.rule))];

describe("retry, in an ordinary run", () => {
  it("best-of-two: its first item is clean; every later item is caught by `retry`, its usage report is not", async () => {
    const { records } = await quickRun({
      arenaDirs: [path.join(OUR_ARENAS, "tool_use")],
      adapters: [FIXTURES["best-of-two"], adapterEntry("vanilla")],
      corpusPath: OUR_CORPUS,
      // One item at a time, so one worker serves the fixture's lane and its count of requests is the lane's.
      concurrency: 1,
    });
    const lane = (n: string) => records[0]!.frameworks.find((f) => f.framework === n)!.items;
    const items = lane("best-of-two");
    expect(rulesOf(items[0]!)).toEqual([]);
    for (const i of items.slice(1)) {
      expect(rulesOf(i), i.item_id).toContain("retry");
      // Honest figures (both calls reported) and, in mock mode, the same answers: only the resend shows.
      expect(rulesOf(i), i.item_id).not.toContain("usage-reported");
      expect(i.passed, i.item_id).toBe(true);
    }
    // A single-tool item (tu-02..13): the resent turn is the answer, and nothing but `retry` sees it.
    const single = items.filter((i) => i.llm_calls === 3);
    expect(single.length).toBeGreaterThan(10);
    for (const i of single) expect(rulesOf(i), i.item_id).toEqual(["retry"]);
    expect(single[0]!.violations!.map((x) => x.detail)).toEqual(["sends request 2 of the item again, unchanged, after the gateway served it"]);
    // Where the second sample is another tool call, `served-result` sees it twice, and a leg whose
    // resends pass the cap is named by `iteration-cap`; nothing else is.
    expect([...new Set(items.flatMap(rulesOf))].filter((r) => !["retry", "served-result", "iteration-cap"].includes(r))).toEqual([]);
    expect(lane("vanilla").flatMap(rulesOf).filter((r) => r === "retry" || r === "iteration-cap")).toEqual([]);
  }, 120_000);
});
