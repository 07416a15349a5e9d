/**
 * §4 The tool result reaches the model byte for byte: in the last request of the round-trip run,
 * the first message (from the end, skipping system and assistant) whose one-step-decoded text
 * mentions the Eiffel Tower must contain `dispatch("search", {"query": "Eiffel Tower"})` in full.
 * Wrapping is allowed, and so is any carrying role; truncating or re-wrapping the content is not.
 * (Our corpus has the Eiffel Tower entry, so the probe runs as specified on our data.)
 */
import { describe, expect, it } from "vitest";
import { decodeOnce, findToolResult, toolResultViolations } from "./checks/contract.ts";
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
  MATRIX_TIMEOUT_MS,
  FIXTURE_TIMEOUT_MS,
} from "./wire-runs.ts";

/** Real adapters' known §4 findings. Empty: every adapter hands the model the tool's output intact. */
const KNOWN: KnownFindings = {};
const MARKER = "Eiffel Tower";

describe("§4 the tool result reaches the model byte for byte", () => {
  it("the baseline is in the matrix", () => {
    expect(probeAdapters().map((a) => a.name)).toContain("vanilla");
  });

  it("truth is the three tower snippets", () => {
    const truth = roundTripTruth();
    expect(truth.startsWith("[Eiffel Tower] ")).toBe(true);
    expect(truth).toContain("\n\n[Tokyo Tower] ");
    expect(truth).toContain("\n\n[CN Tower] ");
  });

  it("the check: one decoding step, any carrying role, wrapping allowed, system/assistant skipped", () => {
    const truth = roundTripTruth();
    expect(decodeOnce(JSON.stringify({ result: truth, ok: true }))).toBe(`${truth}\ntrue`);
    expect(decodeOnce(JSON.stringify(truth))).toBe(truth);
    expect(decodeOnce(truth)).toBe(truth);
    const run = (last: Record<string, unknown>[]) =>
      syntheticRun([{ messages: [{ role: "system", content: `Eiffel Tower ${truth}` }, { role: "user", content: "How tall is the Eiffel Tower?" }, ...last] }]);
    expect(toolResultViolations(run([{ role: "tool", content: truth }]), truth, MARKER)).toEqual([]);
    expect(toolResultViolations(run([{ role: "user", content: [{ type: "text", text: `Observation: ${truth}` }] }]), truth, MARKER)).toEqual([]);
    expect(toolResultViolations(run([{ role: "tool", content: JSON.stringify({ output: truth }) }]), truth, MARKER)).toEqual([]);
    // Double-encoded content is one step too many; the assistant's own message does not count.
    expect(toolResultViolations(run([{ role: "tool", content: JSON.stringify(JSON.stringify({ output: truth })) }]), truth, MARKER)).not.toEqual([]);
    expect(toolResultViolations(run([{ role: "assistant", content: truth }]), truth, MARKER)).not.toEqual([]);
    expect(findToolResult({ messages: [{ role: "system", content: "Eiffel Tower" }] }, MARKER)).toBeUndefined();
  });

  describe.concurrent("every adapter (the shared round-trip run)", () => {
    for (const adapter of probeAdapters()) {
      it(`${adapter.name}: the last request carries dispatch's output in full`, async (ctx) => {
        const run = await setupRun("round-trip", adapter);
        if (!requireBuilt(ctx, run)) return;
        const { unexpected, stale } = judge(toolResultViolations(run, roundTripTruth(), MARKER), knownFor(KNOWN, adapter.name, "round-trip"));
        expect(unexpected).toEqual([]);
        expect(stale).toEqual([]);
      }, MATRIX_TIMEOUT_MS);
    }
  });

  describe.concurrent("hostile fixtures are caught", () => {
    for (const name of ["truncating", "summarising"] as const) {
      it(`${name} fails`, async () => {
        const run = await wireRun({ adapter: fixtureEntry(name), arena: ROUND_TRIP_ARENA });
        const v = toolResultViolations(run, roundTripTruth(), MARKER);
        expect(v).toHaveLength(1);
        expect(v[0]).toMatch(/does not contain dispatch's output .* in full: it matches for \d+ of \d+ characters/);
      }, FIXTURE_TIMEOUT_MS);
    }
  });
});
