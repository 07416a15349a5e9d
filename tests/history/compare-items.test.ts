/**
 * Run against run, item by item: what fixed, broke and unchanged mean with repeats (pass
 * fractions), provider faults kept out, the paired item test (repeats one unit) and the deltas,
 * the report's comparisons and item links, and compare's Markdown.
 */
import { describe, expect, it } from "vitest";
import { compareLane, compareRuns } from "../../orchestrator/history/compare.ts";
import { countChanges, diffItems } from "../../orchestrator/history/item-diff.ts";
import { deltaText, pairLane } from "../../orchestrator/history/paired-items.ts";
import { compareMarkdown, compareText } from "../../orchestrator/cli/compare-output.ts";
import { itemLink, runComparisons } from "../../orchestrator/report/html/compare.ts";
import type { ItemRecord } from "../../orchestrator/report/record.ts";
import { item, lane, record } from "../report-html/fixture.ts";

/** `passes` per repeat of one item: `cells("a", [true, false])` is a 1/2 item. */
const cells = (id: string, passes: boolean[], over: Partial<ItemRecord> = {}) => passes.map((passed, repeat) => item(id, { repeat, passed, ...over }));
const infra = (id: string, repeat = 0) => item(id, { repeat, passed: false, error: "LLM HTTP 503", error_class: "infra" });
const heading = { a: { runId: "RA", mode: "mock" }, b: { runId: "RB", mode: "live" }, rule: "--threshold 0" };

describe("fixed, broke and unchanged by pass fraction", () => {
  it("an item's repeats are one unit: its fraction up is fixed, down is broke, equal is unchanged", () => {
    const a = [...cells("up", [false, true, false]), ...cells("down", [true, true, true]), ...cells("same", [true, false, true]), ...cells("fail", [false])];
    const b = [...cells("up", [true, true, false]), ...cells("down", [true, false, true]), ...cells("same", [false, true, true]), ...cells("fail", [false])];
    const diffs = diffItems(a, b);
    expect(diffs.map((d) => [d.itemId, d.change, d.a, d.b])).toEqual([
      ["up", "fixed", { passes: 1, runs: 3 }, { passes: 2, runs: 3 }],
      ["down", "broke", { passes: 3, runs: 3 }, { passes: 2, runs: 3 }],
      ["same", "unchanged", { passes: 2, runs: 3 }, { passes: 2, runs: 3 }],
      ["fail", "unchanged", { passes: 0, runs: 1 }, { passes: 0, runs: 1 }],
    ]);
  });

  it("fractions over different repeat counts compare exactly (2/4 equals 1/2)", () => {
    expect(diffItems(cells("x", [true, false, true, false]), cells("x", [false, true])).map((d) => d.change)).toEqual(["unchanged"]);
  });

  it("items on one side are only-a / only-b; an item the provider failed in either run is not served, never broke", () => {
    const a = [...cells("gone", [true]), ...cells("faulted", [true]), infra("faulted-a")];
    const b = [...cells("new", [false]), infra("faulted"), ...cells("faulted-a", [false])];
    const diffs = diffItems(a, b);
    expect(Object.fromEntries(diffs.map((d) => [d.itemId, d.change]))).toEqual({ gone: "only-a", faulted: "not-served", "faulted-a": "not-served", new: "only-b" });
    expect(countChanges(diffs)).toEqual({ fixed: 0, broke: 0, unchanged: 0, "only-a": 1, "only-b": 1, "not-served": 2 });
    expect(diffs.find((d) => d.itemId === "faulted")).toMatchObject({ repeatsA: [0], repeatsB: [0] });
  });

  it("a faulted repeat drops that repeat from both sides; the item's other repeats still compare", () => {
    const a = cells("x", [true, true]);
    const b = [infra("x", 0), item("x", { repeat: 1, passed: false })];
    expect(diffItems(a, b)).toMatchObject([{ itemId: "x", change: "broke", a: { passes: 1, runs: 1 }, b: { passes: 0, runs: 1 } }]);
  });
});

describe("the paired test and the deltas", () => {
  const ids = ["a", "b", "c", "d", "e", "f", "g", "h"];
  it("deterministic repeats give the same p as one repeat (repeats are not independent samples)", () => {
    const run = (repeats: number, passing: number) => ids.flatMap((id, i) => cells(id, Array(repeats).fill(i >= passing)));
    const once = compareLane("t", "vanilla", lane("vanilla", run(1, 0)), lane("vanilla", run(1, 6)), { threshold: 0, alpha: 0.05 });
    const tenfold = compareLane("t", "vanilla", lane("vanilla", run(10, 0)), lane("vanilla", run(10, 6)), { threshold: 0, alpha: 0.05 });
    expect(once.pValue).toBe(0.03125);
    expect(tenfold.pValue).toBe(once.pValue);
    expect([tenfold.changes.broke, tenfold.regression, tenfold.lost.length]).toEqual([6, true, 60]);
  });

  it("the threshold counts broken items, not cells", () => {
    const a = lane("vanilla", cells("x", [true, true, true]));
    const b = lane("vanilla", cells("x", [false, false, false]));
    expect(compareLane("t", "vanilla", a, b, { threshold: 1 }).regression).toBe(false);
    expect(compareLane("t", "vanilla", a, b, { threshold: 0 }).regression).toBe(true);
  });

  it("deltas are B − A of the per-cell means over items both runs served, relative to A; cost only when both are priced", () => {
    const a = [item("x", { prompt_tokens: 100, completion_tokens: 10, latency_s: 1 }), item("gone", { prompt_tokens: 9999 })];
    const b = [item("x", { prompt_tokens: 150, completion_tokens: 10, latency_s: 0.5 }), infra("gone")];
    const priced = { input_per_m: 1, output_per_m: 2 };
    const paired = pairLane(a, b, { a: priced, b: priced });
    expect(paired.dropped).toBe(1);
    expect(paired.deltas.promptTokens).toEqual({ a: 100, b: 150, change: 50, relative: 0.5 });
    expect(paired.deltas.latencyS).toEqual({ a: 1, b: 0.5, change: -0.5, relative: -0.5 });
    expect(paired.deltas.costUsd?.change).toBeCloseTo(50e-6, 12);
    expect(pairLane(a, b, { a: priced }).deltas.costUsd).toBeUndefined();
    expect(deltaText(paired.deltas.promptTokens, 1)).toBe("+50.0 (+50.0%)");
    expect(deltaText(paired.deltas.latencyS, 3)).toBe("−0.500 (−50.0%)");
    expect(deltaText({ a: 0, b: 2, change: 2 }, 0)).toBe("+2");
  });
});

describe("renderings", () => {
  const a = [record("tool_use", [lane("vanilla", [...cells("tu-01", [true]), ...cells("tu-02", [false]), ...cells("tu-03", [true])])])];
  const b = [record("tool_use", [lane("vanilla", [...cells("tu-01", [false]), ...cells("tu-02", [true]), ...cells("tu-03", [true])])], { mode: "live" })];
  const diffs = compareRuns(a, b, { threshold: 0 });

  it("text names each run's mode and every fixed and broken item with its fractions", () => {
    const text = compareText(diffs, heading).split("\n");
    expect(text.slice(0, 2)).toEqual(["A: RA (mock)", "B: RB (live)"]);
    expect(text).toContain("  broke      tool_use/vanilla: tu-01 1/1 → 0/1");
    expect(text).toContain("  fixed      tool_use/vanilla: tu-02 0/1 → 1/1");
    expect(text.at(-2)).toBe("1 regression(s) (--threshold 0): tool_use/vanilla");
  });

  it("markdown: one table row per lane with the counts and p, then the named items", () => {
    const md = compareMarkdown(diffs, heading).split("\n");
    expect(md).toContain("- **B (candidate):** `RB` (live)");
    const row = md.find((l) => l.startsWith("| tool_use | vanilla |"))!.split(" | ");
    expect(row.slice(4, 11)).toEqual(["1", "1", "1", "0", "0", "0", "1.000"]);
    expect(row.at(-1)).toBe("**REGRESSION** |");
    expect(md).toContain("- broke: `tu-01` 1/1 → 0/1");
    expect(md).toContain("- fixed: `tu-02` 0/1 → 1/1");
  });

  it("the report's comparison: consecutive runs, each with its own mode, items linked to each run's column", () => {
    const runs = [
      { runId: "RA", manifest: { mode: "mock" as const }, records: a },
      { runId: "RB", manifest: { mode: "live" as const }, records: b },
    ];
    const [c] = runComparisons(runs, ["R1", "R2"]);
    expect([c!.a, c!.b]).toEqual([{ runId: "RA", label: "R1", mode: "mock" }, { runId: "RB", label: "R2", mode: "live" }]);
    const laneOf = c!.lanes[0]!;
    expect(laneOf).toMatchObject({ seriesA: "R1/vanilla", seriesB: "R2/vanilla", changes: { fixed: 1, broke: 1, unchanged: 1 }, test: { paired: 3, pValue: 1 } });
    expect(laneOf.items[0]).toMatchObject({ itemId: "tu-01", change: "broke", linkA: "#tool_use/tu-01/R1%2Fvanilla/1", linkB: "#tool_use/tu-01/R2%2Fvanilla/1" });
    expect(runComparisons(runs.slice(0, 1), ["R1"])).toEqual([]);
  });

  it("markdown keeps a pipe in a name inside its cell; a lane only B has is counted, never a regression", () => {
    const b2 = [record("tool_use", [lane("a|b", cells("x|y", [false]))])];
    const lanes = compareRuns(a, b2, { threshold: 0 });
    const md = compareMarkdown(lanes, heading);
    expect(md).toContain("| tool_use | a\\|b | - | 0/1 0% [0–79] | 0 | 0 | 0 | 0 | 1 | 0 |");
    expect(lanes.map((d) => [d.framework, d.regression, d.changes["only-b"], d.changes["only-a"]])).toEqual([
      ["vanilla", false, 0, 3],
      ["a|b", false, 1, 0],
    ]);
  });

  it("item links encode every part and count repeats from 1", () => {
    expect(itemLink("a/b", "x y#1", "R2/vanilla", 2)).toBe("#a%2Fb/x%20y%231/R2%2Fvanilla/3");
  });
});
