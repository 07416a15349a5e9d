/**
 * §5 The tool runs on the model's arguments: the adapter reported exactly one call, `search`, with
 * the scripted arguments (a corpus topic drawn per run, plus an optional `k`), and what reached the
 * model is `dispatch` on those arguments. The reported arguments are the leg results the workers sent (the run record keeps
 * only names); the second clause needs no trust in the adapter at all.
 */
import { describe, expect, it } from "vitest";
import { toolArgumentViolations } from "../../orchestrator/probes/judges/contract.ts";
import { searchTruth } from "../../orchestrator/probes/draws.ts";
import { describeProbe } from "./registry-suite.ts";
import { syntheticRun } from "./wire-runs.ts";

describe("§5 the judge", () => {
  it("the check: reported arguments may add k, nothing else", () => {
    // The judge on one fixed topic (a run's is drawn; the check does not depend on which).
    const EXPECTED = { name: "search", args: { query: "Eiffel Tower" }, optional: ["k"] } as const;
    const MARKER = "Eiffel Tower";
    const truth = searchTruth(EXPECTED.args);
    const run = (args: unknown) => ({
      ...syntheticRun([{ messages: [{ role: "tool", content: truth }] }], [{ tool_calls: ["search"] }]),
      reported: [{ leg: "run" as const, item: "x-01", result: { tool_calls: [{ name: "search", arguments: args }] } }],
    });
    expect(toolArgumentViolations(run('{"query": "Eiffel Tower"}'), EXPECTED, truth, MARKER)).toEqual([]);
    expect(toolArgumentViolations(run('{"query": "Eiffel Tower", "k": 3}'), EXPECTED, truth, MARKER)).toEqual([]);
    expect(toolArgumentViolations(run('{"query": "Eiffel Tower", "lang": "fr"}'), EXPECTED, truth, MARKER)).toHaveLength(1);
    expect(toolArgumentViolations(run('{"query": "eiffel tower"}'), EXPECTED, truth, MARKER)).toHaveLength(1);
  });

});

describeProbe("tool-arguments", { fixtures: ["arg-rewriter"] });
