import { afterAll, describe, expect, it } from "vitest";
import { createScorer, type Scorer } from "../../orchestrator/run/scorer.ts";
import { CHECK_TYPES, runsDataRegex } from "../../orchestrator/scoring/catalogue.ts";
import { INLINE_TEXT_LIMIT } from "../../orchestrator/scoring/inline.ts";
import { deadlineDetail } from "../../orchestrator/scoring/regex-threads.ts";
import { WATCHDOG_BUDGET_MS } from "../../orchestrator/scoring/watchdog.ts";
import { scoreItem } from "../../orchestrator/scoring/score.ts";
import { check, input } from "./helpers.ts";
import { watchLoopGaps } from "../support/loop-gaps.ts";

const regexFree = [
  check('{"type": "contains", "value": "42"}'),
  check('{"type": "sentence_count", "min": 1, "max": 3}'),
  check('{"type": "json_path_equals", "path": "big", "value": 123456789012345678901}'),
  check('{"type": "call_counts", "counts": {"search": 2.0}}'),
  check('{"type": "no_such_type"}'),
];
const answer = input({ outputText: 'It is 42. {"big": 123456789012345678901}', toolNames: ["search", "search"] });
const dataRegex = check('{"type": "iregex", "value": "\\\\bcafé\\\\b"}');

describe("scorer: inline when it cannot hang, under a watchdog otherwise, off-loop once that runs out", () => {
  const scorers: Scorer[] = [];
  /**
   * The watchdog measures wall time, so on a loaded machine a quick item can overrun 10 ms and go
   * to the pool (the same result, another route): a test that asserts the route of a quick item
   * gives it a budget no descheduling reaches; one that means the watchdog to fire passes 10 ms.
   */
  const ROOMY_MS = 5_000;
  function scorer(deadlineMs = 5_000, watchdogMs = ROOMY_MS): Scorer {
    const s = createScorer({ deadlineMs, watchdogMs });
    scorers.push(s);
    return s;
  }
  afterAll(async () => {
    await Promise.all(scorers.map((s) => s.close()));
  });
  // ~2^28 backtracking steps: seconds on any machine. A route that ran it to its end would give the
  // pattern's own verdict (no match), not the deadline's, so no test below needs a clock.
  const catastrophic = () => [check('{"type": "iregex", "value": "(a+)+$"}'), check('{"type": "contains", "value": "a"}')];
  const catastrophicText = () => input({ outputText: `${"a".repeat(28)}!` });

  it("the catalogue marks exactly the regex check as running a data-supplied pattern", () => {
    expect(CHECK_TYPES.filter(runsDataRegex)).toEqual(["iregex"]);
    expect(runsDataRegex("no_such_type")).toBe(false);
    expect(runsDataRegex(undefined)).toBe(false);
  });

  it("scores a regex-free item on the main thread, exactly as scoreItem does, without a watchdog or the pool", async () => {
    const s = scorer();
    const score = await s.score(regexFree, answer);
    expect(score).toEqual(scoreItem(regexFree, answer));
    expect(score.checks.map((c) => c.ok)).toEqual([true, true, true, true, false]);
    expect(s.stats()).toEqual({ mainThread: 1, underWatchdog: 0, offLoop: 0, poolStarted: false });
  });

  it("scores an item with a quick data regex under the watchdog, with the same result, and starts no thread", async () => {
    const s = scorer();
    const checks = [...regexFree, dataRegex];
    const text = input({ ...answer, outputText: `${answer.outputText} Un café.` });
    const score = await s.score(checks, text);
    expect(score).toEqual(scoreItem(checks, text));
    expect(score.checks.at(-1)).toMatchObject({ type: "iregex", ok: true });
    expect(s.stats()).toEqual({ mainThread: 0, underWatchdog: 1, offLoop: 0, poolStarted: false });
  });

  it("a catastrophic data regex is stopped by the watchdog, then hits the pool's deadline without blocking the loop", async () => {
    const deadlineMs = 300;
    const s = scorer(deadlineMs, WATCHDOG_BUDGET_MS);
    const gaps = watchLoopGaps();
    try {
      const score = await s.score(catastrophic(), catastrophicText());
      expect(score.checks.map((c) => [c.type, c.ok, c.detail])).toEqual([
        ["iregex", false, deadlineDetail(deadlineMs)],
        ["contains", false, deadlineDetail(deadlineMs)],
      ]);
      // The loop ran while the regex did in the thread: had it run to its end here, no tick could have
      // (and the checks would carry the pattern's own verdict, not the deadline's).
      expect(gaps.ticks()).toBeGreaterThan(0);
      expect(s.stats()).toEqual({ mainThread: 0, underWatchdog: 0, offLoop: 1, poolStarted: true });
    } finally {
      gaps.stop();
    }
  });

  it("with no watchdog budget, an item that may hang goes straight to the pool: the same result as scoreItem's", async () => {
    const s = scorer(5_000, 0);
    const checks = [...regexFree, dataRegex];
    const text = input({ ...answer, outputText: `${answer.outputText} Un café.` });
    expect(await s.score(checks, text)).toEqual(scoreItem(checks, text));
    expect(s.stats()).toMatchObject({ underWatchdog: 0, offLoop: 1, poolStarted: true });
  });

  it("watches a regex-free item whose text is too long for our own patterns to be cheap, and sends a slow one to the pool", async () => {
    const s = scorer();
    const atLimit = input({ ...answer, outputText: answer.outputText.padEnd(INLINE_TEXT_LIMIT, " x") });
    const over = input({ ...answer, outputText: `${atLimit.outputText}.` });
    expect(await s.score(regexFree, atLimit)).toEqual(scoreItem(regexFree, atLimit));
    expect(s.stats()).toEqual({ mainThread: 1, underWatchdog: 0, offLoop: 0, poolStarted: false });
    expect(await s.score(regexFree, over)).toEqual(scoreItem(regexFree, over));
    expect(s.stats()).toEqual({ mainThread: 1, underWatchdog: 1, offLoop: 0, poolStarted: false });
    // The JSON fence pattern is quadratic in "```{" repeats: ~0.2–0.4 s at 64 Ki, far past the default budget.
    const watched = scorer(5_000, WATCHDOG_BUDGET_MS);
    const json = [check('{"type": "json_valid"}')];
    const fences = input({ outputText: "```{".repeat(16 * 1024) });
    const gaps = watchLoopGaps();
    try {
      expect(await watched.score(json, fences)).toEqual(scoreItem(json, fences));
      expect(gaps.ticks()).toBeGreaterThan(0);
    } finally {
      gaps.stop();
    }
    expect(watched.stats()).toEqual({ mainThread: 0, underWatchdog: 0, offLoop: 1, poolStarted: true });
  });

  it("scores an adapter error inline even with a regex check: no check runs", async () => {
    const s = scorer();
    const failed = input({ outputText: "a".repeat(INLINE_TEXT_LIMIT * 2), error: "boom" });
    expect(await s.score([dataRegex], failed)).toEqual(scoreItem([dataRegex], failed));
    expect(s.stats()).toEqual({ mainThread: 1, underWatchdog: 0, offLoop: 0, poolStarted: false });
  });

  it("closes without ever starting the pool when no item needed it, then refuses work", async () => {
    const s = createScorer({ deadlineMs: 1_000, watchdogMs: ROOMY_MS });
    await s.score(regexFree, answer);
    await s.score([dataRegex], input({ outputText: "café" }));
    await expect(s.close()).resolves.toBeUndefined();
    await expect(s.close()).resolves.toBeUndefined();
    expect(s.stats()).toEqual({ mainThread: 1, underWatchdog: 1, offLoop: 0, poolStarted: false });
    await expect(s.score(regexFree, answer)).rejects.toThrow("scoring pool destroyed");
  });

  it("closes a started pool, then refuses work on every path", async () => {
    const s = createScorer({ deadlineMs: 200, watchdogMs: WATCHDOG_BUDGET_MS });
    await s.score(catastrophic(), catastrophicText());
    await expect(s.close()).resolves.toBeUndefined();
    expect(s.stats().poolStarted).toBe(true);
    await expect(s.score([dataRegex], input())).rejects.toThrow("scoring pool destroyed");
    await expect(s.score(regexFree, answer)).rejects.toThrow("scoring pool destroyed");
  });
});
