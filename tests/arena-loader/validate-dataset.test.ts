import { describe, expect, it } from "vitest";
import { check, jsonl, script } from "./fixture.ts";

const KNOWN =
  "call_counts, contains, icontains, iregex, json_path_equals, json_schema, json_valid, max_tool_calls, min_tool_calls, no_tool, no_tool_before_suspend, not_contains, numeric_equals, sentence_count, suspended, tool_not_used, tool_used";

const item = (over: Record<string, unknown> = {}) => ({
  id: "d-01",
  input: "What is 2 plus 2?",
  checks: [{ type: "contains", value: "4" }],
  ...over,
});

/** Errors and warnings about the dataset only (drift findings are tested in validate-drift). */
function datasetFindings(dataset: string) {
  const out = check({ dataset });
  const mine = (m: string) => m.startsWith("demo/dataset.jsonl") && !m.includes("no mock scenario matches");
  return { errors: out.errors.filter(mine), warnings: out.warnings.filter(mine), loadError: out.loadError };
}

function checkErrors(checks: unknown[]): string[] {
  return datasetFindings(jsonl(item({ checks }))).errors;
}

describe("validate: dataset.jsonl", () => {
  it("missing dataset.jsonl", () => {
    const out = check({ dataset: null });
    expect(out.errors).toEqual(["demo/dataset.jsonl:1: missing dataset.jsonl"]);
    expect(out.loadError).toBe("demo/dataset.jsonl:1: missing dataset.jsonl");
  });

  it("invalid JSON names the physical line, counting comments and blanks", () => {
    const out = datasetFindings("# header\n\n" + jsonl(item()) + "{'id': 'd-02'}\n");
    expect(out.errors).toEqual(["demo/dataset.jsonl:4: invalid JSON (Expecting property name enclosed in double quotes)"]);
    expect(out.loadError).toBe(out.errors[0]);
  });

  it("counts every Python line break (\\r, \\r\\n, \\u2028, \\x0c) when numbering lines", () => {
    const text = `# a\r# b\r\n# c\u2028# d\f${JSON.stringify(item({ id: "" }))}\n`;
    expect(datasetFindings(text).errors).toEqual(["demo/dataset.jsonl:5: missing 'id'"]);
  });

  it("missing or falsy id; the item is then called <line N>", () => {
    const text = jsonl(item(), item({ id: undefined, input: " " }), item({ id: 0, checks: [] }));
    expect(datasetFindings(text).errors).toEqual([
      "demo/dataset.jsonl:2: missing 'id'",
      "demo/dataset.jsonl:2: <line 2>: empty 'input'",
      "demo/dataset.jsonl:3: missing 'id'",
      "demo/dataset.jsonl:3: <line 3>: has no checks (it can never fail)",
    ]);
  });

  it("duplicate id", () => {
    expect(datasetFindings(jsonl(item(), item())).errors).toEqual(["demo/dataset.jsonl:2: duplicate id 'd-01'"]);
  });

  it("ids are compared after Python str()", () => {
    expect(datasetFindings(jsonl(item({ id: 5 }), item({ id: "5" }))).errors).toEqual(["demo/dataset.jsonl:2: duplicate id '5'"]);
  });

  it("empty 'input' (missing or whitespace-only)", () => {
    const text = jsonl(item({ input: "\u3000\t" }), item({ id: "d-02", input: undefined }));
    const out = datasetFindings(text);
    expect(out.errors).toEqual(["demo/dataset.jsonl:1: d-01: empty 'input'", "demo/dataset.jsonl:2: d-02: empty 'input'"]);
  });

  it("has no checks", () => {
    const out = datasetFindings(jsonl(item({ checks: [] }), item({ id: "d-02", checks: undefined })));
    expect(out.errors).toEqual([
      "demo/dataset.jsonl:1: d-01: has no checks (it can never fail)",
      "demo/dataset.jsonl:2: d-02: has no checks (it can never fail)",
    ]);
    expect(out.loadError).toBe("demo/dataset.jsonl:1: d-01: has no checks (it can never fail)");
  });

  it("checks that is not a list (port addition)", () => {
    expect(datasetFindings(jsonl(item({ checks: "contains 4" }))).errors).toEqual([
      "demo/dataset.jsonl:1: d-01: 'checks' must be a list, got str",
    ]);
  });

  it("a check must be an object", () => {
    expect(checkErrors(["contains"])).toEqual(["demo/dataset.jsonl:1: d-01.checks[0]: must be an object, got str"]);
  });

  it("unknown check type lists the known ones; a missing type prints None", () => {
    expect(checkErrors([{ type: "contains", value: "4" }, { type: "vibes" }, { value: 1 }])).toEqual([
      `demo/dataset.jsonl:1: d-01.checks[1]: unknown check type 'vibes' (known: ${KNOWN})`,
      `demo/dataset.jsonl:1: d-01.checks[2]: unknown check type None (known: ${KNOWN})`,
    ]);
  });

  it("one error per missing required field", () => {
    expect(checkErrors([{ type: "tool_used" }, { type: "json_path_equals" }])).toEqual([
      "demo/dataset.jsonl:1: d-01.checks[0]: 'tool_used' requires 'name'",
      "demo/dataset.jsonl:1: d-01.checks[1]: 'json_path_equals' requires 'path'",
      "demo/dataset.jsonl:1: d-01.checks[1]: 'json_path_equals' requires 'value'",
    ]);
  });

  it("uses <line N> in check locators of an item without id", () => {
    const text = jsonl(item({ id: null, checks: [{ type: "tool_used" }] }));
    expect(datasetFindings(text).errors).toEqual([
      "demo/dataset.jsonl:1: missing 'id'",
      "demo/dataset.jsonl:1: <line 1>.checks[0]: 'tool_used' requires 'name'",
    ]);
  });

  it("dataset.jsonl has no items", () => {
    const out = check({ dataset: "# only a comment\n\n" });
    expect(out.errors).toEqual(["demo/dataset.jsonl:1: dataset.jsonl has no items"]);
  });

  it("warns about fields a check type ignores", () => {
    const out = datasetFindings(jsonl(item({ checks: [{ type: "contains", value: "4", tol: 1 }] })));
    expect(out.errors).toEqual([]);
    expect(out.warnings).toEqual(["demo/dataset.jsonl:1: d-01.checks[0]: 'contains' ignores unknown field 'tol'"]);
  });

  it("warns about a resume_with that is neither approve nor deny (port addition)", () => {
    const out = datasetFindings(jsonl(item({ resume_with: "maybe" }), item({ id: "d-02", resume_with: "deny" }), item({ id: "d-03", resume_with: "" })));
    expect(out.warnings).toEqual([
      "demo/dataset.jsonl:1: d-01: resume_with 'maybe' is neither 'approve' nor 'deny' (the harness injects it verbatim)",
    ]);
  });

  it("a line that is JSON but not an object is an error (port addition)", () => {
    const out = datasetFindings(jsonl(item(), "[1, 2]", "42"));
    expect(out.errors).toEqual(["demo/dataset.jsonl:2: expected a JSON object, got list", "demo/dataset.jsonl:3: expected a JSON object, got int"]);
    expect(out.loadError).toBe("demo/dataset.jsonl:2: expected a JSON object, got list");
  });

  describe("field values the scorer coerces (port additions)", () => {
    it("iregex patterns must compile", () => {
      expect(checkErrors([{ type: "iregex", value: "(unclosed" }])).toEqual([
        expect.stringMatching(/^demo\/dataset\.jsonl:1: d-01\.checks\[0\]: 'iregex' pattern '\(unclosed' does not compile \(.+\)$/),
      ]);
      expect(checkErrors([{ type: "iregex", value: 5 }])).toEqual(["demo/dataset.jsonl:1: d-01.checks[0]: 'iregex' field 'value' must be a string, got int"]);
      expect(checkErrors([{ type: "iregex", value: "\\b1889\\b|july 20,? 1969" }])).toEqual([]);
    });

    it("integer fields go through Python int()", () => {
      expect(
        checkErrors([
          { type: "min_tool_calls", value: "two" },
          { type: "max_tool_calls", value: "3.0" },
          { type: "sentence_count", min: null },
          { type: "max_tool_calls", value: 3.9 },
          { type: "sentence_count", min: " 2 ", max: true },
        ]),
      ).toEqual([
        "demo/dataset.jsonl:1: d-01.checks[0]: 'min_tool_calls' field 'value' is not an integer (invalid literal for int() with base 10: 'two')",
        "demo/dataset.jsonl:1: d-01.checks[1]: 'max_tool_calls' field 'value' is not an integer (invalid literal for int() with base 10: '3.0')",
        "demo/dataset.jsonl:1: d-01.checks[2]: 'sentence_count' field 'min' is not an integer (int() argument must be a string, a bytes-like object or a real number, not 'NoneType')",
      ]);
    });

    it("number fields go through Python float()", () => {
      expect(
        checkErrors([
          { type: "numeric_equals", value: "abc" },
          { type: "numeric_equals", value: "1e3", tol: [] },
          { type: "json_path_equals", path: "a", value: "x", tol: 1 },
          { type: "json_path_equals", path: "a", value: "x" },
        ]),
      ).toEqual([
        "demo/dataset.jsonl:1: d-01.checks[0]: 'numeric_equals' field 'value' is not a number (could not convert string to float: 'abc')",
        "demo/dataset.jsonl:1: d-01.checks[1]: 'numeric_equals' field 'tol' is not a number (float() argument must be a string or a real number, not 'list')",
        "demo/dataset.jsonl:1: d-01.checks[2]: 'json_path_equals' field 'value' is not a number (could not convert string to float: 'x')",
      ]);
    });

    it("call_counts needs an object of whole numbers; json_schema needs an object", () => {
      expect(
        checkErrors([
          { type: "call_counts", counts: ["search"] },
          { type: "call_counts", counts: { search: "2", calculator: 1.5 } },
          { type: "json_schema", schema: "object" },
        ]),
      ).toEqual([
        "demo/dataset.jsonl:1: d-01.checks[0]: 'call_counts' field 'counts' must be an object mapping tool names to counts, got list",
        "demo/dataset.jsonl:1: d-01.checks[1]: 'call_counts' count for 'search' must be a whole number, got '2'",
        "demo/dataset.jsonl:1: d-01.checks[1]: 'call_counts' count for 'calculator' must be a whole number, got 1.5",
        "demo/dataset.jsonl:1: d-01.checks[2]: 'json_schema' field 'schema' must be an object, got str",
      ]);
    });

    it("tool_used on a suspend tool can never pass", () => {
      expect(checkErrors([{ type: "tool_used", name: "request_approval" }])).toContain(
        "demo/dataset.jsonl:1: d-01.checks[0]: 'tool_used' expects tool 'request_approval', which is a suspend tool and is never recorded as a tool call",
      );
    });
  });

  it("keeps going past bad lines and reports every problem", () => {
    const text = jsonl("{", item(), item(), item({ id: "d-02", input: "", checks: [{ type: "vibes" }] }));
    const out = datasetFindings(text);
    expect(out.errors.map((e) => e.split(": ")[0])).toEqual([
      "demo/dataset.jsonl:1",
      "demo/dataset.jsonl:3",
      "demo/dataset.jsonl:4",
      "demo/dataset.jsonl:4",
    ]);
  });

  it("the mock script of the baseline arena is not blamed for dataset problems", () => {
    const out = check({ dataset: jsonl(item({ checks: [] })), script: script([{ match: "2 plus 2", turns: [{ content: "4" }] }]) });
    expect(out.errors).toEqual(["demo/dataset.jsonl:1: d-01: has no checks (it can never fail)"]);
  });
});
