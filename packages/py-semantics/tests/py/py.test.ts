import { describe, expect, it } from "vitest";
import {
  asciiDigits,
  collapseWhitespace,
  dumpsPy,
  floatRepr,
  formatG,
  parsePyJson,
  parsePyJsonWithLines,
  PyJsonError,
  pyEquals,
  pyFloat,
  pyInt,
  pyRepr,
  pySplitLines,
  pyStr,
  type PyDict,
} from "../../src/index.ts";

describe("python json", () => {
  it("keeps int vs float and key order", () => {
    const v = parsePyJson('{"2": 3, "1": 3.0, "a": [1e2, -0, -0.0, 12345678901234567890]}');
    expect(dumpsPy(v)).toBe('{"2": 3, "1": 3.0, "a": [100.0, 0, -0.0, 12345678901234567890]}');
  });
  it("duplicate keys keep the first position and the last value", () => {
    expect(dumpsPy(parsePyJson('{"a": 1, "b": 2, "a": 3}'))).toBe('{"a": 3, "b": 2}');
  });
  it("accepts NaN and Infinity, rejects trailing data", () => {
    expect(dumpsPy(parsePyJson("[NaN, Infinity, -Infinity]"))).toBe("[NaN, Infinity, -Infinity]");
    expect(() => parsePyJson("The answer is 42")).toThrow(PyJsonError);
    expect(() => parsePyJson("42 x")).toThrow(/Extra data: line 1 column 4 \(char 3\)/);
    expect(() => parsePyJson("{'a': 1}")).toThrow(/Expecting property name enclosed in double quotes/);
  });
  it("escapes like json.dumps (ASCII only, lowercase hex, surrogate pairs)", () => {
    expect(dumpsPy("é — 😀 \u007f \u0001 / \"q\" \\")).toBe('"\\u00e9 \\u2014 \\ud83d\\ude00 \\u007f \\u0001 / \\"q\\" \\\\"');
    expect(dumpsPy(parsePyJson('"\\ud83d\\ude00"'))).toBe('"\\ud83d\\ude00"');
  });
  it("reports lines of containers and keys", () => {
    const { value, lines } = parsePyJsonWithLines('{\n "s": [\n  {"m": 1},\n  {"m": 2}\n ]\n}');
    const s = (value as PyDict).get("s") as PyDict[];
    expect(lines.of(s[1]!)).toBe(4);
    expect(lines.ofKey(value as PyDict, "s")).toBe(2);
  });
});

describe("float repr", () => {
  it.each([
    [1, "1.0"],
    [0.0001, "0.0001"],
    [1e16, "1e+16"],
    [1e15, "1000000000000000.0"],
    [1e-5, "1e-05"],
    [123456789012345678, "1.2345678901234568e+17"],
    [0.1 + 0.2, "0.30000000000000004"],
    [330.5, "330.5"],
  ])("repr(%s) = %s", (x, s) => expect(floatRepr(x, "json")).toBe(s));
  it.each([
    [330 * 3.28084, "1082.68"],
    [1 / 3, "0.333333"],
    [2 / 3, "0.666667"],
    [2 ** 0.5, "1.41421"],
    [0.1 + 0.2, "0.3"],
    [123456.7, "123457"],
    [123456789.5, "1.23457e+08"],
    [1e-7, "1e-07"],
    [0.00001234, "1.234e-05"],
    [999998.5, "999998"],
    [999999.5, "1e+06"],
    [0.5, "0.5"],
  ])("'{:.6g}'.format(%s) = %s", (x, s) => expect(formatG(x)).toBe(s));
});

describe("repr and str", () => {
  it.each([
    ["abc", "'abc'"],
    ["o'k", `"o'k"`],
    ['say "hi"', `'say "hi"'`],
    [`both ' and "`, `'both \\' and "'`],
    ["tab\there", "'tab\\there'"],
    ["\x00\x7f\x85\xa0\u200b\u2028", "'\\x00\\x7f\\x85\\xa0\\u200b\\u2028'"],
    ["é ok", "'é ok'"],
  ])("repr(%j)", (s, r) => expect(pyRepr(s)).toBe(r));
  it("containers", () => {
    expect(pyRepr(parsePyJson('{"k": [1, 2.0, true, null]}'))).toBe("{'k': [1, 2.0, True, None]}");
    expect(pyStr(parsePyJson("[{\"type\": \"text\", \"text\": \"hi\"}]"))).toBe("[{'type': 'text', 'text': 'hi'}]");
    expect(pyStr(null)).toBe("None");
  });
});

describe("int, float, ==", () => {
  it("int() follows CPython", () => {
    expect(pyInt(3.9)).toBe(3n);
    expect(pyInt(-3.9)).toBe(-3n);
    expect(pyInt(" +1_000 ")).toBe(1000n);
    expect(pyInt(true)).toBe(1n);
    expect(pyInt("١٢٣")).toBe(123n);
    expect(() => pyInt("x")).toThrow("invalid literal for int() with base 10: 'x'");
    expect(() => pyInt(null)).toThrow("int() argument must be a string, a bytes-like object or a real number, not 'NoneType'");
    expect(() => pyInt("1__0")).toThrow(/invalid literal/);
  });
  it("float() follows CPython", () => {
    expect(pyFloat(" 330.5 ")).toBe(330.5);
    expect(pyFloat("1_0.5e1")).toBe(105);
    expect(pyFloat("-inf")).toBe(-Infinity);
    expect(Number.isNaN(pyFloat("NaN"))).toBe(true);
    expect(pyFloat(".5")).toBe(0.5);
    expect(pyFloat("5.")).toBe(5);
    expect(() => pyFloat("abc")).toThrow("could not convert string to float: 'abc'");
    expect(() => pyFloat(null)).toThrow(/not 'NoneType'/);
  });
  it("== across int, float and bool", () => {
    expect(pyEquals(2n, 2.0)).toBe(true);
    expect(pyEquals(true, 1n)).toBe(true);
    expect(pyEquals(false, 0.0)).toBe(true);
    expect(pyEquals("1", 1n)).toBe(false);
    expect(pyEquals(null, null)).toBe(true);
    expect(pyEquals(parsePyJson('{"a": [1, 2]}'), parsePyJson('{"a": [1.0, 2]}'))).toBe(true);
    expect(pyEquals(parsePyJson('{"a": 1}'), parsePyJson('{"b": 1}'))).toBe(false);
  });
  it("maps any Unicode decimal digit", () => {
    expect(asciiDigits("١٢٣ ９ 𝟘𝟙𝟡")).toBe("123 9 019");
  });
});

describe("whitespace", () => {
  it("uses Python's whitespace set", () => {
    expect(collapseWhitespace("\n a\u001c b\u0085c \ufeffd ")).toBe("a b c \ufeffd");
    expect(pySplitLines("a\nb\r\nc\u2028d\n")).toEqual(["a", "b", "c", "d"]);
  });
});

describe("python round and fixed format", () => {
  it.each([
    [2.675, 2, "2.67"],
    [0.125, 2, "0.12"],
    [0.375, 2, "0.38"],
    [12.5, 0, "12"],
    [13.5, 0, "14"],
    [0.0004, 3, "0.000"],
    [0.0005, 3, "0.001"],
    [798.666666, 1, "798.7"],
    [1.005, 2, "1.00"],
    [0, 2, "0.00"],
    [5604.0000001, 1, "5604.0"],
  ])("format(%s, '.%sf') = %s", async (x, d, s) => {
    const { formatFixed } = await import("../../src/index.ts");
    expect(formatFixed(x, d)).toBe(s);
  });
});
