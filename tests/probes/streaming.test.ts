/**
 * §9 Streaming only with usage: on every request of every probe run of §1–§8, `stream: true`
 * implies `stream_options.include_usage: true`. A real provider returns no usage on a stream
 * otherwise, and the adapter would report zero tokens with every correctness check green. The
 * gateway side (a usage chunk only when asked for) is pinned in tests/gateway/render.test.ts;
 * the blind streamer below shows it end to end (it reports zero).
 */
import { describe, expect, it } from "vitest";
import { toolResultViolations } from "./checks/contract.ts";
import { isBlindStream, streamingViolations } from "./checks/controls.ts";
import { judge, knownFor, type KnownFindings } from "./checks/known.ts";
import { probeAdapters } from "./support.ts";
import {
  fixtureEntry,
  requireBuilt,
  roundTripTruth,
  setupRun,
  setupsFor,
  wireRun,
  ROUND_TRIP_ARENA,
  type WireRun,
  MATRIX_TIMEOUT_MS,
  FIXTURE_TIMEOUT_MS,
} from "./wire-runs.ts";

/** Real adapters' known §9 findings. Empty: no adapter streams blind. */
const KNOWN: KnownFindings = {};

const usageOf = (run: WireRun) => {
  const item = run.framework.items[0]!;
  return { prompt_tokens: item.prompt_tokens, completion_tokens: item.completion_tokens, llm_calls: item.llm_calls };
};

describe("§9 streaming only with include_usage", () => {
  it("the baseline is in the matrix", () => {
    expect(probeAdapters().map((a) => a.name)).toContain("vanilla");
  });

  it("predicate self-test", () => {
    expect(isBlindStream({ stream: true })).toBe(true);
    expect(isBlindStream({ stream: true, stream_options: {} })).toBe(true);
    expect(isBlindStream({ stream: true, stream_options: { include_usage: false } })).toBe(true);
    expect(isBlindStream({ stream: true, stream_options: { include_usage: true } })).toBe(false);
    expect(isBlindStream({ stream: false })).toBe(false);
    expect(isBlindStream({})).toBe(false);
  });

  describe.concurrent("every adapter, every request of every §1–§8 probe run", () => {
    for (const adapter of probeAdapters()) {
      it(`${adapter.name}: never streams blind`, async (ctx) => {
        const setups = setupsFor(adapter);
        const runs = await Promise.all(setups.map((s) => setupRun(s, adapter)));
        if (!requireBuilt(ctx, runs[0]!)) return;
        const violations = runs.flatMap((run, i) => streamingViolations(run).map((v) => `${setups[i]}: ${v}`));
        expect(runs.reduce((n, r) => n + r.bodies.length, 0)).toBeGreaterThan(0);
        const { unexpected, stale } = judge(violations, knownFor(KNOWN, adapter.name, "all-runs"));
        expect(unexpected).toEqual([]);
        expect(stale).toEqual([]);
      }, MATRIX_TIMEOUT_MS);
    }
  });

  describe.concurrent("hostile fixture and control", () => {
    it("blind-streamer fails on every request (and, with no usage chunk, reports zero tokens)", async () => {
      const run = await wireRun({ adapter: fixtureEntry("blind-streamer"), arena: ROUND_TRIP_ARENA });
      expect(run.bodies.length).toBe(2);
      const v = streamingViolations(run);
      expect(v).toHaveLength(2);
      expect(v.every((x) => x.includes("streams without stream_options.include_usage")), v.join("\n")).toBe(true);
      expect(usageOf(run)).toEqual({ prompt_tokens: 0, completion_tokens: 0, llm_calls: 2 });
      expect(run.servedUsage.prompt_tokens).toBeGreaterThan(0);
    }, FIXTURE_TIMEOUT_MS);

    it("honest-streamer passes, and its reported usage equals what the gateway served", async () => {
      const run = await wireRun({ adapter: fixtureEntry("honest-streamer"), arena: ROUND_TRIP_ARENA });
      expect(run.bodies.length).toBe(2);
      expect(run.bodies.every((b) => b.stream === true && b.stream_options?.include_usage === true)).toBe(true);
      expect(streamingViolations(run)).toEqual([]);
      expect(usageOf(run)).toEqual(run.servedUsage);
      expect(run.framework.items[0]!.served).toEqual(run.servedUsage);
      // The reassembled stream is the same conversation: the round trip still carries the tool result.
      expect(toolResultViolations(run, roundTripTruth(), "Eiffel Tower")).toEqual([]);
    }, FIXTURE_TIMEOUT_MS);
  });
});
