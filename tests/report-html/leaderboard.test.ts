import { describe, expect, it } from "vitest";
import { ADAPTER_CATALOG } from "../../contract/catalogue.ts";
import { MOCK_NOTICE } from "../../orchestrator/report/html/banner.ts";
import { buildReportData, type RunInput } from "../../orchestrator/report/html/data.ts";
import { competitionRanks, rankLabel, seriesStyles } from "../../orchestrator/report/html/leaderboard.ts";
import { REPORT_STATISTICS } from "../../orchestrator/report/html/statistics.ts";
import type { Series } from "../../orchestrator/report/html/types.ts";
import type { RunRecord } from "../../orchestrator/report/record.ts";
import { manyFrameworkRecords, rankedRecords, syntheticName } from "./board-fixture.ts";
import { fixtureManifest, RUN_ID } from "./fixture.ts";

const GENERATED = "2026-12-01T09:00:00.000Z";

function build(records: RunRecord[], over: Partial<RunInput> = {}) {
  return buildReportData([{ runId: RUN_ID, manifest: fixtureManifest(), records, ...over }], { generatedAt: GENERATED, statistics: REPORT_STATISTICS });
}

function arena(data: ReturnType<typeof build>, id: string) {
  const board = data.board.arenas.find((b) => b.arena === id);
  if (!board) throw new Error(`no board for ${id}`);
  return board;
}

describe("competition ranks", () => {
  it("gives equal values the same rank and skips the places they share", () => {
    expect(competitionRanks([1, 0.75, 0.75, 0.25]).map(rankLabel)).toEqual(["1", "=2", "=2", "4"]);
    expect(competitionRanks([0.5, 0.5, 0.5]).map(rankLabel)).toEqual(["=1", "=1", "=1"]);
    expect(competitionRanks([]).map(rankLabel)).toEqual([]);
  });

  it("treats rates equal up to floating-point division as equal", () => {
    expect(competitionRanks([2 / 3, 0.1 * 20 / 3]).map(rankLabel)).toEqual(["=1", "=1"]);
  });
});

describe("the leaderboard", () => {
  const data = build(rankedRecords());

  it("ranks an arena's frameworks by served pass rate, ties shared, ties in the report's order", () => {
    const board = arena(data, "tool_use");
    expect(board.rows.map((r) => [r.series, rankLabel(r.rank!), r.passed, r.n])).toEqual([
      ["vanilla", "1", 4, 4],
      ["alpha", "=2", 3, 4],
      ["beta", "=2", 3, 4],
      ["gamma", "4", 1, 3],
    ]);
  });

  it("keeps the cell the provider failed out of the rate and shows it in its own column", () => {
    const gamma = arena(data, "tool_use").rows.find((r) => r.series === "gamma")!;
    expect(gamma.notServed).toBe(1);
    expect(gamma.errors).toBe(0);
    expect(gamma.passRate).toBeCloseTo(1 / 3, 12);
  });

  it("lists a framework that could not run the arena last, unranked", () => {
    const rows = arena(data, "rag").rows;
    expect(rows.at(-1)).toMatchObject({ series: "beta", unavailable: "not_installed" });
    expect(rows.at(-1)!.rank).toBeUndefined();
    expect(rows.slice(0, 3).map((r) => rankLabel(r.rank!))).toEqual(["=1", "=1", "3"]);
  });

  it("carries the intervals, tokens and latency beside the rate", () => {
    const vanilla = arena(data, "tool_use").rows[0]!;
    expect(vanilla.passInterval!.high).toBe(1);
    expect(vanilla.meanTokens).toBe(110);
    expect(vanilla.meanLatencyS).toBe(0.5);
    expect(vanilla.meanCostUsd).toBeCloseTo((100 * 0.4 + 10 * 1.6) / 1e6, 15);
  });

  it("flags the paired test significant only below the level", () => {
    const rag = arena(data, "rag").rows.find((r) => r.series === "gamma")!;
    expect(rag.vsBaseline).toMatchObject({ better: 0, worse: 6, paired: 6, significant: true });
    expect(rag.vsBaseline!.pValue).toBeCloseTo(2 * 0.5 ** 6, 12);
    const tool = arena(data, "tool_use").rows.find((r) => r.series === "alpha")!;
    expect(tool.vsBaseline).toMatchObject({ better: 0, worse: 1, significant: false });
    expect(arena(data, "tool_use").rows.find((r) => r.series === "vanilla")!.vsBaseline).toBeUndefined();
  });

  it("has one overall row per ranked framework: mean of arena rates, their spread, and significant results", () => {
    // beta could not run rag: its mean is over one arena, so it is listed after the others, unranked.
    expect(data.board.overall.map((o) => [o.series, o.rank ? rankLabel(o.rank) : "—", o.arenas])).toEqual([
      ["vanilla", "1", 2],
      ["alpha", "2", 2],
      ["gamma", "3", 2],
      ["beta", "—", 1],
    ]);
    expect(data.board.overall.find((o) => o.series === "beta")!.meanPassRate).toBe(0.75);
    const gamma = data.board.overall.find((o) => o.series === "gamma")!;
    expect(gamma.meanPassRate).toBeCloseTo((1 / 3 + 0) / 2, 12);
    expect([gamma.minPassRate, gamma.maxPassRate]).toEqual([0, 1 / 3]);
    expect([gamma.significantlyBetter, gamma.significantlyWorse]).toEqual([0, 1]);
    const alpha = data.board.overall.find((o) => o.series === "alpha")!;
    expect([alpha.meanPassRate, alpha.minPassRate, alpha.maxPassRate, alpha.significantlyWorse]).toEqual([0.875, 0.75, 1, 0]);
  });
});

describe("the banner", () => {
  it("says a mock run is a wiring check and counts the cells the provider failed", () => {
    const notices = build(rankedRecords()).board.notices;
    expect(notices.map((n) => n.kind)).toEqual(["mock", "provider-faults"]);
    expect(notices[0]!.text).toBe(MOCK_NOTICE);
    expect(notices[1]!.text).toMatch(/^Provider faults: 1 cell in 1 framework × arena not served by the provider \(1× 503\)/);
  });

  it("names the arenas of an interrupted run, and says nothing for a complete live run", () => {
    const interrupted = rankedRecords().map((r) => (r.arena === "rag" ? { ...r, status: "interrupted" as const } : r));
    expect(build(interrupted).board.notices.find((n) => n.kind === "partial")!.text).toContain(`${RUN_ID} on rag`);
    const live = rankedRecords()
      .filter((r) => r.arena === "rag")
      .map((r) => ({ ...r, mode: "live" as const }));
    expect(build(live, { manifest: { ...fixtureManifest(), mode: "live" } }).board.notices).toEqual([]);
  });
});

describe("each framework's colour and symbol", () => {
  const series = (names: string[]): Series[] => names.map((n) => ({ id: n, framework: n, runId: RUN_ID, label: n, variant: false, libVersions: [], declarations: [] }));

  it("follows the adapter catalogue, not the order of one run", () => {
    const [a, b] = [ADAPTER_CATALOG[7]!.name, ADAPTER_CATALOG[0]!.name];
    const one = seriesStyles(series([a, b]));
    const other = seriesStyles(series([b, "zeta", a]));
    expect(one.find((s) => s.series === a)).toEqual(other.find((s) => s.series === a));
    expect(other.find((s) => s.series === b)!.index).toBe(0);
    expect(other.find((s) => s.series === "zeta")!.index).toBe(ADAPTER_CATALOG.length);
  });

  it("gives every one of the catalogue's adapters and 30 more a distinct (colour, symbol) pair", () => {
    const names = [...ADAPTER_CATALOG.map((e) => e.name), ...Array.from({ length: 30 }, (_, k) => syntheticName(k))];
    const styles = seriesStyles(series(names));
    expect(new Set(styles.map((s) => `${s.colour} ${s.symbol}`)).size).toBe(names.length);
  });

  it("reaches the report's data for a run of 30 frameworks", () => {
    const data = build(manyFrameworkRecords(30));
    expect(data.board.styles).toHaveLength(30);
    expect(new Set(data.board.styles.map((s) => `${s.colour} ${s.symbol}`)).size).toBe(30);
  });
});
