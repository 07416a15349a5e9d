/**
 * §4 The tool result reaches the model byte for byte: in the last request of the round-trip run,
 * the first message (from the end, skipping system and assistant) whose one-step-decoded text
 * mentions the run's search topic (a corpus title drawn per run: draws.ts) must contain
 * `dispatch("search", {"query": <topic>})` in full. Wrapping is allowed, and so is any carrying
 * role; truncating or re-wrapping the content is not. The judge's own checks below use the
 * Eiffel Tower entry, whose result has three snippets.
 */
import { describe, expect, it } from "vitest";
import { decodeOnce, findToolResult, toolResultViolations } from "../../orchestrator/probes/judges/contract.ts";
import { PROBE_SEED } from "../../orchestrator/probes/canary.ts";
import { drawRoundTrip, searchTruth } from "../../orchestrator/probes/draws.ts";
import { describeProbe } from "./registry-suite.ts";
import { syntheticRun } from "./wire-runs.ts";

const MARKER = "Eiffel Tower";

describe("§4 the judge", () => {
  it("every topic a run can draw has a result that each round-trip fixture changes (several snippets, over 200 characters)", () => {
    const seeds = Array.from({ length: 24 }, (_, i) => `topic-${i}`);
    const drawn = seeds.map((s) => drawRoundTrip(s, "round-trip"));
    expect(new Set(drawn.map((d) => d.marker)).size).toBeGreaterThan(3);
    for (const d of [...drawn, drawRoundTrip(PROBE_SEED, "round-trip")]) {
      const truth = searchTruth(d.args);
      expect(truth).toContain(d.marker);
      expect(truth.split("\n\n").length).toBeGreaterThan(1);
      expect(truth.length).toBeGreaterThan(200);
    }
  });

  it("truth is the three tower snippets", () => {
    const truth = searchTruth({ query: MARKER });
    expect(truth.startsWith("[Eiffel Tower] ")).toBe(true);
    expect(truth).toContain("\n\n[Tokyo Tower] ");
    expect(truth).toContain("\n\n[CN Tower] ");
  });

  it("the check: one decoding step, any carrying role, wrapping allowed, system/assistant skipped", () => {
    const truth = searchTruth({ query: MARKER });
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
