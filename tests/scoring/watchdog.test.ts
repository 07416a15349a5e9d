import { describe, expect, it } from "vitest";
import { pySearch } from "@agentic-arena/py-semantics/regex";
import { scoreItem } from "../../orchestrator/scoring/score.ts";
import { runUnderWatchdog } from "../../orchestrator/scoring/watchdog.ts";
import { check, input } from "./helpers.ts";

describe("scoring under a watchdog on the calling thread", () => {
  it("gives the job's value when it finishes within the budget", () => {
    expect(runUnderWatchdog(() => 6 * 7, 5_000)).toEqual({ finished: true, value: 42 });
  });

  it("stops a catastrophically backtracking regex instead of letting it run to its end", () => {
    // ~2^30 steps: many seconds, and a run to the end would give `finished: true` with no match.
    expect(runUnderWatchdog(() => pySearch("(a+)+$", `${"a".repeat(30)}!`), 20)).toEqual({ finished: false });
  });

  it("throws on what the job throws, other than being stopped", () => {
    expect(() => runUnderWatchdog(() => { throw new TypeError("bad job"); }, 5_000)).toThrow(TypeError);
  });

  it("is not re-entrant: a watched job cannot start another", () => {
    const inner = runUnderWatchdog(() => {
      try {
        runUnderWatchdog(() => 1, 5_000);
        return "nested ran";
      } catch (e) {
        return (e as Error).message;
      }
    }, 5_000);
    expect(inner).toEqual({ finished: true, value: "runUnderWatchdog is not re-entrant" });
    // The slot is free again afterwards.
    expect(runUnderWatchdog(() => 2, 5_000)).toEqual({ finished: true, value: 2 });
  });

  it("leaves scoring as it found it: items scored after stops give the results of a fresh process", () => {
    const checks = [check('{"type": "iregex", "value": "(a+)+$"}'), check('{"type": "iregex", "value": "\\\\bcafé\\\\b"}'), check('{"type": "numeric_equals", "value": 3.5, "tol": 0}')];
    const quick = input({ outputText: "Un café à 3.5 euros, aaa" });
    const expected = scoreItem(checks, quick);
    expect(expected.checks.map((c) => c.ok)).toEqual([true, true, true]);
    // Stopped at whatever point the clock fell, several times over (the pattern cache included).
    for (let i = 0; i < 5; i++) expect(runUnderWatchdog(() => scoreItem(checks, input({ outputText: `${"a".repeat(30)}!` })), 5 + i)).toEqual({ finished: false });
    expect(runUnderWatchdog(() => scoreItem(checks, quick), 5_000)).toEqual({ finished: true, value: expected });
  });
});
