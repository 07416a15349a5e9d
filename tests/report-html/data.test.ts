import { describe, expect, it } from "vitest";
import { buildReportData, type RunInput } from "../../orchestrator/report/html/data.ts";
import type { ReportStatistics, ReportData } from "../../orchestrator/report/html/types.ts";
import type { ItemOutcomes } from "../../orchestrator/stats/index.ts";
import { FANCY_DECLARATION, fixtureManifest, fixtureRecords, fixtureTranscript, item, lane, record, RUN_ID } from "./fixture.ts";

const GENERATED = "2026-12-01T09:00:00.000Z";

function fixtureRun(over: Partial<RunInput> = {}): RunInput {
  return { runId: RUN_ID, manifest: fixtureManifest(), records: fixtureRecords(), transcripts: [fixtureTranscript()], ...over };
}

function cell(data: ReportData, series: string, arena: string) {
  const c = data.cells.find((x) => x.series === series && x.arena === arena);
  if (!c) throw new Error(`no cell ${series} × ${arena}`);
  return c;
}

/** A provider whose answers are easy to recognise, recording the seeds it was given. */
function fakeIntervals(): ReportStatistics & { seeds: number[] } {
  const seeds: number[] = [];
  return {
    seeds,
    clusteredPassInterval: (items) => {
      const rate = items.reduce((a, i) => a + i.passes / i.runs, 0) / items.length;
      return items.length < 2 ? undefined : { low: rate - 0.1, high: rate + 0.1 };
    },
    bootstrapMeanInterval: (values, { seed }) => {
      seeds.push(seed);
      const mean = values.reduce((a, b) => a + b, 0) / values.length;
      return { mean, low: mean - 1, high: mean + 1 };
    },
  };
}

describe("buildReportData", () => {
  const data = buildReportData([fixtureRun()], { generatedAt: GENERATED });

  it("orders arenas by id and series by first appearance", () => {
    expect(data.arenas.map((a) => a.id)).toEqual(["durable_state", "resilience", "tool_use"]);
    expect(data.series.map((s) => s.id)).toEqual(["vanilla", "fancy"]);
    expect(data.series[1]!.libVersions).toEqual(["fancy 1.0.0"]);
  });

  it("publishes each framework's declared departures once, however many lanes recorded them", () => {
    const twice = fixtureRecords().map((r) => ({ ...r, frameworks: r.frameworks.map((f) => (f.framework === "fancy" ? { ...f, declarations: [FANCY_DECLARATION] } : f)) }));
    const data = buildReportData([fixtureRun({ records: twice })], { generatedAt: GENERATED });
    expect(data.series.find((s) => s.framework === "fancy")!.declarations).toEqual([FANCY_DECLARATION]);
    expect(data.series.find((s) => s.framework === "vanilla")!.declarations).toEqual([]);
    expect(data.mode).toBe("mock");
    expect(data.generatedAt).toBe(GENERATED);
  });

  it("counts passes, errors by class and rule violations per framework × arena", () => {
    const fancy = cell(data, "fancy", "tool_use");
    expect({ n: fancy.n, passed: fancy.passed, errors: fancy.errors, violationItems: fancy.violationItems }).toEqual({ n: 3, passed: 1, errors: 1, violationItems: 1 });
    expect(fancy.passRate).toBeCloseTo(1 / 3, 12);
    expect(fancy.errorsByClass).toEqual({ adapter: 1 });
    expect(fancy.violationsByRule).toEqual({ "tool-output": 1 });
    const vanilla = cell(data, "vanilla", "tool_use");
    expect(vanilla.passRate).toBe(1);
    expect(vanilla.errorsByClass).toEqual({});
    expect(vanilla.isolation).toEqual({ level: "sandbox", network: "sealed", tool: "bubblewrap 0.8.0", violations: [] });
  });

  it("takes means over every item of a lane, cost at the run's prices", () => {
    const m = cell(data, "vanilla", "tool_use").metrics;
    expect(m.promptTokens).toEqual({ mean: 200, n: 3 });
    expect(m.completionTokens?.mean).toBe(10);
    expect(m.llmCalls?.mean).toBe(2);
    expect(m.latencyS?.mean).toBeCloseTo(0.4, 12);
    // (200 / 1e6) × 0.4 + (10 / 1e6) × 1.6
    expect(m.costUsd?.mean).toBeCloseTo(9.6e-5, 15);
    expect(cell(data, "vanilla", "tool_use").latencySamples).toEqual([0.2, 0.4, 0.6]);
  });

  it("leaves cost out of an unpriced run instead of charting zeros", () => {
    const unpriced = fixtureRecords().map((r) => ({ ...r, pricing: { input_per_m: 0, output_per_m: 0 } }));
    const d = buildReportData([fixtureRun({ records: unpriced })], { generatedAt: GENERATED });
    expect(cell(d, "fancy", "tool_use").metrics.costUsd).toBeUndefined();
    expect(cell(d, "fancy", "tool_use").metrics.promptTokens?.mean).toBe(250);
    expect(d.runs[0]!.pricing).toBeUndefined();
  });

  it("measures prompt overhead against vanilla per arena and as Σ/Σ over the arenas both ran", () => {
    expect(cell(data, "fancy", "tool_use").promptOverhead).toBeCloseTo(1.25, 12);
    expect(cell(data, "vanilla", "tool_use").promptOverhead).toBe(1);
    // fancy: 250 + 100 + 100 over vanilla: 200 + 100 + 100 (resilience and durable items default to 100).
    const fancy = data.overhead.find((o) => o.series === "fancy");
    expect(fancy?.arenas).toBe(3);
    expect(fancy?.ratio).toBeCloseTo(450 / 400, 12);
  });

  it("has no overhead without the baseline, and honours another baseline", () => {
    const noBaseline = fixtureRecords().map((r) => ({ ...r, frameworks: r.frameworks.filter((f) => f.framework !== "vanilla") }));
    const d = buildReportData([fixtureRun({ records: noBaseline, transcripts: [] })], { generatedAt: GENERATED });
    expect(cell(d, "fancy", "tool_use").promptOverhead).toBeUndefined();
    expect(d.overhead).toEqual([]);
    const other = buildReportData([fixtureRun()], { generatedAt: GENERATED, baseline: "fancy" });
    expect(cell(other, "vanilla", "tool_use").promptOverhead).toBeCloseTo(0.8, 12);
  });

  it("builds the resilience table from the resilience arena only", () => {
    expect(data.resilience).toEqual([
      { series: "vanilla", recovered: 3, n: 3, failedItems: [], erroredItems: [], violationItems: 0 },
      { series: "fancy", recovered: 1, n: 2, failedItems: ["r-02"], erroredItems: [], violationItems: 0 },
    ]);
  });

  it("builds the pause table: paused items, legs, resume state and per-leg prompt tokens", () => {
    const vanilla = data.pause.find((p) => p.series === "vanilla");
    expect(vanilla).toEqual({
      series: "vanilla",
      arena: "durable_state",
      kind: "durable",
      n: 1,
      paused: 1,
      pausedAndPassed: 1,
      meanLegs: 2,
      meanResumeStateBytes: 500,
      maxResumeStateBytes: 500,
      legPromptTokens: [400, 600],
    });
    const fancy = data.pause.find((p) => p.series === "fancy");
    expect(fancy?.paused).toBe(0);
    expect(fancy?.meanResumeStateBytes).toBeUndefined();
    expect(fancy?.legPromptTokens).toEqual([900]);
    expect(data.pause.every((p) => p.arena === "durable_state")).toBe(true);
  });

  it("puts one row per arena × item with a group per framework", () => {
    expect(data.items.map((r) => r.key)).toEqual([
      "durable_state/d-01",
      "resilience/r-01",
      "resilience/r-02",
      "resilience/r-03",
      "tool_use/t-01",
      "tool_use/t-02",
      "tool_use/t-03",
    ]);
    const statuses = (key: string) => data.items.find((r) => r.key === key)!.cells.map((c) => c?.status ?? null);
    expect(statuses("tool_use/t-02")).toEqual(["pass", "fail"]);
    expect(statuses("tool_use/t-03")).toEqual(["pass", "error"]);
    expect(statuses("resilience/r-03")).toEqual(["pass", null]);
    expect(data.items.find((r) => r.key === "tool_use/t-01")!.cells[1]!.violations).toBe(1);
  });

  it("keeps each item's checks, answer, error and violations in its detail", () => {
    const detailOf = (key: string, column: number) => data.details[data.items.find((r) => r.key === key)!.cells[column]!.repeats[0]!.detail]!;
    const d = detailOf("tool_use/t-03", 1);
    expect(d.series).toBe("fancy");
    expect(d.error).toContain("TypeError");
    expect(d.errorClass).toBe("adapter");
    expect(d.checksRan).toBe(false);
    const t01 = detailOf("tool_use/t-01", 1);
    expect(t01.violations).toEqual([{ rule: "tool-output", leg: 1, requests: [2], detail: "calculator result rewritten" }]);
    expect(t01.checks).toEqual([{ type: "icontains", ok: true, detail: "expected substring (ci) 'ok'" }]);
    expect(t01.repeat).toBe(1);
  });

  it("carries transcripts per framework, referenced from the item that has one", () => {
    const row = data.items.find((r) => r.key === "tool_use/t-02")!;
    expect(data.details[row.cells[1]!.repeats[0]!.detail]!.transcript).toEqual({ lane: 0, key: "t-02#0" });
    expect(data.details[row.cells[0]!.repeats[0]!.detail]!.transcript).toBeUndefined();
    expect(data.transcripts).toHaveLength(1);
    const lane = data.transcripts[0]!;
    expect([lane.series, lane.arena]).toEqual(["fancy", "tool_use"]);
    expect(lane.items["t-02#0"]!.legs[0]!.exchanges).toHaveLength(2);
    // Two requests with the same system prompt and tools: two blocks, not four.
    expect(Object.keys(lane.blocks)).toHaveLength(2);
  });

  it("marks an unavailable lane and leaves it out of the tables", () => {
    const records = fixtureRecords();
    records[0] = { ...records[0]!, frameworks: [...records[0]!.frameworks, lane("ghost", [], { available: false, unavailable_kind: "not_installed", reason: "not installed" })] };
    const d = buildReportData([fixtureRun({ records })], { generatedAt: GENERATED });
    const ghost = cell(d, "ghost", "tool_use");
    expect(ghost).toMatchObject({ available: false, unavailable: "not_installed", reason: "not installed", n: 0, metrics: {} });
    expect(d.items.find((r) => r.key === "tool_use/t-01")!.cells[2]).toBeNull();
  });

  it("is plain JSON: it survives a JSON round trip unchanged", () => {
    const withIntervals = buildReportData([fixtureRun()], { generatedAt: GENERATED, statistics: fakeIntervals() });
    expect(JSON.parse(JSON.stringify(withIntervals))).toStrictEqual(withIntervals);
    expect(JSON.parse(JSON.stringify(data))).toStrictEqual(data);
  });

  it("has no interval fields without a provider", () => {
    expect(data.cells.some((c) => "passInterval" in c)).toBe(false);
    expect(data.cells.some((c) => Object.values(c.metrics).some((m) => "meanInterval" in m))).toBe(false);
  });
});

describe("intervals", () => {
  it("fills pass and mean intervals from the provider, where it gives one", () => {
    const d = buildReportData([fixtureRun()], { generatedAt: GENERATED, statistics: fakeIntervals() });
    expect(cell(d, "fancy", "tool_use").passInterval?.low).toBeCloseTo(1 / 3 - 0.1, 12);
    // The fake refuses n < 2: the durable lanes have one item each.
    expect(cell(d, "fancy", "durable_state").passInterval).toBeUndefined();
    expect(cell(d, "vanilla", "tool_use").metrics.promptTokens).toEqual({ mean: 200, n: 3, meanInterval: { low: 199, high: 201 } });
  });

  it("seeds each bootstrap by its figure: the same across builds, different across figures", () => {
    const a = fakeIntervals();
    const b = fakeIntervals();
    buildReportData([fixtureRun()], { generatedAt: GENERATED, statistics: a });
    buildReportData([fixtureRun()], { generatedAt: "2027-01-01T00:00:00.000Z", statistics: b });
    expect(a.seeds).toEqual(b.seeds);
    // 6 lanes × 5 metrics, all distinct.
    expect(new Set(a.seeds).size).toBe(30);
  });
});

describe("against the baseline", () => {
  /** Counts items by pass fraction, as the real test does, and keeps what it was handed. */
  const calls: { first: readonly ItemOutcomes[]; second: readonly ItemOutcomes[] }[] = [];
  const pairedItemTest = (first: readonly ItemOutcomes[], second: readonly ItemOutcomes[]) => {
    calls.push({ first, second });
    const other = new Map(second.map((o) => [o.id, o.passes / o.runs]));
    const paired = first.filter((o) => other.has(o.id));
    const better = paired.filter((o) => o.passes / o.runs > other.get(o.id)!).length;
    const worse = paired.filter((o) => o.passes / o.runs < other.get(o.id)!).length;
    return { better, worse, tied: paired.length - better - worse, paired: paired.length, pValue: 0.5 };
  };
  const d = buildReportData([fixtureRun()], { generatedAt: GENERATED, statistics: { ...fakeIntervals(), pairedItemTest } });

  it("pairs each lane with the baseline's lane of the same arena, and the baseline with nothing", () => {
    // fancy passed t-01 only; vanilla passed all three: two items worse, none better.
    expect(cell(d, "fancy", "tool_use").vsBaseline).toEqual({ better: 0, worse: 2, tied: 1, paired: 3, pValue: 0.5, dropped: 0 });
    // The test is handed items (each item's repeats folded into one), never cells.
    expect(calls.some((c) => c.first.length === 3 && c.first.every((i) => "passes" in i && i.runs === 1))).toBe(true);
    expect(cell(d, "vanilla", "tool_use").vsBaseline).toBeUndefined();
  });

  it("says nothing without the test, or without the baseline", () => {
    const withoutTest = buildReportData([fixtureRun()], { generatedAt: GENERATED, statistics: fakeIntervals() });
    expect(withoutTest.cells.some((c) => "vsBaseline" in c)).toBe(false);
    const noBaseline = fixtureRecords().map((r) => ({ ...r, frameworks: r.frameworks.filter((f) => f.framework !== "vanilla") }));
    const alone = buildReportData([fixtureRun({ records: noBaseline, transcripts: [] })], { generatedAt: GENERATED, statistics: { ...fakeIntervals(), pairedItemTest } });
    expect(alone.cells.some((c) => "vsBaseline" in c)).toBe(false);
  });
});

describe("combined runs", () => {
  const second = "20261202T080000000Z-def456";
  const live = fixtureRecords().map((r) => ({ ...r, run_id: second, mode: "live" as const, model: "gpt-4.1-mini" }));
  const d = buildReportData([fixtureRun(), { runId: second, records: live }], { generatedAt: GENERATED });

  it("gives each run's frameworks their own column, labelled by run", () => {
    expect(d.series.map((s) => s.id)).toEqual(["R1/vanilla", "R1/fancy", "R2/vanilla", "R2/fancy"]);
    expect(d.series[3]!.label).toBe("fancy (R2)");
    expect(d.runs.map((r) => [r.label, r.mode, r.models])).toEqual([
      ["R1", "mock", ["mock-model"]],
      ["R2", "live", ["gpt-4.1-mini"]],
    ]);
    expect(d.mode).toBe("mixed");
  });

  it("lines the same item of both runs up in one row, and measures overhead within each run", () => {
    expect(d.items).toHaveLength(7);
    expect(d.items.find((r) => r.key === "tool_use/t-02")!.cells.map((c) => c?.status)).toEqual(["pass", "fail", "pass", "fail"]);
    expect(cell(d, "R2/fancy", "tool_use").promptOverhead).toBeCloseTo(1.25, 12);
    // Transcripts belong to the run that recorded them.
    expect(d.transcripts.map((t) => t.series)).toEqual(["R1/fancy"]);
  });

  it("folds an item's repeats into one row, numbered from 1", () => {
    const repeated = record("tool_use", [lane("vanilla", [item("t-01"), item("t-01", { repeat: 1, passed: false })])]);
    const r = buildReportData([{ runId: RUN_ID, records: [repeated] }], { generatedAt: GENERATED });
    expect(r.items.map((x) => [x.key, x.cells[0]?.status, x.cells[0]?.passes, x.cells[0]?.runs])).toEqual([["tool_use/t-01", "partial", 1, 2]]);
    expect(r.items[0]!.cells[0]!.repeats.map((c) => c.repeat)).toEqual([1, 2]);
  });
});
