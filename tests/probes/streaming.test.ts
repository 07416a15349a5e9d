/**
 * §9 Streaming only with usage: on every request of every probe run of §1–§8, `stream: true`
 * implies `stream_options.include_usage: true`. A real provider returns no usage on a stream
 * otherwise, and the adapter would report zero tokens with every correctness check green. The
 * gateway side (a usage chunk only when asked for) is pinned in tests/gateway/render.test.ts;
 * the blind streamer below shows it end to end (it reports zero).
 */
import { describe, expect, it } from "vitest";
import { isBlindStream } from "../../orchestrator/probes/judges/controls.ts";
import { describeProbe } from "./registry-suite.ts";

describe("§9 the judge", () => {
  it("predicate self-test", () => {
    expect(isBlindStream({ stream: true })).toBe(true);
    expect(isBlindStream({ stream: true, stream_options: {} })).toBe(true);
    expect(isBlindStream({ stream: true, stream_options: { include_usage: false } })).toBe(true);
    expect(isBlindStream({ stream: true, stream_options: { include_usage: true } })).toBe(false);
    expect(isBlindStream({ stream: false })).toBe(false);
    expect(isBlindStream({})).toBe(false);
  });

});

describeProbe("streaming", { fixtures: ["blind-streamer", "honest-streamer"] });
