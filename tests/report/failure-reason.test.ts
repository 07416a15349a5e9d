import { describe, expect, it } from "vitest";
import { answerExcerpt, failureCause, failureReason } from "../../orchestrator/report/failure-reason.ts";

const check = (type: string, ok: boolean, detail: string) => ({ type, ok, detail, spec: {} });

describe("failure reasons", () => {
  it("a failed check gives its type and detail, with what the model said", () => {
    const item = { passed: false, error: null, checks: [check("contains", true, "ok"), check("numeric_equals", false, "expected a number within 0.0 of 405.0")], output_text: "The total is\n 404." };
    expect(failureReason(item)).toBe('numeric_equals: expected a number within 0.0 of 405.0; answer: "The total is 404."');
  });

  it("an error gives its class and first line, before any check", () => {
    const item = { passed: false, error: "TimeoutError: no answer in 30 s", error_class: "timeout" as const, checks: [check("contains", false, "skipped")], output_text: "" };
    expect(failureReason(item)).toBe("timeout error: TimeoutError: no answer in 30 s; answer: (no answer)");
  });

  it("a passed item has no cause; long answers are cut to one line", () => {
    expect(failureCause({ passed: true, error: null, checks: [] })).toBe("");
    const long = answerExcerpt("x".repeat(200));
    expect(long).toHaveLength(82);
    expect(long.endsWith('…"')).toBe(true);
  });
});
