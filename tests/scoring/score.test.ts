import { describe, expect, it } from "vitest";
import { ADAPTER_ERROR_DETAIL, scoreItem } from "../../orchestrator/scoring/score.ts";
import { check, input } from "./helpers.ts";

describe("scoreItem (§6)", () => {
  const checks = [check('{"type": "contains", "value": "Paris"}'), check('{"type": "tool_used", "name": "search"}')];

  it("passes only when every check passes, keeping dataset order", () => {
    const passing = scoreItem(checks, input({ outputText: "Paris", toolNames: ["search"] }));
    expect(passing.passed).toBe(true);
    expect(passing.checks.map((c) => c.type)).toEqual(["contains", "tool_used"]);
    const failing = scoreItem(checks, input({ outputText: "Paris" }));
    expect(failing.passed).toBe(false);
    expect(failing.checks.map((c) => c.ok)).toEqual([true, false]);
  });

  it("records the check verbatim as plain JSON", () => {
    const [record] = scoreItem([check('{"type": "numeric_equals", "value": 330, "tol": 1.5, "note": ["x"]}')], input()).checks;
    expect(record!.spec).toEqual({ type: "numeric_equals", value: 330, tol: 1.5, note: ["x"] });
  });

  it("an adapter error fails every check as skipped", () => {
    const score = scoreItem(checks, input({ outputText: "Paris", toolNames: ["search"], error: "boom" }));
    expect(score.passed).toBe(false);
    expect(score.checks.map((c) => [c.type, c.ok, c.detail])).toEqual([
      ["contains", false, ADAPTER_ERROR_DETAIL],
      ["tool_used", false, ADAPTER_ERROR_DETAIL],
    ]);
    expect(ADAPTER_ERROR_DETAIL).toBe("skipped: adapter error");
  });

  it("an empty error string is no error (Python truthiness)", () => {
    expect(scoreItem(checks, input({ outputText: "Paris", toolNames: ["search"], error: "" })).passed).toBe(true);
  });

  it("an item with no checks passes", () => {
    expect(scoreItem([], input())).toEqual({ passed: true, checks: [] });
  });

  it("an unknown or missing type fails that check", () => {
    const score = scoreItem([check('{"type": "vibes"}'), check('{"value": 1}'), check('{"type": 7}')], input());
    expect(score.checks.map((c) => [c.type, c.ok, c.detail])).toEqual([
      ["vibes", false, "unknown check type 'vibes'"],
      ["None", false, "unknown check type None"],
      ["7", false, "unknown check type 7"],
    ]);
  });

  it("a missing required field fails that check with the validator's wording", () => {
    const score = scoreItem([check('{"type": "json_path_equals"}'), check('{"type": "tool_used", "value": "x"}')], input());
    expect(score.checks.map((c) => c.detail)).toEqual([
      "'json_path_equals' requires 'path'; 'json_path_equals' requires 'value'",
      "'tool_used' requires 'name'",
    ]);
  });

  it("str() of a null field is 'None', as in the original", () => {
    const [record] = scoreItem([check('{"type": "contains", "value": null}')], input({ outputText: "None" })).checks;
    expect(record).toMatchObject({ ok: true, detail: "expected substring 'None'" });
  });
});
