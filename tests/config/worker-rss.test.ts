/**
 * orchestrator/config/worker-rss.json is what scripts/worker-rss.ts makes of the adapter cost
 * table in docs/findings.md: regenerated, not edited, and it names every catalogue adapter.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ADAPTER_CATALOG } from "../../contract/catalogue.ts";
import { HEAVIEST_WORKER_BYTES, isMeasured, workerBytesFor } from "../../orchestrator/config/worker-rss.ts";
import { FINDINGS, FLOOR_MIB, MARGIN, renderTable, TABLE, workerRssFrom } from "../../scripts/worker-rss.ts";

const MIB = 1024 * 1024;

describe("worker-rss.json", () => {
  it("is what the cost table gives (node scripts/worker-rss.ts)", () => {
    expect(readFileSync(TABLE, "utf8")).toBe(renderTable(workerRssFrom(readFileSync(FINDINGS, "utf8"))));
  });

  it("budgets every catalogue adapter at its measured peak with the margin, never under the floor", () => {
    const table = workerRssFrom(readFileSync(FINDINGS, "utf8"));
    for (const e of ADAPTER_CATALOG) {
      expect(isMeasured(e.name), e.name).toBe(true);
      const row = table.adapters[e.name]!;
      expect(row.budget_mib).toBeGreaterThanOrEqual(Math.max(FLOOR_MIB, row.measured_mib * MARGIN));
      expect(workerBytesFor(e.name)).toBe(row.budget_mib * MIB);
      expect(workerBytesFor(e.name)).toBeLessThanOrEqual(HEAVIEST_WORKER_BYTES);
    }
  });

  it("names the file and line of a cost table it cannot read", () => {
    const broken = ["<!-- adapter-costs:start -->", "| adapter | peak worker RSS in bench (MiB) |", "|---|--:|", "| `x` | lots |", "<!-- adapter-costs:end -->"].join("\n");
    expect(() => workerRssFrom(broken)).toThrow(/findings\.md:4: x: "lots" is not a peak in MiB/);
    expect(() => workerRssFrom("no table here")).toThrow(/no adapter-costs section/);
  });
});
