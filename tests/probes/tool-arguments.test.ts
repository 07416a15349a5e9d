/**
 * §5 The tool runs on the model's arguments: the adapter reported exactly one call, `search`, with
 * `{"query": "Eiffel Tower"}` (plus an optional `k`), and what reached the model is `dispatch` on
 * those arguments. The reported arguments are read through the probe tap (the run record keeps
 * only names); the second clause needs no trust in the adapter at all.
 */
import { describe, expect, it } from "vitest";
import { toolArgumentViolations } from "./checks/contract.ts";
import { judge, knownFor, type KnownFindings } from "./checks/known.ts";
import { probeAdapters } from "./support.ts";
import {
  fixtureEntry,
  requireBuilt,
  roundTripTruth,
  setupRun,
  syntheticRun,
  wireRun,
  ROUND_TRIP_ARENA,
  ROUND_TRIP_ARGS,
  MATRIX_TIMEOUT_MS,
  FIXTURE_TIMEOUT_MS,
} from "./wire-runs.ts";

/** Real adapters' known §5 findings. Empty: every adapter runs the tool on what the model asked for. */
const KNOWN: KnownFindings = {};
const MARKER = "Eiffel Tower";
const EXPECTED = { name: "search", args: ROUND_TRIP_ARGS, optional: ["k"] } as const;

describe("§5 the tool runs on the model's arguments", () => {
  it("the baseline is in the matrix", () => {
    expect(probeAdapters().map((a) => a.name)).toContain("vanilla");
  });

  it("the check: reported arguments may add k, nothing else", () => {
    const truth = roundTripTruth();
    const run = (args: unknown) => ({
      ...syntheticRun([{ messages: [{ role: "tool", content: truth }] }], [{ tool_calls: ["search"] }]),
      reported: [{ leg: "run" as const, item: "x-01", result: { tool_calls: [{ name: "search", arguments: args }] } }],
    });
    expect(toolArgumentViolations(run('{"query": "Eiffel Tower"}'), EXPECTED, truth, MARKER)).toEqual([]);
    expect(toolArgumentViolations(run('{"query": "Eiffel Tower", "k": 3}'), EXPECTED, truth, MARKER)).toEqual([]);
    expect(toolArgumentViolations(run('{"query": "Eiffel Tower", "lang": "fr"}'), EXPECTED, truth, MARKER)).toHaveLength(1);
    expect(toolArgumentViolations(run('{"query": "eiffel tower"}'), EXPECTED, truth, MARKER)).toHaveLength(1);
  });

  describe.concurrent("every adapter (the shared round-trip run)", () => {
    for (const adapter of probeAdapters()) {
      it(`${adapter.name}: one search on the model's own arguments`, async (ctx) => {
        const run = await setupRun("round-trip", adapter);
        if (!requireBuilt(ctx, run)) return;
        const { unexpected, stale } = judge(
          toolArgumentViolations(run, EXPECTED, roundTripTruth(), MARKER),
          knownFor(KNOWN, adapter.name, "round-trip"),
        );
        expect(unexpected).toEqual([]);
        expect(stale).toEqual([]);
      }, MATRIX_TIMEOUT_MS);
    }
  });

  it("hostile: arg-rewriter (runs search on the Statue of Liberty) fails on the result, though it reports the model's arguments", async () => {
    const run = await wireRun({ adapter: fixtureEntry("arg-rewriter"), arena: ROUND_TRIP_ARENA });
    expect(toolArgumentViolations(run, EXPECTED, roundTripTruth(), MARKER)).toEqual([
      `the tool did not run on the model's arguments: the result on the wire is not dispatch("search", {"query":"Eiffel Tower"})`,
    ]);
  }, FIXTURE_TIMEOUT_MS);
});
