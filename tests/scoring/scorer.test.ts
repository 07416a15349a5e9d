import { afterAll, describe, expect, it } from "vitest";
import { createScorer, type Scorer } from "../../orchestrator/run/scorer.ts";
import { CHECK_TYPES, runsDataRegex } from "../../orchestrator/scoring/catalogue.ts";
import { INLINE_TEXT_LIMIT } from "../../orchestrator/scoring/inline.ts";
import { deadlineDetail } from "../../orchestrator/scoring/regex-threads.ts";
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

describe("scorer: inline when it cannot hang, off-loop otherwise", () => {
  const scorers: Scorer[] = [];
  function scorer(deadlineMs = 5_000): Scorer {
    const s = createScorer({ deadlineMs });
    scorers.push(s);
    return s;
  }
  afterAll(async () => {
    await Promise.all(scorers.map((s) => s.close()));
  });

  it("the catalogue marks exactly the regex check as running a data-supplied pattern", () => {
    expect(CHECK_TYPES.filter(runsDataRegex)).toEqual(["iregex"]);
    expect(runsDataRegex("no_such_type")).toBe(false);
    expect(runsDataRegex(undefined)).toBe(false);
  });

  it("scores a regex-free item on the main thread, exactly as scoreItem does, without starting the pool", async () => {
    const s = scorer();
    const score = await s.score(regexFree, answer);
    expect(score).toEqual(scoreItem(regexFree, answer));
    expect(score.checks.map((c) => c.ok)).toEqual([true, true, true, true, false]);
    expect(s.stats()).toEqual({ mainThread: 1, offLoop: 0, poolStarted: false });
  });

  it("sends an item with a data regex off-loop, with the same result", async () => {
    const s = scorer();
    const checks = [...regexFree, dataRegex];
    const text = input({ ...answer, outputText: `${answer.outputText} Un café.` });
    expect(await s.score(checks, text)).toEqual(scoreItem(checks, text));
    expect(s.stats()).toEqual({ mainThread: 0, offLoop: 1, poolStarted: true });
  });

  it("a catastrophic data regex hits the deadline instead of blocking the main loop", async () => {
    const deadlineMs = 300;
    const s = scorer(deadlineMs);
    await s.score([dataRegex], input()); // start the pool outside the measured span
    // ~2^28 backtracking steps: seconds if it ran inline, so a wrong route fails rather than hangs.
    const checks = [check('{"type": "iregex", "value": "(a+)+$"}'), check('{"type": "contains", "value": "a"}')];
    const gaps = watchLoopGaps();
    try {
      const score = await s.score(checks, input({ outputText: `${"a".repeat(28)}!` }));
      expect(score.checks.map((c) => [c.type, c.ok, c.detail])).toEqual([
        ["iregex", false, deadlineDetail(deadlineMs)],
        ["contains", false, deadlineDetail(deadlineMs)],
      ]);
      // The loop ran while the regex did: inline, no tick could have run before this line.
      expect(gaps.ticks()).toBeGreaterThan(0);
      expect(s.stats()).toMatchObject({ mainThread: 0, offLoop: 2 });
    } finally {
      gaps.stop();
    }
  });

  it("sends a regex-free item off-loop when its text is too long for our own patterns to be cheap", async () => {
    const s = scorer();
    const atLimit = input({ ...answer, outputText: answer.outputText.padEnd(INLINE_TEXT_LIMIT, " x") });
    const over = input({ ...answer, outputText: `${atLimit.outputText}.` });
    expect(await s.score(regexFree, atLimit)).toEqual(scoreItem(regexFree, atLimit));
    expect(s.stats()).toEqual({ mainThread: 1, offLoop: 0, poolStarted: false });
    expect(await s.score(regexFree, over)).toEqual(scoreItem(regexFree, over));
    expect(s.stats()).toEqual({ mainThread: 1, offLoop: 1, poolStarted: true });
  });

  it("scores an adapter error inline even with a regex check: no check runs", async () => {
    const s = scorer();
    const failed = input({ outputText: "a".repeat(INLINE_TEXT_LIMIT * 2), error: "boom" });
    expect(await s.score([dataRegex], failed)).toEqual(scoreItem([dataRegex], failed));
    expect(s.stats()).toEqual({ mainThread: 1, offLoop: 0, poolStarted: false });
  });

  it("starts the pool up front only when the run's items include a data regex", async () => {
    const plain = createScorer({ deadlineMs: 1_000, expectedChecks: [regexFree, []] });
    scorers.push(plain);
    expect(plain.stats().poolStarted).toBe(false);
    const withRegex = createScorer({ deadlineMs: 1_000, expectedChecks: [regexFree, [dataRegex]] });
    scorers.push(withRegex);
    expect(withRegex.stats()).toEqual({ mainThread: 0, offLoop: 0, poolStarted: true });
    expect(await withRegex.score([dataRegex], input({ outputText: "café" }))).toMatchObject({ passed: true });
  });

  it("closes without ever starting the pool when no item needed it, then refuses work", async () => {
    const s = createScorer({ deadlineMs: 1_000 });
    await s.score(regexFree, answer);
    await expect(s.close()).resolves.toBeUndefined();
    await expect(s.close()).resolves.toBeUndefined();
    expect(s.stats()).toEqual({ mainThread: 1, offLoop: 0, poolStarted: false });
    await expect(s.score(regexFree, answer)).rejects.toThrow("scoring pool destroyed");
  });

  it("closes a started pool, then refuses work on either path", async () => {
    const s = createScorer({ deadlineMs: 1_000 });
    await s.score([dataRegex], input());
    await expect(s.close()).resolves.toBeUndefined();
    expect(s.stats().poolStarted).toBe(true);
    await expect(s.score([dataRegex], input())).rejects.toThrow("scoring pool destroyed");
    await expect(s.score(regexFree, answer)).rejects.toThrow("scoring pool destroyed");
  });
});
