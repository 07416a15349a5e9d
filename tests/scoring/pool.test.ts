import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createScoringPool, deadlineDetail, type ScoringPool } from "../../orchestrator/scoring/regex-threads.ts";
import { check, input } from "./helpers.ts";
import { watchLoopGaps } from "../support/loop-gaps.ts";

describe("scoring off the main loop", () => {
  let pool: ScoringPool;
  beforeAll(async () => {
    pool = createScoringPool({ maxThreads: 1 });
    // Warm the thread so the timing test below measures scoring, not start-up.
    await pool.scoreOffLoop([], input(), { deadlineMs: 10_000 });
  });
  afterAll(async () => {
    await pool.destroy();
  });

  it("scores in the worker: Maps, bigints and int-vs-float survive the thread boundary", async () => {
    const checks = [
      check('{"type": "call_counts", "counts": {"search": 2.0, "calculator": 1}}'),
      check('{"type": "json_path_equals", "path": "big", "value": 123456789012345678901}'),
      check('{"type": "iregex", "value": "\\\\bcafé\\\\b"}'),
    ];
    const score = await pool.scoreOffLoop(
      checks,
      input({ outputText: 'Un café: {"big": 123456789012345678901}', toolNames: ["search", "calculator", "search"] }),
      { deadlineMs: 5_000 },
    );
    expect(score.checks.map((c) => [c.ok, c.detail])).toEqual([
      [true, "expected tool call counts {'search': 2.0, 'calculator': 1}, got {'search': 2, 'calculator': 1}"],
      [true, "expected big == 123456789012345678901, got 123456789012345678901"],
      [true, "expected regex /\\bcafé\\b/i"],
    ]);
    expect(score.passed).toBe(true);
  });

  it("a catastrophic regex fails within the deadline while the main loop keeps running", async () => {
    const deadlineMs = 300;
    const checks = [check('{"type": "iregex", "value": "(a+)+$"}'), check('{"type": "contains", "value": "a"}')];
    const gaps = watchLoopGaps();
    const started = performance.now();
    try {
      const score = await pool.scoreOffLoop(checks, input({ outputText: `${"a".repeat(40)}!` }), { deadlineMs });
      const elapsed = performance.now() - started;
      expect(score.passed).toBe(false);
      expect(score.checks.map((c) => [c.type, c.ok, c.detail])).toEqual([
        ["iregex", false, deadlineDetail(deadlineMs)],
        ["contains", false, deadlineDetail(deadlineMs)],
      ]);
      expect(deadlineDetail(deadlineMs)).toBe("skipped: scoring exceeded its deadline of 300 ms");
      // Never before the deadline; how long after it depends on the machine's load, not on the
      // pool (2^40 backtracking steps never finish: returning at all is the deadline's doing).
      expect(elapsed).toBeGreaterThanOrEqual(deadlineMs - 5);
      // The loop ran while the regex did: inline, no tick could have run before this line.
      expect(gaps.ticks()).toBeGreaterThan(0);
    } finally {
      gaps.stop();
    }
  });

  it("keeps working after a thread was terminated", async () => {
    const score = await pool.scoreOffLoop([check('{"type": "contains", "value": "ok"}')], input({ outputText: "ok" }), {
      deadlineMs: 5_000,
    });
    expect(score.passed).toBe(true);
  });

  it("the deadline counts from the start of scoring, not from queueing", async () => {
    const slow = pool.scoreOffLoop([check('{"type": "iregex", "value": "(a+)+$"}')], input({ outputText: `${"a".repeat(40)}!` }), {
      deadlineMs: 200,
    });
    // Queued behind the slow item on the single thread for longer than its own deadline.
    const quick = pool.scoreOffLoop([check('{"type": "contains", "value": "ok"}')], input({ outputText: "ok" }), { deadlineMs: 150 });
    expect((await slow).passed).toBe(false);
    expect((await quick).passed).toBe(true);
  });

  it("an adapter error crosses the boundary like any other input", async () => {
    const score = await pool.scoreOffLoop([check('{"type": "no_tool"}')], input({ error: "boom" }), { deadlineMs: 5_000 });
    expect(score.checks[0]).toMatchObject({ ok: false, detail: "skipped: adapter error" });
  });

  it("rejects once destroyed", async () => {
    const other = createScoringPool({ maxThreads: 1 });
    await other.destroy();
    await expect(other.scoreOffLoop([], input(), { deadlineMs: 100 })).rejects.toThrow("scoring pool destroyed");
  });
});
