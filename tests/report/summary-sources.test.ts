/**
 * The summary's Sources section names each run once: a summary from one run says so in a
 * sentence; a cross-run summary has a row per run with the cells it supplies, grouped by arena.
 */
import { describe, expect, it } from "vitest";
import { renderSummary, type CellSource } from "../../orchestrator/report/summary.ts";
import { item, lane, record } from "../report-html/fixture.ts";

const records = [
  record("tool_use", [lane("vanilla", [item("t-01")]), lane("fancy", [item("t-01")])]),
  record("rag", [lane("vanilla", [item("r-01")]), lane("fancy", [item("r-01")])]),
];
const cell = (arena: string, framework: string, runId: string, startedAt: string): CellSource => ({ arena, framework, runId, startedAt });

describe("the summary's sources", () => {
  it("one run: one sentence, not a row per cell", () => {
    const sources = ["tool_use", "rag"].flatMap((a) => ["vanilla", "fancy"].map((f) => cell(a, f, "run-a", "2026-12-01T08:00:00Z")));
    const md = renderSummary(records, sources);
    const section = md.slice(md.indexOf("## Sources"));
    expect(section).toContain("Every cell comes from run `run-a`, started 2026-12-01T08:00:00Z.");
    expect(section.match(/run-a/g)).toHaveLength(1);
  });

  it("several runs: a row per run, oldest first, its cells grouped by arena", () => {
    const sources = [
      cell("tool_use", "fancy", "run-b", "2026-12-02T08:00:00Z"),
      cell("tool_use", "vanilla", "run-a", "2026-12-01T08:00:00Z"),
      cell("rag", "vanilla", "run-a", "2026-12-01T08:00:00Z"),
      cell("rag", "fancy", "run-a", "2026-12-01T08:00:00Z"),
    ];
    const rows = renderSummary(records, sources).split("\n").filter((l) => l.startsWith("| `run-"));
    expect(rows).toEqual([
      "| `run-a` | 2026-12-01T08:00:00Z | `rag`: `vanilla`, `fancy`; `tool_use`: `vanilla` |",
      "| `run-b` | 2026-12-02T08:00:00Z | `tool_use`: `fancy` |",
    ]);
  });

  it("no sources: no section", () => {
    expect(renderSummary(records)).not.toContain("## Sources");
  });
});
