import { describe, expect, it } from "vitest";
import { FORMAT_VERSION, type AdapterRecord, type RunRecord } from "../../orchestrator/report/record.ts";
import { STATISTICS_METHOD, statisticsSection } from "../../orchestrator/report/scorecard-stats.ts";
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
  // Two items × two repeats. vanilla: a passes both, b one of two (fractions 1, 1/2).
  // other: a passes one of two, b neither (fractions 1/2, 0): on each item other is lower.
  const vanilla = lane("vanilla", [["a", 0, true], ["a", 1, true], ["b", 0, false], ["b", 1, true]]);
  const other = lane("other", [["a", 0, true], ["a", 1, false], ["b", 0, false], ["b", 1, false]]);

  it("intervals and the paired test over items (repeats folded per item), pass@k / pass^k per item", () => {
    const lines = statisticsSection(run("live", 2, [vanilla, other]));
    // Wilson 95% at n = 2 items: p = 3/4 → 19.8–97.3 %, p = 1/4 → 2.7–80.2 % (the formula of
    // tests/stats/reference.py at those p; over the 4 cells it would be 30.1–95.4 % and 4.6–69.9 %).
    // Paired: differences −1/2, −1/2, equal in size, so the sign test: 0 better, 2 worse → p = 2 · 0.5² = 0.5.
    // pass@2 = mean over items of 1 − C(n−c, 2)/C(n, 2): vanilla (1 + 1)/2, other (1 + 0)/2; pass^2 = C(c, 2)/C(n, 2).
    expect(lines.slice(-2)).toEqual([
      "| `vanilla` | 19.8%–97.3% | — | 100.0% | 50.0% |",
      "| `other` | 2.7%–80.2% | 0 better, 2 worse of 2 items; p = 0.500 | 50.0% | 0.0% |",
    ]);
    expect(lines).toContain("| Framework | Pass rate 95% CI (items) | vs `vanilla` (paired items) | pass@2 | pass^2 |");
    expect(lines).toContain(STATISTICS_METHOD);
    expect(STATISTICS_METHOD).toMatch(/^_Over items: each item's repeats are folded into its pass fraction first\./);
  });

  it("deterministic repeats state exactly what one repeat does", () => {
    // vanilla passes a and b, other passes a only; ten repeats of each verdict.
    const verdicts = (passing: string[], repeats: number): [string, number, boolean][] =>
      ["a", "b", "c"].flatMap((id) => Array.from({ length: repeats }, (_, r): [string, number, boolean] => [id, r, passing.includes(id)]));
    const section = (repeats: number) =>
      statisticsSection(run("live", repeats, [lane("vanilla", verdicts(["a", "b"], repeats)), lane("other", verdicts(["a"], repeats))]))
        .slice(-2)
        // Framework, interval and test: the columns every repeat count has.
        .map((l) => /^\|[^|]+\|[^|]+\|[^|]+\|/.exec(l)?.[0]);
    // Wilson 2/3 → 20.8–93.9 %, 1/3 → 6.1–79.2 %; other worse on one item: p = binom.test(0, 1) = 1.
    expect(section(1)).toEqual(["| `vanilla` | 20.8%–93.9% | — |", "| `other` | 6.1%–79.2% | 0 better, 1 worse of 3 items; p = 1.000 |"]);
    expect(section(10)).toEqual(section(1));
  });

  it("a cell pair the provider failed on either side is dropped before the items are folded", () => {
    const allPassing = lane("vanilla", [["a", 0, true], ["a", 1, true], ["b", 0, true], ["b", 1, true]]);
    // The provider failed vanilla's (a, 1).
    const withInfra = { ...allPassing, items: allPassing.items.map((i) => (i.item_id === "a" && i.repeat === 1 ? { ...i, passed: false, error: "HTTP 503", error_class: "infra" as const } : i)) };
    const flaky = lane("other", [["a", 0, false], ["a", 1, true], ["b", 0, false], ["b", 1, false]]);
    const lines = statisticsSection(run("live", 2, [withInfra, flaky]));
    // (a, 1) leaves both sides: other's a is 0 of 1 against vanilla's 1 of 1, b 0 of 2 against 2 of 2,
    // so two items worse by 1, the sign test's 2 · 0.5² = 0.5. other's own interval keeps its
    // served a, 1 of 2 (p = 1/4 over 2 items: 2.7–80.2 %); vanilla's is its 2 served items, both passing.
    expect(lines.find((l) => l.startsWith("| `other`"))).toMatch(
      /^\| `other` \| 2\.7%–80\.2% \| 0 better, 2 worse of 2 items; p = 0\.500; 1 cell pair\(s\) dropped: not served by the provider \|/,
    );
    expect(lines.find((l) => l.startsWith("| `vanilla`"))).toMatch(/^\| `vanilla` \| 34\.2%–100\.0% \| — \|/);
  });

  it("one repeat: no pass@k columns; mock mode says what its figures are, and the method", () => {
    const lines = statisticsSection(run("mock", 1, [lane("vanilla", [["a", 0, true]]), lane("other", [["a", 0, false]])]));
    expect(lines).toContain("_Mock mode: only resilience and prompt size compare frameworks; every other figure here is wiring._");
    expect(lines).toContain(STATISTICS_METHOD);
    expect(lines.at(-1)).toBe("| `other` | 0.0%–79.3% | 0 better, 1 worse of 1 item; p = 1.000 |");
  });
});
