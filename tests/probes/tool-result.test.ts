/**
 * §4 The tool result reaches the model byte for byte: in the last request of the round-trip run,
 * the first message (from the end, skipping system and assistant) whose one-step-decoded text
 * mentions the Eiffel Tower must contain `dispatch("search", {"query": "Eiffel Tower"})` in full.
 * Wrapping is allowed, and so is any carrying role; truncating or re-wrapping the content is not.
 * (Our corpus has the Eiffel Tower entry, so the probe runs as specified on our data.)
 */
import { describe, expect, it } from "vitest";
import { MARKER } from "../../orchestrator/probes/contract-probes.ts";
import { decodeOnce, findToolResult, toolResultViolations } from "../../orchestrator/probes/judges/contract.ts";
import { roundTripTruth } from "../../orchestrator/probes/setups.ts";
import { describeProbe } from "./registry-suite.ts";
import { syntheticRun } from "./wire-runs.ts";

describe("§4 the judge", () => {
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

});

describeProbe("tool-result", { fixtures: ["truncating", "summarising"] });
