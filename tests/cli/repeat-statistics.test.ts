/**
 * The repeats of one item are not independent samples: on the deterministic mock, `--repeat 10`
 * must state the same intervals and paired p as `--repeat 1`, in the scorecard and in the HTML
 * report, on the real CLI. The resilience arena has an item langgraph fails on the mock
 * (arenas/expectations.toml), so the paired test has a discordant item to be fooled by.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { arenaCli, outputRoot, runIdsIn } from "../support/cli.ts";

const ARENA = "resilience";

interface CellData {
  series: string;
  passInterval?: { low: number; high: number };
  vsBaseline?: { better: number; worse: number; tied: number; paired: number; pValue: number; dropped: number };
}

async function runWithRepeats(repeats: number) {
  const { root, env } = outputRoot();
  const r = await arenaCli(["run", "--arena", ARENA, "--framework", "vanilla", "--framework", "langgraph", "--repeat", String(repeats), "--quiet"], env);
  expect(r.exitCode, r.stderr).toBe(0);
  const runDir = path.join(root, "runs", runIdsIn(root)[0]!);
  const scorecard = readFileSync(path.join(runDir, "scorecards", ARENA, "scorecard.md"), "utf8");
  // Framework, interval and test: the three columns every repeat count has.
  const statistics = scorecard
    .split("\n")
    .filter((l) => /^\| `(vanilla|langgraph)` \| [\d.]+%–[\d.]+% \|/.test(l))
    .map((l) => /^\|[^|]+\|[^|]+\|[^|]+\|/.exec(l)![0]);
  const html = readFileSync(path.join(runDir, "report.html"), "utf8");
  const data = JSON.parse(/<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!) as { cells: CellData[] };
  const cells = data.cells.map(({ series, passInterval, vsBaseline }) => ({ series, passInterval, vsBaseline }));
  const record = JSON.parse(readFileSync(path.join(runDir, "records", `${ARENA}.json`), "utf8")) as {
    frameworks: { framework: string; items: { item_id: string; repeat: number; passed: boolean }[] }[];
  };
  return { statistics, cells, record };
}

describe("statistics over items on the real CLI (mock, deterministic)", () => {
  it("--repeat 10 states the intervals and the paired p of --repeat 1, in the scorecard and the report", async () => {
    const once = await runWithRepeats(1);
    const tenTimes = await runWithRepeats(10);

    // The runs are what the comparison needs: ten repeats of every item, and langgraph failing
    // an item vanilla passes on every one of them (so counting cells would give 0 better, 10 worse, p = 0.002).
    const lane = (name: string) => tenTimes.record.frameworks.find((f) => f.framework === name)!.items;
    expect(new Set(lane("vanilla").map((i) => i.repeat)).size).toBe(10);
    const failedByLanggraph = new Set(lane("langgraph").filter((i) => !i.passed).map((i) => i.item_id));
    expect(failedByLanggraph.size).toBe(1);
    expect(lane("langgraph").filter((i) => failedByLanggraph.has(i.item_id) && !i.passed)).toHaveLength(10);

    expect(once.statistics).toEqual(["| `vanilla` | 72.2%–100.0% | — |", "| `langgraph` | 59.6%–98.2% | 0 better, 1 worse of 10 items; p = 1.000 |"]);
    expect(tenTimes.statistics).toEqual(once.statistics);

    // The report's cells carry the same figures to the last bit.
    expect(once.cells.find((c) => c.series === "langgraph")!.vsBaseline).toEqual({ better: 0, worse: 1, tied: 9, paired: 10, pValue: 1, dropped: 0 });
    expect(tenTimes.cells).toEqual(once.cells);
  }, 240_000);
});
