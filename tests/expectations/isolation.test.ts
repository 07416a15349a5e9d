/**
 * Isolation violations of a watched worker (stray files, processes left running): a difference of
 * their own that no expectations entry or update can accept.
 */
import { describe, expect, it } from "vitest";
import { acceptable, compareWithExpectations, loadExpectations, renderDiff, renderDifference } from "../../orchestrator/expectations/index.ts";
import { entry, item, lane, LG, record, writeFile } from "./support.ts";

describe("isolation violations of watched workers", () => {
  it("are a difference no update can accept", () => {
    const watched = record("resilience", [
      lane("vanilla", [item("res-01", true)], {
        isolation: { level: "watched", network: "shared", tool: "watcher (/proc)", violations: ["wrote /tmp/stray.json", "left pid 4242 running"] },
      }),
    ]);
    const diff = compareWithExpectations([watched], loadExpectations(writeFile(entry(LG))), "mock");
    expect(diff).toEqual([{ kind: "isolation_violation", arena: "resilience", framework: "vanilla", violations: ["wrote /tmp/stray.json", "left pid 4242 running"] }]);
    expect(renderDifference(diff[0]!)).toBe("resilience/vanilla: its watched worker broke isolation (2): wrote /tmp/stray.json");
    expect(acceptable(diff[0]!)).toBe(false);
    expect(renderDiff(diff, { updateCommand: "u" })).toEqual([renderDifference(diff[0]!)]);
  });
  it("a clean isolation record is no difference", () => {
    const sealed = record("resilience", [lane("vanilla", [item("res-01", true)], { isolation: { level: "sandbox", network: "sealed", tool: "bubblewrap 0.8.0" } })]);
    expect(compareWithExpectations([sealed], loadExpectations(writeFile(entry(LG))), "mock")).toEqual([]);
  });
});
