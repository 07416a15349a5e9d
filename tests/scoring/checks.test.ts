import { describe, expect, it } from "vitest";
import { CHECK_TYPES } from "../../orchestrator/scoring/catalogue.ts";
import { CHECKS } from "../../orchestrator/scoring/checks/index.ts";
import { scoreItem } from "../../orchestrator/scoring/score.ts";
import type { ScoreInput } from "../../orchestrator/scoring/types.ts";
import { check, input } from "./helpers.ts";

/** Score one check (written as dataset JSON) and return its record's `ok` and `detail`. */
function run(json: string, overrides: Partial<ScoreInput> = {}): { ok: boolean; detail: string } {
  const { checks } = scoreItem([check(json)], input(overrides));
  const { ok, detail } = checks[0]!;
  return { ok, detail };
}

const text = (outputText: string): Partial<ScoreInput> => ({ outputText });
const tools = (...toolNames: string[]): Partial<ScoreInput> => ({ toolNames });

it("has a rule for every catalogued type", () => {
  expect(Object.keys(CHECKS).sort()).toEqual([...CHECK_TYPES]);
});

describe("text checks", () => {
  it("contains: case-sensitive substring of str(value)", () => {
    expect(run('{"type": "contains", "value": "Paris"}', text("It is Paris."))).toEqual({
      ok: true,
      detail: "expected substring 'Paris'",
    });
    expect(run('{"type": "contains", "value": "Paris"}', text("it is paris")).ok).toBe(false);
    expect(run('{"type": "contains", "value": 3.0}', text("x = 3.0"))).toEqual({ ok: true, detail: "expected substring '3.0'" });
    expect(run('{"type": "contains", "value": true}', text("True")).ok).toBe(true);
    expect(run('{"type": "contains", "value": "o\'k"}', text("")).detail).toBe(`expected substring "o'k"`);
  });
  it("icontains: lower-cased both sides, detail lower-cased", () => {
    expect(run('{"type": "icontains", "value": "Eiffel Tower"}', text("THE EIFFEL TOWER"))).toEqual({
      ok: true,
      detail: "expected substring (ci) 'eiffel tower'",
    });
    expect(run('{"type": "icontains", "value": "Eiffel"}', text("Effel")).ok).toBe(false);
  });
  it("not_contains", () => {
    expect(run('{"type": "not_contains", "value": "1832"}', text("born in 1832"))).toEqual({
      ok: false,
      detail: "expected '1832' to be absent",
    });
    expect(run('{"type": "not_contains", "value": "1832"}', text("I cannot say")).ok).toBe(true);
  });
  it("iregex: Python re.search with IGNORECASE", () => {
    expect(run('{"type": "iregex", "value": "\\\\b1889\\\\b"}', text("Built in 1889."))).toEqual({
      ok: true,
      detail: "expected regex /\\b1889\\b/i",
    });
    expect(run('{"type": "iregex", "value": "hillary|norgay"}', text("Messner")).ok).toBe(false);
  });
  it("iregex: an uncompilable pattern fails the check instead of throwing", () => {
    const r = run('{"type": "iregex", "value": "(unclosed"}', text("(unclosed"));
    expect(r.ok).toBe(false);
    expect(r.detail).toBe("invalid regex /(unclosed/i (missing ), unterminated subpattern at position 0)");
  });
  it("numeric_equals: some extracted number within tol, Python float repr in the detail", () => {
    expect(run('{"type": "numeric_equals", "value": 395}', text("It has 395."))).toEqual({
      ok: true,
      detail: "expected a number within 0.0 of 395.0",
    });
    expect(run('{"type": "numeric_equals", "value": 330, "tol": 1}', text("about 330.5 m"))).toEqual({
      ok: true,
      detail: "expected a number within 1.0 of 330.0",
    });
    expect(run('{"type": "numeric_equals", "value": 330, "tol": 1}', text("about 331.5 m")).ok).toBe(false);
    expect(run('{"type": "numeric_equals", "value": "1082.7"}', text("1,082.7 km")).ok).toBe(true);
    expect(run('{"type": "numeric_equals", "value": -1991}', text("2008-1991")).ok).toBe(true);
    expect(run('{"type": "numeric_equals", "value": 3}', text("v3.0"))).toEqual({
      ok: true,
      detail: "expected a number within 0.0 of 3.0",
    });
    expect(run('{"type": "numeric_equals", "value": 123}', text("\u0661\u0662\u0663")).ok).toBe(true);
    expect(run('{"type": "numeric_equals", "value": 1e300, "tol": 1e308}', text("9".repeat(400))).ok).toBe(false);
    expect(run('{"type": "numeric_equals", "value": 5}', text("no numbers")).ok).toBe(false);
  });
  it("numeric_equals: tol is inclusive and coerced like Python float()", () => {
    expect(run('{"type": "numeric_equals", "value": 10, "tol": "0.5"}', text("10.5")).ok).toBe(true);
    expect(run('{"type": "numeric_equals", "value": 10, "tol": "abc"}', text("10"))).toEqual({
      ok: false,
      detail: "invalid 'tol' (could not convert string to float: 'abc')",
    });
    expect(run('{"type": "numeric_equals", "value": null}', text("10"))).toEqual({
      ok: false,
      detail: "invalid 'value' (float() argument must be a string or a real number, not 'NoneType')",
    });
  });
  it("sentence_count: defaults 1..10000", () => {
    const brief = "It was built in 1889. It is 330.5 m tall! Really?? e.g. this";
    expect(run('{"type": "sentence_count", "min": 3, "max": 5}', text(brief))).toEqual({
      ok: false,
      detail: "expected between 3 and 5 sentences, got 6",
    });
    expect(run('{"type": "sentence_count", "min": 3, "max": 6}', text(brief)).ok).toBe(true);
    expect(run('{"type": "sentence_count"}', text(""))).toEqual({ ok: false, detail: "expected between 1 and 10000 sentences, got 0" });
    expect(run('{"type": "sentence_count", "min": 2.9}', text("One. Two.")).detail).toBe(
      "expected between 2 and 10000 sentences, got 2",
    );
  });
});

describe("tool checks", () => {
  it("tool_used / tool_not_used", () => {
    expect(run('{"type": "tool_used", "name": "search"}', tools("calculator", "search"))).toEqual({
      ok: true,
      detail: "expected tool 'search' to be called",
    });
    expect(run('{"type": "tool_used", "name": "search"}', tools()).ok).toBe(false);
    expect(run('{"type": "tool_not_used", "name": "book_room"}', tools("book_room"))).toEqual({
      ok: false,
      detail: "expected tool 'book_room' never to be called",
    });
    expect(run('{"type": "tool_not_used", "name": "book_room"}', tools("search_rooms")).ok).toBe(true);
  });
  it("no_tool", () => {
    expect(run('{"type": "no_tool"}', tools())).toEqual({ ok: true, detail: "expected no tool calls" });
    expect(run('{"type": "no_tool"}', tools("search")).ok).toBe(false);
  });
  it("min_tool_calls / max_tool_calls with Python int()", () => {
    expect(run('{"type": "min_tool_calls", "value": 2}', tools("search", "search"))).toEqual({
      ok: true,
      detail: "expected >= 2 tool calls",
    });
    expect(run('{"type": "min_tool_calls", "value": 2.9}', tools("search")).ok).toBe(false);
    expect(run('{"type": "min_tool_calls", "value": "2"}', tools("a", "b")).ok).toBe(true);
    expect(run('{"type": "max_tool_calls", "value": 1}', tools("a", "b"))).toEqual({ ok: false, detail: "expected <= 1 tool calls" });
    expect(run('{"type": "max_tool_calls", "value": 1}', tools("a")).ok).toBe(true);
    expect(run('{"type": "min_tool_calls", "value": "two"}', tools())).toEqual({
      ok: false,
      detail: "invalid 'value' (invalid literal for int() with base 10: 'two')",
    });
  });
  it("suspended: value defaults to 1", () => {
    expect(run('{"type": "suspended"}', { suspends: 0 })).toEqual({
      ok: false,
      detail: "expected the agent to pause for a decision >= 1 time(s), it paused 0",
    });
    expect(run('{"type": "suspended"}', { suspends: 1 }).ok).toBe(true);
    expect(run('{"type": "suspended", "value": 2}', { suspends: 1 }).ok).toBe(false);
    expect(run('{"type": "suspended", "value": 0}', { suspends: 0 }).ok).toBe(true);
  });
  it("no_tool_before_suspend looks only at the first leg", () => {
    expect(run('{"type": "no_tool_before_suspend", "name": "book_room"}', { beforeSuspend: ["search_rooms"], toolNames: ["search_rooms", "book_room"] })).toEqual({
      ok: true,
      detail: "expected 'book_room' not to be called before pausing; before the pause it called ['search_rooms']",
    });
    expect(run('{"type": "no_tool_before_suspend", "name": "book_room"}', { beforeSuspend: ["book_room"] }).ok).toBe(false);
    expect(run('{"type": "no_tool_before_suspend", "name": "book_room"}', {}).detail).toBe(
      "expected 'book_room' not to be called before pausing; before the pause it called []",
    );
  });
  it("call_counts: only listed names, compared with Python ==", () => {
    const spec = '{"type": "call_counts", "counts": {"search": 2, "calculator": 1}}';
    expect(run(spec, tools("search", "search", "calculator", "other"))).toEqual({
      ok: true,
      detail: "expected tool call counts {'search': 2, 'calculator': 1}, got {'search': 2, 'calculator': 1}",
    });
    expect(run(spec, tools("search", "search", "search", "search", "calculator"))).toEqual({
      ok: false,
      detail: "expected tool call counts {'search': 2, 'calculator': 1}, got {'search': 4, 'calculator': 1}",
    });
    expect(run('{"type": "call_counts", "counts": {"search": 2.0}}', tools("search", "search")).ok).toBe(true);
    expect(run('{"type": "call_counts", "counts": {"search": 0}}', tools("calculator")).ok).toBe(true);
    expect(run('{"type": "call_counts", "counts": {"search": "2"}}', tools("search", "search")).ok).toBe(false);
    expect(run('{"type": "call_counts", "counts": [2]}', tools())).toEqual({
      ok: false,
      detail: "invalid 'counts' (must be an object, got list)",
    });
  });
});

describe("json checks", () => {
  it("json_valid", () => {
    expect(run('{"type": "json_valid"}', text('Sure:\n```json\n{"a": 1}\n```'))).toEqual({ ok: true, detail: "expected parseable JSON" });
    expect(run('{"type": "json_valid"}', text("The answer is 42"))).toEqual({
      ok: false,
      detail: "expected parseable JSON (no JSON value found in output)",
    });
  });
  it("json_schema", () => {
    const spec =
      '{"type": "json_schema", "schema": {"type": "object", "required": ["name", "year"], "properties": {"name": {"type": "string"}, "year": {"type": "integer"}}}}';
    expect(run(spec, text('{"name": "Eiffel Tower", "year": 1889}'))).toEqual({ ok: true, detail: "schema: ok" });
    expect(run(spec, text('{"name": "Eiffel Tower", "year": 1889.0}'))).toEqual({
      ok: false,
      detail: "schema: $.year: expected integer, got float",
    });
    expect(run(spec, text('{"year": true}'))).toEqual({
      ok: false,
      detail: "schema: $: missing required key 'name'; $.year: expected integer, got boolean",
    });
    expect(run(spec, text("no json"))).toEqual({ ok: false, detail: "expected parseable JSON (no JSON value found in output)" });
    expect(run('{"type": "json_schema", "schema": "object"}', text("{}"))).toEqual({
      ok: false,
      detail: "invalid 'schema' (schema at $ must be an object, got str)",
    });
  });
  it("json_path_equals without tol", () => {
    const out = text('```json\n{"name": " Paris ", "year": 1889, "tags": ["a", "b", "c"], "ok": true, "none": null, "0": "zero"}\n```');
    expect(run('{"type": "json_path_equals", "path": "year", "value": 1889}', out)).toEqual({
      ok: true,
      detail: "expected year == 1889, got 1889",
    });
    expect(run('{"type": "json_path_equals", "path": "year", "value": 1889.0}', out).ok).toBe(true);
    expect(run('{"type": "json_path_equals", "path": "year", "value": "1889"}', out)).toEqual({
      ok: false,
      detail: "expected year == '1889', got 1889",
    });
    expect(run('{"type": "json_path_equals", "path": "name", "value": "PARIS"}', out).ok).toBe(true);
    expect(run('{"type": "json_path_equals", "path": "tags.-1", "value": "c"}', out).ok).toBe(true);
    expect(run('{"type": "json_path_equals", "path": "ok", "value": 1}', out).ok).toBe(true);
    expect(run('{"type": "json_path_equals", "path": "none", "value": null}', out).ok).toBe(true);
    expect(run('{"type": "json_path_equals", "path": "none", "value": 0}', out).ok).toBe(false);
    expect(run('{"type": "json_path_equals", "path": "0", "value": "zero"}', out).ok).toBe(true);
    expect(run('{"type": "json_path_equals", "path": "tags", "value": ["A", "b", "c"]}', out).ok).toBe(false);
    expect(run('{"type": "json_path_equals", "path": "tags.5", "value": "c"}', out)).toEqual({
      ok: false,
      detail: "could not read 'tags.5' (index 5 out of range)",
    });
    expect(run('{"type": "json_path_equals", "path": "year", "value": 1}', text("nothing"))).toEqual({
      ok: false,
      detail: "could not read 'year' (no JSON value found in output)",
    });
  });
  it("json_path_equals with tol uses Python float() on both sides", () => {
    const out = text('{"height": " 330.5 ", "bad": "tall", "flag": true}');
    expect(run('{"type": "json_path_equals", "path": "height", "value": 330, "tol": 1}', out)).toEqual({
      ok: true,
      detail: "expected height within 1.0 of 330.0, got ' 330.5 '",
    });
    expect(run('{"type": "json_path_equals", "path": "height", "value": 330, "tol": 0.1}', out).ok).toBe(false);
    expect(run('{"type": "json_path_equals", "path": "flag", "value": 1, "tol": 0}', out).ok).toBe(true);
    expect(run('{"type": "json_path_equals", "path": "bad", "value": 1, "tol": 1}', out)).toEqual({
      ok: false,
      detail: "expected bad within 1 of 1, got 'tall' (could not convert string to float: 'tall')",
    });
  });
  it("json_path_equals requires a string path", () => {
    expect(run('{"type": "json_path_equals", "path": 0, "value": 1}', text("[1]"))).toEqual({
      ok: false,
      detail: "invalid 'path' (must be a string, got int)",
    });
  });
});
