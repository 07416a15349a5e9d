import { describe, expect, it } from "vitest";
import { compilePyRegex, pySearch, PyRegexError, translatePyRegex } from "../src/regex/index.ts";

const search = (pattern: string, text: string): boolean => compilePyRegex(pattern).test(text);

describe("compilePyRegex: shipped patterns (§5.6)", () => {
  const refusal =
    "(cannot|can't|could not|couldn't|do not|don't|does not|doesn't|no information|not (found|available|in the|stated|mentioned|include))";
  const booking = "(did not book|have not booked|not book|no booking|denied|declined)";
  it.each([
    ["hillary|norgay|tenzing", "Edmund HILLARY and Tenzing Norgay", true],
    ["hillary|norgay|tenzing", "Reinhold Messner", false],
    ["20 july 1969|july 20,? 1969", "On July 20, 1969 they landed", true],
    ["20 july 1969|july 20,? 1969", "On 20 July 1969 they landed", true],
    ["20 july 1969|july 20,? 1969", "On July 21, 1969 they left", false],
    ["\\b1889\\b", "It opened in 1889.", true],
    ["\\b1889\\b", "Code 18890", false],
    [refusal, "The corpus does not contain that, so I cannot answer it.", true],
    [refusal, "That is NOT MENTIONED in the documents.", true],
    [refusal, "Gustave Eiffel was born in 1832 in Dijon, France.", false],
    [booking, "I have not booked the room, as you declined.", true],
    [booking, "Booked room B for Friday.", false],
  ])("/%s/i on %j → %s", (pattern, text, expected) => {
    expect(search(pattern, text)).toBe(expected);
  });
});

describe("compilePyRegex: Python semantics", () => {
  it("\\b and \\w are Unicode-aware (JS \\b is ASCII-only)", () => {
    expect(search("\\b1889\\b", "é1889")).toBe(false);
    expect(search("\\bcafé\\b", "un café.")).toBe(true);
    expect(search("\\Bé", "caé")).toBe(true);
    expect(search("^\\w+$", "naïve_٣")).toBe(true);
    expect(search("\\W", "naïve")).toBe(false);
  });
  it("\\d is Unicode decimal digits", () => {
    expect(search("^\\d+$", "\u0661\u0662\u0663")).toBe(true);
    expect(search("[\\d]", "\u0967")).toBe(true);
    expect(search("\\D", "\u0661")).toBe(false);
  });
  it("\\s is Python's whitespace set", () => {
    expect(search("a\\sb", "a\x1cb")).toBe(true);
    expect(search("a\\sb", "a\u0085b")).toBe(true);
    expect(search("a\\sb", "a\ufeffb")).toBe(false);
    expect(search("a\\Sb", "a\ufeffb")).toBe(true);
    expect(search("[^\\S]", "x\u3000")).toBe(true);
    expect(search("^[\\W\\d]+$", "!?1")).toBe(true);
    expect(search("^[^\\W\\d]+$", "abc")).toBe(true);
    expect(search("^[^\\W\\d]+$", "ab1")).toBe(false);
  });
  it("$ also matches before one final newline; \\Z only at the end", () => {
    expect(search("end$", "the end\n")).toBe(true);
    expect(search("end$", "the end\n\n")).toBe(false);
    expect(search("end\\Z", "the end\n")).toBe(false);
    expect(search("\\Aend", "end")).toBe(true);
    expect(search("\\Aend", "x\nend")).toBe(false);
  });
  it(". matches \\r but not \\n; (?s) and (?m) only know \\n", () => {
    expect(search("a.b", "a\rb")).toBe(true);
    expect(search("a.b", "a\nb")).toBe(false);
    expect(search("(?s)a.b", "a\nb")).toBe(true);
    expect(search("^b", "a\nb")).toBe(false);
    expect(search("(?m)^b$", "a\nb\nc")).toBe(true);
    expect(search("(?m)^b", "a\rb")).toBe(false);
    expect(search("(?m)a$", "a\rb")).toBe(false);
  });
  it("is case-insensitive, with scoped flags", () => {
    expect(search("eiffel tower", "The EIFFEL Tower")).toBe(true);
    expect(search("(?-i:A)b", "AB")).toBe(true);
    expect(search("(?-i:A)b", "aB")).toBe(false);
    expect(search("(?x) e i f # comment\n f", "EIFF")).toBe(true);
    expect(search("(?x)[ ]x", " x")).toBe(true);
  });
  it("translates named groups and references", () => {
    expect(translatePyRegex("(?P<n>a)(?P=n)")).toBe("(?<n>a)(?:\\k<n>)");
    expect(search("(?P<w>\\w+) (?P=w)", "hello HELLO")).toBe(true);
    expect(search("(a)\\1", "aA")).toBe(true);
    // Verbose mode can put a literal digit right after a reference; it must not extend the number.
    expect(search("(?x)(a)\\1 0", "aa0")).toBe(true);
  });
  it("keeps Python's literal braces and escaped punctuation", () => {
    expect(search("a{", "a{")).toBe(true);
    expect(search("{}", "{}")).toBe(true);
    expect(search("x{1,2}y", "xxy")).toBe(true);
    expect(search("^x{,2}$", "xx")).toBe(true);
    expect(search("a{1, 2}", "a{1, 2}")).toBe(true);
    expect(search("\\'\\\"\\-\\#", "'\"-#")).toBe(true);
    expect(search("[]a]+", "]a]")).toBe(true);
    expect(search("[a-]", "-")).toBe(true);
    expect(search("\\x41\\u00e9\\101", "aÉa")).toBe(true);
  });
  it("applies quantifiers to look-arounds and comments like Python", () => {
    expect(search("(?=a)*b", "b")).toBe(true);
    expect(search("a(?#note)+", "aaa")).toBe(true);
  });
  it("searches rather than anchors, and an empty pattern matches", () => {
    expect(pySearch("b", "abc")).toBe(true);
    expect(pySearch("", "")).toBe(true);
  });
});

describe("compilePyRegex: rejects what Python rejects", () => {
  it.each([
    ["(", "missing ), unterminated subpattern"],
    ["a)", "unbalanced parenthesis"],
    ["[a", "unterminated character set"],
    ["a**", "multiple repeat"],
    ["*a", "nothing to repeat"],
    ["^*", "nothing to repeat"],
    ["\\q", "bad escape \\q"],
    ["\\1", "invalid group reference 1"],
    ["(a)\\10", "invalid group reference 10"],
    ["(a\\1)", "cannot refer to an open group"],
    ["a{3,2}", "min repeat greater than max repeat"],
    ["[z-a]", "bad character range z-a"],
    ["(?<=a+)b", "look-behind requires fixed-width pattern"],
    ["(?P<1a>x)", "bad character in group name '1a'"],
    ["(?P<n>a)(?P<n>b)", "redefinition of group name 'n'"],
    ["(?P=m)", "unknown group name 'm'"],
    ["a(?i)", "global flags not at the start of the expression"],
    ["(?L)a", "cannot use 'L' flag with a str pattern"],
    ["(?Q)", "unknown extension ?Q"],
    ["\\x4", "incomplete escape \\x4"],
    ["\\", "bad escape (end of pattern)"],
  ])("%j: %s", (pattern, message) => {
    expect(() => compilePyRegex(pattern)).toThrow(PyRegexError);
    expect(() => compilePyRegex(pattern)).toThrow(message);
  });
  it.each([["(?(1)a|b)"], ["(?>a)"], ["a*+"], ["\\N{DASH}"], ["(a)(?<=\\1)"]])(
    "%j: valid Python this port cannot reproduce",
    (pattern) => {
      expect(() => compilePyRegex(pattern)).toThrow(PyRegexError);
    },
  );
  it("reports the pattern and position", () => {
    try {
      compilePyRegex("ab(");
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(PyRegexError);
      expect((e as PyRegexError).pattern).toBe("ab(");
      expect((e as PyRegexError).position).toBe(2);
    }
  });
});

describe("PyRegexError positions follow CPython", () => {
  it.each([
    ["(", 0],
    ["a)", 1],
    ["^*", 1],
    ["\\1", 1],
    ["(a)\\10", 4],
    ["(a\\1)", 2],
    ["(?P<n>a)(?P<n>b)", 12],
    ["(?P=m)", 4],
    ["(?P<1a>x)", 4],
    ["[z-a]", 1],
    ["a(?i)", 1],
    ["(?<=a+)b", undefined],
  ])("%j at %s", (pattern, position) => {
    try {
      compilePyRegex(pattern);
      expect.unreachable();
    } catch (e) {
      expect((e as PyRegexError).position).toBe(position);
    }
  });
});
