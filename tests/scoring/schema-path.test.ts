import { describe, expect, it } from "vitest";
import { pathValuesEqual, readPath } from "../../orchestrator/scoring/json-path.ts";
import { schemaErrors, SchemaDefinitionError } from "../../orchestrator/scoring/mini-schema.ts";
import { parsePyJson, pyRepr } from "@agentic-arena/py-semantics";

const errors = (value: string, schema: string): string[] => schemaErrors(parsePyJson(value), parsePyJson(schema));

describe("mini JSON schema (§5.4)", () => {
  it("checks types with Python type names", () => {
    expect(errors("[1]", '{"type": "object"}')).toEqual(["$: expected object, got list"]);
    expect(errors("{}", '{"type": "array"}')).toEqual(["$: expected array, got dict"]);
    expect(errors("null", '{"type": "string"}')).toEqual(["$: expected string, got NoneType"]);
    expect(errors("1", '{"type": "boolean"}')).toEqual(["$: expected boolean, got int"]);
    expect(errors("1.5", '{"type": "integer"}')).toEqual(["$: expected integer, got float"]);
    expect(errors("1889.0", '{"type": "integer"}')).toEqual(["$: expected integer, got float"]);
    expect(errors("1889.0", '{"type": "number"}')).toEqual([]);
    expect(errors("1889", '{"type": "number"}')).toEqual([]);
    expect(errors('"x"', '{"type": "null"}')).toEqual([]);
    expect(errors('"x"', '{"type": ["string", "null"]}')).toEqual([]);
  });
  it("never treats booleans as numbers", () => {
    expect(errors("true", '{"type": "integer"}')).toEqual(["$: expected integer, got boolean"]);
    expect(errors("false", '{"type": "number"}')).toEqual(["$: expected number, got boolean"]);
    expect(errors("true", '{"type": "string"}')).toEqual(["$: expected string, got bool"]);
  });
  it("enum uses Python == and repr", () => {
    expect(errors('"c"', '{"enum": ["a", "b"]}')).toEqual(["$: 'c' not in enum ['a', 'b']"]);
    expect(errors("1.0", '{"enum": [1, 2]}')).toEqual([]);
    expect(errors("true", '{"enum": [1]}')).toEqual([]);
    expect(errors("null", '{"enum": [0, false]}')).toEqual(["$: None not in enum [0, False]"]);
  });
  it("object keywords: required, additionalProperties false, properties in schema order", () => {
    const schema = `{"type": "object", "required": ["name", "year"], "additionalProperties": false,
      "properties": {"year": {"type": "integer"}, "name": {"type": "string", "enum": ["A"]}}}`;
    expect(errors('{"extra": 1, "name": 5, "more": 2}', schema)).toEqual([
      "$: missing required key 'year'",
      "$: unexpected key 'extra'",
      "$: unexpected key 'more'",
      "$.name: expected string, got int",
      "$.name: 5 not in enum ['A']",
    ]);
    expect(errors('{"a": 1}', '{"type": "object", "additionalProperties": true, "properties": {}}')).toEqual([]);
    expect(errors('{"a": 1}', '{"type": "object", "additionalProperties": 0, "properties": {}}')).toEqual([]);
  });
  it("ignores required/properties without type object, and items without type array", () => {
    expect(errors("{}", '{"required": ["a"]}')).toEqual([]);
    expect(errors("[]", '{"minItems": 1}')).toEqual([]);
    expect(errors("[1]", '{"type": "object", "required": ["a"]}')).toEqual(["$: expected object, got list"]);
  });
  it("array keywords: minItems then items with indexed paths", () => {
    expect(errors("[]", '{"type": "array", "minItems": 1}')).toEqual(["$: expected >= 1 items, got 0"]);
    expect(errors('{"tags": ["a", 2, {"k": 1}]}', '{"type": "object", "properties": {"tags": {"type": "array", "minItems": 4, "items": {"type": "string"}}}}')).toEqual([
      "$.tags: expected >= 4 items, got 3",
      "$.tags[1]: expected string, got int",
      "$.tags[2]: expected string, got dict",
    ]);
  });
  it("rejects a malformed schema with a typed error", () => {
    expect(() => errors("{}", "[]")).toThrow(SchemaDefinitionError);
    expect(() => errors('{"a": 1}', '{"type": "object", "properties": {"a": 3}}')).toThrow(SchemaDefinitionError);
    expect(() => errors("1", '{"enum": 1}')).toThrow(SchemaDefinitionError);
  });
});

describe("json_path_equals reading (§5.5)", () => {
  const doc = parsePyJson('{"a": [10, 20, {"b": "x"}], "0": "zero", "s": "text", "n": null}');
  const read = (path: string): string => {
    const r = readPath(doc, path);
    return r.ok ? pyRepr(r.value) : `error: ${r.reason}`;
  };
  it("walks dict keys and Python-int list indexes, negative from the end", () => {
    expect(read("a.0")).toBe("10");
    expect(read("a.-1.b")).toBe("'x'");
    expect(read("a.-3")).toBe("10");
    expect(read("a. +1 ")).toBe("20");
    expect(read("0")).toBe("'zero'");
    expect(read("n")).toBe("None");
  });
  it("fails with a reason", () => {
    expect(read("a.3")).toBe("error: index 3 out of range");
    expect(read("a.-4")).toBe("error: index -4 out of range");
    expect(read("a.x")).toBe("error: invalid literal for int() with base 10: 'x'");
    expect(read("a.1.5")).toBe("error: cannot read '5' from a value of type int");
    expect(read("missing")).toBe("error: missing key 'missing'");
    expect(read("s.0")).toBe("error: cannot read '0' from a value of type str");
    expect(read("n.x")).toBe("error: cannot read 'x' from a value of type NoneType");
    expect(read("a.0.x")).toBe("error: cannot read 'x' from a value of type int");
  });
  it("compares strings stripped and lower-cased, everything else with Python ==", () => {
    const eq = (a: string, b: string): boolean => pathValuesEqual(parsePyJson(a), parsePyJson(b));
    expect(eq('" Paris\\u3000"', '"paris"')).toBe(true);
    expect(eq("true", "1")).toBe(true);
    expect(eq("false", "0.0")).toBe(true);
    expect(eq("3.0", "3")).toBe(true);
    expect(eq("null", "null")).toBe(true);
    expect(eq("null", "0")).toBe(false);
    expect(eq("null", "false")).toBe(false);
    expect(eq('"1"', "1")).toBe(false);
    expect(eq('["A"]', '["a"]')).toBe(false);
    expect(eq('{"a": 1, "b": [1.0]}', '{"b": [1], "a": true}')).toBe(true);
    expect(eq('{"a": 1}', '{"a": 1, "b": 2}')).toBe(false);
  });
});
