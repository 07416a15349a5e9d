import { describe, expect, it } from "vitest";
import { extractJson, balancedSpan, NO_JSON } from "../../orchestrator/scoring/extract-json.ts";
import { extractNumbers } from "../../orchestrator/scoring/numbers.ts";
import { countSentences } from "../../orchestrator/scoring/sentences.ts";
import { dumpsPy } from "@agentic-arena/py-semantics";

describe("number extraction (§5.1)", () => {
  it.each([
    ["1,082.7 metres", [1082.7]],
    ["about 395.", [395]],
    ["2,3", [23]],
    ["v3.0.1", [3, 1]],
    ["2008-1991", [2008, -1991]],
    ["tu-01", [-1]],
    ["\u0661\u0662\u0663", [123]],
    ["3.0 or 3", [3, 3]],
    ["no digits here", []],
    ["-.5", [5]],
  ])("%j → %j", (text, numbers) => {
    expect(extractNumbers(text)).toEqual(numbers);
  });
  it("overflows to Infinity", () => {
    expect(extractNumbers("9".repeat(400))).toEqual([Number.POSITIVE_INFINITY]);
  });
});

describe("sentence count (§5.2)", () => {
  it.each([
    ["It was built in 1889. It is 330.5 m tall! Really?? e.g. this", 6],
    ["", 0],
    ["...!!!", 0],
    ["One. 2. Three", 2],
    ["One sentence without a terminator", 1],
    ["Version 1.2.3 shipped.", 1],
  ])("%j → %d", (text, n) => {
    expect(countSentences(text)).toBe(n);
  });
});

describe("extract_json (§5.3)", () => {
  const extracted = (text: string): string => {
    const r = extractJson(text);
    return r.ok ? dumpsPy(r.value) : `error: ${r.reason}`;
  };
  it("takes the whole (stripped) text first, any JSON value", () => {
    expect(extracted('  {"a": "}"}\n')).toBe('{"a": "}"}');
    expect(extracted("42")).toBe("42");
    expect(extracted("\u3000[1, 2.0]\u0085")).toBe("[1, 2.0]");
  });
  it("then a fenced block (case-insensitive `json` tag) in prose", () => {
    expect(extracted('Here you go:\n```JSON\n{"a":1}\n```\nAnything else?')).toBe('{"a": 1}');
    expect(extracted('Two:\n```\n[1]\n```\n```json\n{"b":2}\n```')).toBe("[1]");
  });
  it("then the first balanced span of the first bracket kind", () => {
    expect(extracted('x [1,2] {"a":1}')).toBe("[1, 2]");
    expect(extracted('Result: {"a": {"b": [1, {"c": 2}]}} done')).toBe('{"a": {"b": [1, {"c": 2}]}}');
    expect(balancedSpan('x {"a": [1, 2] y')).toBeUndefined();
  });
  it("does not treat braces in strings specially in the balanced span", () => {
    expect(balancedSpan('Answer: {"a": "}"} ok')).toBe('{"a": "}');
    expect(extracted('Answer: {"a": "}"} ok')).toBe(`error: ${NO_JSON}`);
  });
  it("keeps int vs float and accepts NaN", () => {
    expect(extracted('{"year": 1889.0, "n": NaN, "big": 123456789012345678901}')).toBe(
      '{"year": 1889.0, "n": NaN, "big": 123456789012345678901}',
    );
  });
  it("fails without a JSON value", () => {
    expect(extracted("The answer is 42")).toBe(`error: ${NO_JSON}`);
    expect(extracted("")).toBe(`error: ${NO_JSON}`);
    expect(extracted("[".repeat(100_000) + "]".repeat(100_000))).toBe(`error: ${NO_JSON}`);
  });
});
