/** The progress renderer and reporter, pure: an injected clock and an injected heartbeat timer. */
import { describe, expect, it } from "vitest";
import { EtaEstimator } from "../../orchestrator/cli/eta.ts";
import { createProgress, duration, planLine, progressLine, type ProgressMode } from "../../orchestrator/cli/progress.ts";
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
  it("says done/total, the three counts, elapsed, and the ETA only when one is given and cells are left", () => {
    expect(progressLine({ done: 4, total: 10, passed: 2, failed: 1, errored: 1, ran: 4 }, 8000, 12_000)).toBe("[4/10] 2 passed, 1 failed, 1 errored · 8s elapsed · ETA 12s");
    expect(progressLine({ done: 4, total: 10, passed: 2, failed: 1, errored: 1, ran: 4 }, 8000)).toBe("[4/10] 2 passed, 1 failed, 1 errored · 8s elapsed");
    expect(progressLine({ done: 10, total: 10, passed: 10, failed: 0, errored: 0, ran: 10 }, 5000, 0)).toBe("[10/10] 10 passed, 0 failed, 0 errored · 5s elapsed");
    expect(duration(65_400)).toBe("1m05s");
  });

  it("on a terminal: one line rewritten in place, a failure or error on its own line, cleared at the end", () => {
    const h = harness("tty");
    h.advance(1000);
    h.progress.onProgress(event("tu-01", true, 1));
    expect(h.take()).toBe("\r\x1b[K[1/10] 1 passed, 0 failed, 0 errored · 1s elapsed");
    h.advance(1000);
    h.progress.onItem("tool_use", "vanilla", record("tu-02", "TimeoutError: leg 1 took too long\nmore"));
    h.progress.onProgress(event("tu-02", false, 2));
    expect(h.take()).toBe(
      "\r\x1b[Kvanilla/tool_use/tu-02: errored — why tu-02\n\r\x1b[K[2/10] 1 passed, 0 failed, 1 errored · 2s elapsed",
    );
    h.progress.onProgress(event("tu-03", false, 3));
    expect(h.take()).toBe("\r\x1b[Kvanilla/tool_use/tu-03: failed — why tu-03\n\r\x1b[K[3/10] 1 passed, 1 failed, 1 errored · 2s elapsed");
    // Between cells (workers starting, a slow leg) the line is redrawn, so the elapsed time moves.
    h.advance(3000);
    h.heartbeat();
    expect(h.take()).toBe("\r\x1b[K[3/10] 1 passed, 1 failed, 1 errored · 5s elapsed");
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
    expect(h.take()).toBe("[2/4] 2 passed, 0 failed, 0 errored · 3s elapsed\n");
    h.progress.onProgress(event("tu-03", false, 3, 4));
    expect(h.take()).toBe("vanilla/tool_use/tu-03: failed — why tu-03\n");
    h.progress.onProgress({ arena: "tool_use", framework: "langgraph", unavailable: "not installed", done: 4, total: 4 });
    expect(h.take()).toBe("langgraph/tool_use: not available — not installed\n");
    h.progress.stop();
    expect(h.take()).toBe("[4/4] 2 passed, 1 failed, 0 errored · 3s elapsed\n");
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
    expect(h.take()).toBe("  … and 1 more cell(s) errored the same way (provider unreachable)\n[8/10] 0 passed, 0 failed, 8 errored · 0s elapsed\n");
  });
});

describe("from the first second", () => {
  const plan = (cells: Record<string, number>, concurrency = 2, total?: number) => {
    const lanes = Object.entries(cells).map(([adapter, n]) => ({ arena: "tool_use", adapter, cells: n }));
    return { total: total ?? lanes.reduce((a, l) => a + l.cells, 0), lanes, concurrency };
  };
  const timed = (framework: string, itemId: string, done: number, seconds: number, total: number) => ({ ...event(itemId, true, done, total), framework, seconds });

  it("the plan is said at once, and the heartbeat runs before any cell has finished", () => {
    const h = harness("plain");
    h.progress.onPlan(plan({ vanilla: 6, langgraph: 6 }, 2, 14));
    expect(h.take()).toBe("plan: 12 cell(s) to run over 2 lane(s) of 2 adapter(s) (2 kept from an earlier session), 2 in flight; starting workers\n");
    h.advance(5000);
    h.heartbeat();
    expect(h.take()).toBe("[0/14] 0 passed, 0 failed, 0 errored · 5s elapsed\n");
  });

  it("no ETA until every adapter with cells left has shown three and the projection has settled; a slow first cell (the build) does not inflate it", () => {
    const h = harness("tty");
    h.progress.onPlan(plan({ vanilla: 10, slowpy: 10 }));
    h.take();
    // The first cell of each adapter pays a worker start and a build: 30 s, against 1 s and 4 s after.
    h.progress.onProgress(timed("vanilla", "a", 1, 30, 20));
    for (const [i, id] of ["b", "c"].entries()) h.progress.onProgress(timed("vanilla", id, 2 + i, 1, 20));
    expect(h.take()).not.toContain("ETA"); // slowpy has shown none yet
    h.progress.onProgress(timed("slowpy", "a", 4, 30, 20));
    h.progress.onProgress(timed("slowpy", "b", 5, 4, 20));
    h.progress.onProgress(timed("slowpy", "c", 6, 4, 20));
    expect(h.take()).not.toContain("ETA"); // one projection so far: not yet settled
    h.progress.onProgress(timed("vanilla", "d", 7, 1, 20));
    h.progress.onProgress(timed("vanilla", "e", 8, 1, 20));
    // Left: vanilla 5 × 1 s + slowpy 7 × 4 s = 33 s of slot time over 2 slots = 16.5 s → 17s.
    expect(h.take()).toMatch(/· ETA 17s$/);
  });
});

describe("the estimator", () => {
  const lanes = (...xs: [string, string, number][]) => xs.map(([adapter, arena, cells]) => ({ adapter, arena, cells }));

  it("prices a lane at its own median, and shows nothing while most of what is left is priced at other arenas' times", () => {
    const eta = new EtaEstimator({ lanes: lanes(["a", "durable", 9], ["a", "fast", 13], ["a", "slow", 3]), concurrency: 1 });
    for (const s of [10, 10, 10]) eta.finished("a", "durable", s, 0);
    for (const s of [20, 20, 20]) eta.finished("a", "slow", s, 0);
    for (const s of [10, 10, 10]) eta.finished("a", "durable", s, 0);
    // Left: 3 durable cells at their own 10 s, and 13 fast ones priced at the adapter's median
    // (10 s): most of what is left is a guess from other arenas, so nothing is shown.
    expect(eta.estimateMs(0)).toBeUndefined();
    for (const s of [1, 1, 1, 1, 1]) eta.finished("a", "fast", s, 0);
    // Own medians everywhere now: 3 × 10 s + 8 × 1 s = 38 s, settled over the last three cells (40, 39, 38 s).
    expect(eta.estimateMs(0)).toBe(38_000);
  });

  it("dropped lanes leave the work; never more slots than cells left; done is 0", () => {
    const eta = new EtaEstimator({ lanes: lanes(["a", "x", 6], ["b", "x", 3]), concurrency: 8 });
    eta.dropped("b", "x", 0);
    for (const s of [10, 2, 2, 2, 2]) eta.finished("a", "x", s, 0);
    // One cell left at the median (2 s), on one slot: eight slots cannot share one cell.
    expect(eta.estimateMs(0)).toBe(2000);
    eta.finished("a", "x", 2, 0);
    expect(eta.estimateMs(0)).toBe(0);
  });

  it("an adapter that will show fewer than three cells holds the estimate back until it is done", () => {
    const eta = new EtaEstimator({ lanes: lanes(["a", "x", 2]), concurrency: 1 });
    eta.finished("a", "x", 1, 0);
    expect(eta.estimateMs(0)).toBeUndefined();
    eta.finished("a", "x", 1, 0);
    expect(eta.estimateMs(0)).toBe(0);
  });

  it("the time left counts down from the projected end on the caller's clock", () => {
    const eta = new EtaEstimator({ lanes: lanes(["a", "x", 23]), concurrency: 1 });
    for (let i = 0; i < 5; i += 1) eta.finished("a", "x", 1, 1000 * i);
    // At t = 4 s: 18 cells × 1 s left → projected end 22 s; at t = 10 s, 12 s are left.
    expect(eta.estimateMs(10_000)).toBe(12_000);
  });

  it("says what a resume keeps", () => {
    expect(planLine({ total: 3, lanes: lanes(["vanilla", "x", 3]), concurrency: 1 })).toBe("plan: 3 cell(s) to run over 1 lane(s) of 1 adapter(s), 1 in flight; starting workers\n");
  });
});
