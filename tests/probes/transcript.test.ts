/**
 * §6 The whole transcript is replayed: the last request of the round-trip run holds the item
 * input as a user message, the assistant turn carrying the tool call, and the tool result; and
 * every request's first user message is the item input (the gateway matches scenarios on it).
 */
import { describe, expect, it } from "vitest";
import { transcriptViolations } from "./checks/contract.ts";
import { judge, knownFor, type KnownFindings } from "./checks/known.ts";
import { probeAdapters } from "./support.ts";
import {
  fixtureEntry,
  requireBuilt,
  roundTripTruth,
  setupRun,
  wireRun,
  ROUND_TRIP_ARENA,
  ROUND_TRIP_INPUT,
  MATRIX_TIMEOUT_MS,
  FIXTURE_TIMEOUT_MS,
} from "./wire-runs.ts";

/** Real adapters' known §6 findings. Empty: every adapter replays the whole transcript. */
const KNOWN: KnownFindings = {};
const MARKER = "Eiffel Tower";
const CALL = { tool: "search", argText: "Eiffel Tower" } as const;

const check = (run: Parameters<typeof transcriptViolations>[0]) =>
  transcriptViolations(run, ROUND_TRIP_INPUT, CALL, roundTripTruth(), MARKER);

describe("§6 the whole transcript is replayed", () => {
  it("the baseline is in the matrix", () => {
    expect(probeAdapters().map((a) => a.name)).toContain("vanilla");
  });

  describe.concurrent("every adapter (the shared round-trip run)", () => {
    for (const adapter of probeAdapters()) {
      it(`${adapter.name}: question, tool call and tool result in the last request`, async (ctx) => {
        const run = await setupRun("round-trip", adapter);
        if (!requireBuilt(ctx, run)) return;
        const { unexpected, stale } = judge(check(run), knownFor(KNOWN, adapter.name, "round-trip"));
        expect(unexpected).toEqual([]);
        expect(stale).toEqual([]);
      }, MATRIX_TIMEOUT_MS);
    }
  });

  describe.concurrent("hostile fixtures are caught", () => {
    it("delta-only (system + newest tool message) fails", async () => {
      const run = await wireRun({ adapter: fixtureEntry("delta-only"), arena: ROUND_TRIP_ARENA });
      const v = check(run);
      expect(v).toContain(`the last request has no user message equal to the item input ${JSON.stringify(ROUND_TRIP_INPUT)}`);
      expect(v).toContain("the last request has no assistant message carrying the search call");
      expect(v.some((x) => /^request 2\/\d+: the first user message is absent/.test(x)), v.join("\n")).toBe(true);
    }, FIXTURE_TIMEOUT_MS);

    it("no-assistant (drops its own tool-call turn) fails", async () => {
      const run = await wireRun({ adapter: fixtureEntry("no-assistant"), arena: ROUND_TRIP_ARENA });
      const v = check(run);
      expect(v).toEqual(["the last request has no assistant message carrying the search call"]);
    }, FIXTURE_TIMEOUT_MS);
  });
});
