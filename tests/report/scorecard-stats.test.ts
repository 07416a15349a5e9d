import { describe, expect, it } from "vitest";
import { FORMAT_VERSION, type AdapterRecord, type RunRecord } from "../../orchestrator/report/record.ts";
import { statisticsSection } from "../../orchestrator/report/scorecard-stats.ts";
import { minimalItem } from "../support/records.ts";

const lane = (adapter: string, verdicts: [string, number, boolean][]): AdapterRecord => ({
  framework: adapter,
  available: true,
  lib_version: "x",
  variant: false,
  items: verdicts.map(([id, repeat, passed]) => minimalItem(id, { repeat, passed })),
});
const run = (mode: "mock" | "live", repeat: number, adapterRecords: AdapterRecord[]): RunRecord => ({
  schema: 1,
  format_version: FORMAT_VERSION,
  run_id: "r",
  status: "complete",
  arena: "demo",
  arena_description: "d",
  mode,
  model: "m",
  temperature: 0,
  repeat,
  dataset_size: 2,
  started_at: "2026-12-01T00:00:00Z",
  duration_s: 1,
  harness_version: "0.1.0",
  node: "24",
  platform: "linux-x64",
  pricing: { input_per_m: 0, output_per_m: 0 },
  frameworks: adapterRecords,
});

describe("the scorecard's statistics", () => {
  // vanilla passes 3 of 4 cells, other 1 of 4; other loses two cells vanilla passed and wins none.
  const vanilla = lane("vanilla", [["a", 0, true], ["a", 1, true], ["b", 0, false], ["b", 1, true]]);
  const other = lane("other", [["a", 0, true], ["a", 1, false], ["b", 0, false], ["b", 1, false]]);

  it("Wilson intervals, the exact McNemar test against vanilla, and pass@k / pass^k with repeats", () => {
    const lines = statisticsSection(run("live", 2, [vanilla, other]));
    // Wilson 95%: 3/4 → 30.1–95.4 %, 1/4 → 4.6–69.9 % (z = 1.96; R: prop.test(x, 4, correct = FALSE)).
    // McNemar: b = 0, c = 2 → p = 2 · 0.5² = 0.5 (R: binom.test(0, 2)$p.value).
    // pass@2 = mean over items of 1 − C(n−c, 2)/C(n, 2): vanilla (1 + 1)/2, other (1 + 0)/2; pass^2 = C(c, 2)/C(n, 2).
    expect(lines.slice(-2)).toEqual([
      "| `vanilla` | 30.1%–95.4% | — | 100.0% | 50.0% |",
      "| `other` | 4.6%–69.9% | 0 better, 2 worse of 4; p = 0.500 | 50.0% | 0.0% |",
    ]);
    expect(lines).toContain("| Framework | Pass rate 95% CI | vs `vanilla` (exact McNemar) | pass@2 | pass^2 |");
  });

  it("one repeat: no pass@k columns; mock mode says what its figures are", () => {
    const lines = statisticsSection(run("mock", 1, [lane("vanilla", [["a", 0, true]]), lane("other", [["a", 0, false]])]));
    expect(lines).toContain("_Mock mode: only resilience and prompt size compare frameworks; every other figure here is wiring._");
    expect(lines.at(-1)).toBe("| `other` | 0.0%–79.3% | 0 better, 1 worse of 1; p = 1.000 |");
  });
});
