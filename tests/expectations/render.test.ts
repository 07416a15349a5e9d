/**
 * How differences are shown at the end of a bench: one line each, and the update command offered
 * only when running it would change the outcome.
 */
import { describe, expect, it } from "vitest";
import { renderDiff, type Difference } from "../../orchestrator/expectations/index.ts";

describe("renderDiff", () => {
  const updateCommand = "pnpm bench --update-expected";
  const base = { arena: "resilience", framework: "langgraph", item_id: "res-01" };

  it("one line per difference, then the update command", () => {
    const diffs: Difference[] = [
      { kind: "new_failure", ...base, repeats: 1, failed_repeats: [0] },
      { kind: "new_failure", ...base, item_id: "res-03", repeats: 3, failed_repeats: [0, 2] },
      { kind: "error", ...base, item_id: "res-04", repeats: 1, failed_repeats: [0], error_class: "timeout", error: "TimeoutError: leg deadline\n  at x" },
      { kind: "error", ...base, item_id: "res-05", repeats: 1, failed_repeats: [0], error: "boom" },
      { kind: "now_passes", ...base, framework: "openai_agents", item_id: "res-02", repeats: 2, reason: "raises on an unknown tool" },
      { kind: "lane_error", arena: "rag", framework: "langgraph", unavailable_kind: "build_failed", reason: "build failed: Cannot find module" },
    ];
    expect(renderDiff(diffs, { updateCommand })).toEqual([
      "resilience/langgraph/res-01: fails, not expected to",
      "resilience/langgraph/res-03: fails (2 of 3 repeats), not expected to",
      "resilience/langgraph/res-04: timeout error, not expected to: TimeoutError: leg deadline",
      "resilience/langgraph/res-05: error, not expected to: boom",
      "resilience/openai_agents/res-02: passes all 2 repeats, but is listed as expected to fail (raises on an unknown tool)",
      "rag/langgraph: did not run (build_failed): build failed: Cannot find module",
      "to accept these results as expected: pnpm bench --update-expected",
    ]);
  });

  it("cuts a long error to a short excerpt", () => {
    const [line] = renderDiff([{ kind: "error", ...base, repeats: 1, failed_repeats: [0], error_class: "adapter", error: "x".repeat(500) }], { updateCommand });
    expect(line).toBe(`resilience/langgraph/res-01: adapter error, not expected to: ${"x".repeat(159)}…`);
  });

  it("offers the update only when it would change the outcome", () => {
    expect(renderDiff([], { updateCommand })).toEqual([]);
    const laneOnly: Difference[] = [{ kind: "lane_error", arena: "rag", framework: "langgraph", unavailable_kind: "load_failed", reason: "x" }];
    expect(renderDiff(laneOnly, { updateCommand })).toEqual(["rag/langgraph: did not run (load_failed): x"]);
    const strictOnly: Difference[] = [{ kind: "new_failure", ...base, repeats: 1, failed_repeats: [0], expected_reason: "r" }];
    expect(renderDiff(strictOnly, { updateCommand })).toEqual(["resilience/langgraph/res-01: fails (listed as expected; --strict counts it)"]);
  });
});
