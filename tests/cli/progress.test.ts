/** The progress renderer and reporter, pure: an injected clock and an injected heartbeat timer. */
import { describe, expect, it } from "vitest";
import { createProgress, duration, eta, progressLine, type ProgressMode } from "../../orchestrator/cli/progress.ts";
import type { ItemRecord } from "../../orchestrator/report/record.ts";

function harness(mode: ProgressMode) {
  let clock = 0;
  let out = "";
  let tick: (() => void) | undefined;
  let stopped = 0;
  let interval = 0;
  const progress = createProgress({
    mode,
    write: (t) => void (out += t),
    now: () => clock,
    heartbeatMs: 3000,
    every: (ms, fn) => {
      interval = ms;
      tick = fn;
      return () => void stopped++;
    },
  });
  return {
    progress,
    advance: (ms: number) => void (clock += ms),
    heartbeat: () => tick?.(),
    take: () => {
      const t = out;
      out = "";
      return t;
    },
    stopped: () => stopped,
    interval: () => interval,
    hasTimer: () => tick !== undefined,
  };
}

const record = (item_id: string, error: string | null): ItemRecord =>
  ({ repeat: 0, item_id, passed: false, checks: [], output_text: "", tool_calls: [], prompt_tokens: 0, completion_tokens: 0, latency_s: 0, llm_calls: 0, error }) as ItemRecord;

const event = (itemId: string, passed: boolean, done: number, total = 10) => ({
  arena: "tool_use",
  framework: "vanilla",
  itemId,
  repeat: 0,
  passed,
  done,
  total,
  ...(passed ? {} : { reason: `why ${itemId}` }),
});

describe("progress line", () => {
  it("says done/total, the three counts, elapsed and the ETA at the rate so far", () => {
    expect(progressLine({ done: 4, total: 10, passed: 2, failed: 1, errored: 1, ran: 4 }, 8000)).toBe("[4/10] 2 passed, 1 failed, 1 errored · 8s elapsed · ETA 12s");
    expect(eta({ done: 0, total: 10, passed: 0, failed: 0, errored: 0, ran: 0 }, 5000)).toBe("--");
    expect(eta({ done: 10, total: 10, passed: 10, failed: 0, errored: 0, ran: 10 }, 5000)).toBe("--");
    // Cells a resume kept count as done but not toward the rate.
    expect(eta({ done: 6, total: 10, passed: 6, failed: 0, errored: 0, ran: 1 }, 2000)).toBe("8s");
    expect(duration(65_400)).toBe("1m05s");
  });

  it("on a terminal: one line rewritten in place, a failure or error on its own line, cleared at the end", () => {
    const h = harness("tty");
    expect(h.hasTimer()).toBe(false);
    h.advance(1000);
    h.progress.onProgress(event("tu-01", true, 1));
    expect(h.take()).toBe("\r\x1b[K[1/10] 1 passed, 0 failed, 0 errored · 1s elapsed · ETA 9s");
    h.advance(1000);
    h.progress.onItem("tool_use", "vanilla", record("tu-02", "TimeoutError: leg 1 took too long\nmore"));
    h.progress.onProgress(event("tu-02", false, 2));
    expect(h.take()).toBe(
      "\r\x1b[Kvanilla/tool_use/tu-02: errored — why tu-02\n\r\x1b[K[2/10] 1 passed, 0 failed, 1 errored · 2s elapsed · ETA 8s",
    );
    h.progress.onProgress(event("tu-03", false, 3));
    expect(h.take()).toBe("\r\x1b[Kvanilla/tool_use/tu-03: failed — why tu-03\n\r\x1b[K[3/10] 1 passed, 1 failed, 1 errored · 2s elapsed · ETA 5s");
    h.progress.stop();
    expect(h.take()).toBe("\r\x1b[K");
  });

  it("piped: silent between heartbeats, a heartbeat line per tick, a line per failure, a last line; the timer stops", () => {
    const h = harness("plain");
    expect(h.interval()).toBe(3000);
    h.heartbeat();
    expect(h.take()).toBe(""); // nothing known yet: no empty [0/0] line
    h.advance(2000);
    h.progress.onProgress(event("tu-01", true, 1, 4));
    h.progress.onProgress(event("tu-02", true, 2, 4));
    expect(h.take()).toBe("");
    h.advance(1000);
    h.heartbeat();
    expect(h.take()).toBe("[2/4] 2 passed, 0 failed, 0 errored · 3s elapsed · ETA 3s\n");
    h.progress.onProgress(event("tu-03", false, 3, 4));
    expect(h.take()).toBe("vanilla/tool_use/tu-03: failed — why tu-03\n");
    h.progress.onProgress({ arena: "tool_use", framework: "langgraph", unavailable: "not installed", done: 4, total: 4 });
    expect(h.take()).toBe("langgraph/tool_use: not available — not installed\n");
    h.progress.stop();
    expect(h.take()).toBe("[4/4] 2 passed, 1 failed, 0 errored · 3s elapsed · ETA --\n");
    expect(h.stopped()).toBe(1);
  });

  it("--quiet writes nothing at all", () => {
    const h = harness("quiet");
    h.progress.onItem("tool_use", "vanilla", record("tu-01", "boom"));
    h.progress.onProgress(event("tu-01", false, 1));
    h.heartbeat();
    h.progress.stop();
    expect(h.take()).toBe("");
    expect(h.hasTimer()).toBe(false);
  });
});

describe("cells the provider failed the same way in a row", () => {
  const faulted = (item_id: string, fault: "unreachable" | "rate_limited", status: number | null): ItemRecord =>
    ({ ...record(item_id, "Error: fetch failed"), error_class: "infra", provider_faults: [{ leg: 1, fault, status }] }) as ItemRecord;

  it("are one line and a count, not a line each; another kind of line (or the end) prints the count first", () => {
    const h = harness("plain");
    const cell = (r: ItemRecord, done: number) => {
      h.progress.onItem("tool_use", "vanilla", r);
      h.progress.onProgress(event(r.item_id, false, done));
    };
    cell(faulted("tu-01", "unreachable", null), 1);
    cell(faulted("tu-02", "unreachable", null), 2);
    cell(faulted("tu-03", "unreachable", null), 3);
    expect(h.take()).toBe("vanilla/tool_use/tu-01: errored — why tu-01\n");
    cell(faulted("tu-04", "rate_limited", 429), 4);
    expect(h.take()).toBe(
      "  … and 2 more cell(s) errored the same way (provider unreachable)\nvanilla/tool_use/tu-04: errored — why tu-04\n",
    );
    cell(faulted("tu-05", "rate_limited", 429), 5);
    cell(record("tu-06", "TypeError: x is undefined"), 6);
    expect(h.take()).toBe("  … and 1 more cell(s) errored the same way (provider rate_limited (HTTP 429))\nvanilla/tool_use/tu-06: errored — why tu-06\n");
    cell(faulted("tu-07", "unreachable", null), 7);
    cell(faulted("tu-08", "unreachable", null), 8);
    h.take();
    h.progress.stop();
    expect(h.take()).toBe("  … and 1 more cell(s) errored the same way (provider unreachable)\n[8/10] 0 passed, 0 failed, 8 errored · 0s elapsed · ETA 0s\n");
  });
});
