/**
 * Cells the provider failed (error class `infra`) are in no framework figure: the one predicate,
 * and every place a denominator is formed from it — the scorecard row and its markdown, the
 * statistics (Wilson, McNemar against vanilla), the summary, the HTML report's cells, `arena
 * compare`'s lanes and `arena runs`' counts — each shown the same lanes with and without them.
 */
import { describe, expect, it } from "vitest";
import { compareLane } from "../../orchestrator/history/compare.ts";
import { passCount } from "../../orchestrator/history/runs.ts";
import { buildReportData } from "../../orchestrator/report/html/data.ts";
import { REPORT_STATISTICS } from "../../orchestrator/report/html/statistics.ts";
import {
  isServed,
  laneServedness,
  providerFaultCause,
  servedPairs,
  unservedCauses,
  unservedText,
} from "../../orchestrator/report/not-served.ts";
import type { ItemRecord } from "../../orchestrator/report/record.ts";
import { renderCsv, renderMarkdown, scorecardRows, type AvailableRow } from "../../orchestrator/report/scorecard.ts";
import { statisticsSection } from "../../orchestrator/report/scorecard-stats.ts";
import { renderSummary } from "../../orchestrator/report/summary.ts";
import { item, lane, record } from "../report-html/fixture.ts";

const infra = (id: string, error: string, over: Partial<ItemRecord> = {}) =>
  item(id, { passed: false, error, error_class: "infra", prompt_tokens: 9000, latency_s: 60, ...over });
const failed = (id: string) => item(id, { passed: false, checks: [{ type: "contains", ok: false, detail: "expected 4", spec: {} }] });

// vanilla: two served passes, then a 503 and a reset; other: a fails, b and c pass, d was a 503.
const vanilla = lane("vanilla", [item("a"), item("b"), infra("c", "Error: 503 Service Unavailable"), infra("d", "TypeError: fetch failed (ECONNRESET)")]);
const other = lane("other", [failed("a"), item("b"), item("c"), infra("d", "LLM HTTP 503: overloaded")]);
const live = record("demo", [vanilla, other], { mode: "live", dataset_size: 4 });

const row = (framework: string) => scorecardRows(live).find((r): r is AvailableRow => r.framework === framework && r.available)!;

describe("the predicate and the cause", () => {
  it("a cell is served unless its class is infra; every other class is the framework's", () => {
    expect(isServed(item("x"))).toBe(true);
    for (const c of ["adapter", "protocol", "timeout", "harness"] as const) expect(isServed(item("x", { error: "e", error_class: c }))).toBe(true);
    expect(isServed(infra("x", "e"))).toBe(false);
  });

  it("names the cause from the error: a status, reset, refused, timeout, a malformed body, or other", () => {
    const cause = (error: string) => providerFaultCause({ error });
    expect(cause("Error: 429 Too Many Requests")).toBe("429");
    expect(cause("LLM HTTP 503: overloaded")).toBe("503");
    expect(cause("Error: socket hang up")).toBe("reset");
    expect(cause("connect ECONNREFUSED 127.0.0.1:9")).toBe("refused");
    expect(cause("upstream timed out")).toBe("timeout");
    expect(cause("SyntaxError: Unexpected token < in JSON")).toBe("malformed body");
    expect(cause("something else")).toBe("other");
    expect(unservedText(vanilla.items)).toBe("2 cells not served by the provider: 1× 503, 1× reset");
    expect(unservedText([vanilla.items[0]!])).toBe("");
    expect(unservedCauses([...vanilla.items, ...other.items])).toEqual({ "503": 2, reset: 1 });
  });

  it("names the cause from the fault the gateway saw first, whatever the error says", () => {
    const seen = (fault: "rate_limited" | "reset" | "malformed" | "timeout", status: number | null) =>
      providerFaultCause({ error: "Error: socket hang up", provider_faults: [{ leg: 1, fault: "reset", status: null }, { leg: 2, fault, status }] });
    expect(seen("rate_limited", 429)).toBe("429");
    expect(seen("reset", null)).toBe("reset");
    expect(seen("malformed", 200)).toBe("malformed body");
    expect(seen("timeout", null)).toBe("timeout");
  });

  it("servedness: all (an unavailable lane too), some, none", () => {
    expect(laneServedness(lane("x", [item("a")]))).toBe("all");
    expect(laneServedness(vanilla)).toBe("some");
    expect(laneServedness(lane("x", [infra("a", "503")]))).toBe("none");
    expect(laneServedness(lane("x", [], { available: false }))).toBe("all");
  });

  it("pairs: a pair either side of which was not served is dropped from both sides and counted", () => {
    const p = servedPairs(other.items, vanilla.items);
    expect(p.first.map((i) => i.item_id)).toEqual(["a", "b"]);
    expect(p.second.map((i) => i.item_id)).toEqual(["a", "b"]);
    expect(p.dropped).toBe(2);
  });
});

describe("every figure counts only served cells", () => {
  it("the scorecard row: the denominator, the means and the errors leave the infra cells out, counted beside", () => {
    const v = row("vanilla");
    expect({ items: v.items, passed: v.passed, pass_rate: v.pass_rate, errors: v.errors }).toEqual({ items: 2, passed: 2, pass_rate: 1, errors: 0 });
    expect({ not_served: v.not_served, by: v.not_served_by_cause, tokens: v.mean_tokens, latency: v.mean_latency_s }).toEqual({
      not_served: 2,
      by: { "503": 1, reset: 1 },
      tokens: 110,
      latency: 0.5,
    });
    expect(v.errors_by_class).toEqual({});
    const o = row("other");
    expect({ items: o.items, passed: o.passed }).toEqual({ items: 3, passed: 2 });
  });

  it("the markdown shows them beside the figures and apart from the failed items; the CSV has the columns", () => {
    const md = renderMarkdown(live, scorecardRows(live));
    expect(md).toContain("| `vanilla` | vanilla 1.0.0 | 100% (2/2) | 0 | 2 (1× 503, 1× reset) |");
    expect(md).toContain("- `vanilla` — 2 cells not served by the provider: 1× 503, 1× reset");
    expect(md).toContain("- `other` `a` — contains: expected 4");
    expect(md).not.toMatch(/^- `vanilla` `c`/m);
    const csv = renderCsv(scorecardRows(live)).split("\r\n");
    expect(csv[0]).toMatch(/,not_served,not_served_causes$/);
    expect(csv.find((l) => l.startsWith("vanilla,"))).toMatch(/,2,"1× 503, 1× reset"$/);
  });

  it("the statistics: the interval over served items, the paired test on served pairs, saying how many were dropped", () => {
    const lines = statisticsSection(live);
    // vanilla 2/2 → Wilson 34.2–100 % (R: prop.test(2, 2, correct = FALSE)); with the infra cells as fails it would be 2/4.
    expect(lines).toContain("| `vanilla` | 34.2%–100.0% | — |");
    expect(lines.find((l) => l.startsWith("| `other`"))).toMatch(/\| 0 better, 1 worse of 2 items; p = 1\.000; 2 cell pair\(s\) dropped: not served by the provider \|$/);
  });

  it("the summary: coverage over served cells, and a table of what was not served", () => {
    const md = renderSummary([live]);
    expect(md).toContain("| `vanilla` | ✅ |");
    expect(md).toContain("| `other` | 2/3 |");
    expect(md).toContain("| `demo` | `vanilla` | 2 cells not served by the provider: 1× 503, 1× reset |");
    expect(md).toContain("| `demo` | `other` | 1 cell not served by the provider: 1× 503 |");
    // Prompt size: served cells only (110 prompt tokens each, not the infra cells' 9000).
    expect(md).toMatch(/^\| `vanilla` \| 100\.0 \| 1\.00× \|$/m);
  });

  it("the HTML report's cells and paired test", () => {
    const data = buildReportData([{ runId: live.run_id, records: [live] }], { generatedAt: "2026-12-01T09:00:00Z", statistics: REPORT_STATISTICS });
    const cell = (s: string) => data.cells.find((c) => c.series === s)!;
    expect({ n: cell("vanilla").n, passed: cell("vanilla").passed, notServed: cell("vanilla").notServed }).toEqual({ n: 2, passed: 2, notServed: 2 });
    expect(cell("vanilla").notServedByCause).toEqual({ "503": 1, reset: 1 });
    expect(cell("vanilla").metrics.latencyS?.mean).toBe(0.5);
    expect(cell("other").vsBaseline).toMatchObject({ better: 0, worse: 1, paired: 2, dropped: 2 });
    // The grid still shows every cell, the unserved ones as such.
    expect(data.items.filter((r) => r.itemId === "c")[0]!.cells.map((c) => c?.status)).toEqual(["unserved", "pass"]);
  });

  it("arena runs: passed over served cells, the rest counted apart", () => {
    expect(passCount([live])).toEqual({ passed: 4, cells: 5, errored: 0, notServed: 3 });
  });
});

describe("arena compare", () => {
  const rule = { threshold: 0 };
  const allPass = lane("vanilla", ["a", "b", "c", "d"].map((id) => item(id)));

  it("cells the provider failed in B are named apart and never regress", () => {
    const d = compareLane("demo", "vanilla", allPass, vanilla, rule);
    expect({ lost: d.lost, regression: d.regression, dropped: d.dropped }).toEqual({ lost: [], regression: false, dropped: 2 });
    expect(d.notServedB).toEqual([{ item_id: "c", repeat: 0 }, { item_id: "d", repeat: 0 }]);
    expect(d.b).toEqual({ passed: 2, cells: 2, available: true });
    // ...and in A: a cell A's provider failed cannot be "gained" either.
    expect(compareLane("demo", "vanilla", vanilla, allPass, rule)).toMatchObject({ gained: [], regression: false, notServedA: [{ item_id: "c" }, { item_id: "d" }] });
  });

  it("a served cell lost is still a regression", () => {
    const d = compareLane("demo", "vanilla", allPass, lane("vanilla", [failed("a"), item("b"), infra("c", "503"), item("d")]), rule);
    expect(d.lost).toEqual([{ item_id: "a", repeat: 0 }]);
    expect(d.regression).toBe(true);
  });
});
