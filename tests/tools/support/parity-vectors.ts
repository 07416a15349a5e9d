/**
 * Seeded tool calls for the Python parity suite: for every canonical tool, valid calls, edge cases
 * and broken ones (missing, extra, repeated and wrongly typed fields, unicode, huge and special
 * numbers, deep nesting, text that is not JSON). Arguments are built as JSON *text*, as a model
 * sends them, so `3` and `3.0`, `NaN`, 5,000-digit integers and escaped lone surrogates reach
 * both parsers exactly as written. The same seed always gives the same calls.
 */
import { mulberry32 } from "../../../orchestrator/stats/prng.ts";
import { TOOL_NAMES } from "../../../contract/tools/canonical.ts";
import { toolDefinition } from "../../../contract/tools/canonical.ts";
import { CALCULATOR_PIECES } from "./calculator-pieces.ts";

export interface ToolCall {
  readonly name: string;
  readonly arguments: string;
}

type Rng = () => number;

const pick = <T>(r: Rng, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const int = (r: Rng, lo: number, hi: number): number => lo + Math.floor(r() * (hi - lo + 1));

const WORDS = [
  "eiffel", "tower", "Tower", "TOKYO", "cn", "tallest", "building", "world", "1889", "330", "metres", "mount",
  "everest", "river", "nile", "apollo", "moon", "the", "of", "in", "a", "observation", "skyscraper", "Paris",
  "new", "york", "city", "bridge", "golden", "gate", "x", "zzz", "é", "ÉIFFEL", "tower's", "don't", "K2", "101",
  "typescript", "python", "\u212a2", "İstanbul", "ﬁre", "straße",
];
const DAYS = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "Monday ", " FRIDAY", "\tthursday\n", "mon", "", "tuesday\u00a0", "\u2003wednesday", "ʍonday", "MONDAY"];
const ROOM_IDS = ["R1", "r2", " R3 ", "R4\n", "r5", "R6", "r9", "R10", "", "Ｒ1", "r1\u3000", "'R1'", "\"R2\"", "ℛ1", "ᵣ1"];

/** Characters across the planes, the odd categories and the lone surrogates JSON can carry. */
function unicodeText(r: Rng): string {
  const ranges: [number, number][] = [
    [0x20, 0x7e], [0x00, 0x1f], [0x7f, 0xa0], [0xa1, 0x2ff], [0x370, 0x52f], [0x600, 0x6ff], [0x900, 0x97f],
    [0x2000, 0x206f], [0x3000, 0x30ff], [0x4e00, 0x4eff], [0xd800, 0xdfff], [0xe000, 0xe0ff], [0xfff0, 0xffff],
    [0x1f300, 0x1f6ff], [0x10000, 0x1007f], [0xe0000, 0xe007f],
  ];
  let s = "";
  for (let n = int(r, 0, 12); n > 0; n--) {
    const [lo, hi] = pick(r, ranges);
    s += String.fromCodePoint(int(r, lo, hi));
  }
  return s;
}

const quote = (s: string): string => JSON.stringify(s);

/** A JSON value as text, of any type; strings come from `strings`. */
function anyValue(r: Rng, strings: () => string, depth = 0): string {
  const roll = r();
  if (roll < 0.3) return quote(strings());
  if (roll < 0.38) return pick(r, ["null", "true", "false"]);
  if (roll < 0.55) return number(r);
  if (roll < 0.63) return quote(pick(r, ["3", " 7 ", "-2", "+4", "1_0", "1__0", "0x10", "3.5", "x", "٣", "१२", " ", "", "1e3", "00012", "-0", "9".repeat(int(r, 20, 60))]));
  if (roll < 0.7) return quote(unicodeText(r));
  if (depth > 3) return "[]";
  if (roll < 0.85) return `[${Array.from({ length: int(r, 0, 3) }, () => anyValue(r, strings, depth + 1)).join(", ")}]`;
  return `{${Array.from({ length: int(r, 0, 3) }, () => `${quote(pick(r, ["a", "k", "query", "", "é"]))}: ${anyValue(r, strings, depth + 1)}`).join(", ")}}`;
}

function number(r: Rng): string {
  const roll = r();
  if (roll < 0.35) return String(int(r, -5, 60));
  if (roll < 0.5) return pick(r, ["0", "-0", "3.0", "-0.0", "2.5", "-3.7", "0.5", "1e2", "1E-2", "1e400", "-1e400", "NaN", "Infinity", "-Infinity", "1.5e308", "4.9e-324"]);
  if (roll < 0.65) return (r() * 10 ** int(r, -8, 30) * (r() < 0.3 ? -1 : 1)).toString().replace("e+", "e");
  if (roll < 0.88) return `${r() < 0.2 ? "-" : ""}${int(r, 1, 9)}${"0123456789"[int(r, 0, 9)]!.repeat(int(r, 15, 40))}`;
  if (roll < 0.9) return `${int(r, 1, 9)}${"7".repeat(int(r, 4290, 5200))}`; // past CPython's 4,300-digit limit
  return String(2 ** int(r, 31, 70));
}

/** Deeply nested arrays around a scalar (CPython and V8 both cope well below 500 levels). */
function nested(r: Rng, inner: string): string {
  const n = int(r, 1, 400);
  return "[".repeat(n) + inner + "]".repeat(n);
}

/** Text that is not a JSON object: broken, or valid JSON of another type. */
function notAnObject(r: Rng, valid: string): string {
  return pick(r, [
    "", "null", "[1, 2]", '"text"', "42", "{", "}", "{'query': 'x'}", valid.slice(0, Math.max(0, valid.length - 1)),
    `${valid} x`, `${valid}${valid}`, `\ufeff${valid}`, " ", `  ${valid}\n`, "{\"a\": 1,}", "[]", "{}",
    "{\"a\" 1}", "NaN", "tru", "{\"\\x\": 1}", "{\"a\": \"\u0001\"}", "{\"a\": \"\\ud800\"}", nested(r, "1"),
  ]);
}

function expression(r: Rng, depth = 0): string {
  const roll = r();
  if (depth > 4 || roll < 0.3) {
    const o = r();
    if (o < 0.4) return String(int(r, 0, 1000));
    if (o < 0.6) return (r() * 100).toFixed(int(r, 0, 6));
    if (o < 0.7) return String(r() * 10 ** int(r, -20, 20));
    return pick(r, ["0", "0.0", "1e308", "1e-320", "True", "False", "0x1f", "0o17", "0b101", "1_000", ".5", "5.", "2.5e3", "9".repeat(int(r, 16, 320))]);
  }
  if (roll < 0.42) return `${pick(r, ["-", "+", "- ", "--"])}${expression(r, depth + 1)}`;
  const op = pick(r, ["+", "-", "*", "/", "//", "%", "**", "**", "/", "%"]);
  const inner = `${expression(r, depth + 1)} ${op} ${expression(r, depth + 1)}`;
  return r() < 0.7 ? `(${inner})` : inner;
}

// The fuzz's fragments once each, and three only the parity vectors add.
const PIECES = [...new Set(CALCULATOR_PIECES), "'\\d'", "1if 2else 3", "ℌ"];

const CALC_CASES = [
  "330 * 3.28084", "1/3", "2**0.5", "0.1+0.2", "123456.7", "123456789.5", "1e-7", "0.00001234", "999998.5",
  "999999.5", "-2**2", "2**-1", "-7 % 3", "7 % -3", "1 // 0.1", "7 // 0.1", "-7.5 // 2", "0**0", "0 ** -1", "1/0",
  "1 % 0", "1 // 0", "2 ** 1024", "1e999", "1e308*10-1e308*10", "(-8)**(1/3)", "(-8)**(1/3) % 2", "(-1)**0.5 // 1",
  "(-8)**(1/3) + 1/0", "1/0 + x", "x + 1/0", "two ** ten", "__import__('os').system('echo hi')", "", " 1", "(1",
  "1)", "1e", "1__0", "01", "1\n", "(1\n+2)", "1\n2", "1 # c", "1 if 2 else 3", "[1]", "1,2", "not 1", "~1", "1 < 2",
  "1j", "'a'", "b'x'", "None", "...", "f'{1}'", "lambda: 1", "x", "1 @ 2", "1 << 2", "(1)(2)", "1 .real",
  "10**400", "2**53 + 1", "9007199254740993", "-0.0", "0.0 * -1", "(-0.0) ** 0.5", "1e-320 / 1e10", "1e308 + 1e308",
  "(-1e308 * 10) ** 0", "(1e308 * 10) ** 0", "1 ** (1e308*10 - 1e308*10)", "(-1) ** (1e308*10)", "(-8) ** 0.5 * 0",
  "((-8)**0.5) ** 2", "(-8)**0.5 / 0", "(-2) ** 0.5 ** 2", "4 ** 0.5", "(-27) ** (1/3) * (-27) ** (1/3)",
];

/** Deep shapes near each of CPython's limits: brackets, the parser stack, the tree conversion, evaluation. */
function deepExpression(r: Rng): string {
  const shape = int(r, 0, 7);
  switch (shape) {
    case 0: {
      const n = int(r, 190, 210);
      return "(".repeat(n) + "1" + ")".repeat(n);
    }
    case 1:
      return "1+".repeat(int(r, 985, 1005)) + "1";
    case 2:
      return "1+".repeat(int(r, 2975, 2995)) + "1";
    case 3:
      return "-".repeat(int(r, 990, 3100)) + "1";
    case 4:
      return "2**".repeat(int(r, 990, 1000)) + "1";
    case 5:
      return "lambda:".repeat(int(r, 1, 300)) + "1";
    case 6:
      return "not ".repeat(int(r, 1, 1500)) + "1";
    default:
      return "x+".repeat(int(r, 990, 3000)) + "1/0";
  }
}

/** Each deep shape at every depth from just below to just above each limit CPython has for it. */
export function boundaryExpressions(): string[] {
  const around = (lo: number, hi: number, make: (n: number) => string): string[] =>
    Array.from({ length: hi - lo + 1 }, (_, i) => make(lo + i));
  return [
    ...around(197, 203, (n) => "(".repeat(n) + "1" + ")".repeat(n)), // the tokenizer's 200 brackets
    ...around(197, 203, (n) => "[".repeat(n) + "1" + "]".repeat(n)),
    ...around(197, 203, (n) => "f(".repeat(n) + ")".repeat(n)),
    ...around(990, 997, (n) => "1+".repeat(n) + "1"), // evaluation's 995 levels
    ...around(990, 997, (n) => "2**".repeat(n) + "1"),
    ...around(990, 997, (n) => "x+".repeat(n) + "1/0"),
    ...around(2979, 2988, (n) => "1+".repeat(n) + "1"), // the tree conversion's 2,985 levels
    ...around(2979, 2988, (n) => "not ".repeat(n) + "1"),
    ...around(2979, 2992, (n) => "lambda:".repeat(n) + "1"), // then the parser's own stack
    ...around(2979, 2988, (n) => "x+".repeat(n) + "1/0"),
    ...around(2980, 2990, (n) => "x" + ".a".repeat(n)), // postfix chains: no brackets nest
    ...around(2980, 2990, (n) => "x" + "[0]".repeat(n)),
    ...around(2980, 2990, (n) => "f" + "()".repeat(n)),
    ...around(2980, 2990, (n) => "f" + "(a=1)".repeat(n)),
    ...around(2980, 2990, (n) => "1 if 1 else ".repeat(n) + "1"),
    ...[1000, 3000, 5990, 6000, 6010, 12000].map((n) => "-".repeat(n) + "1"),
    ...[1000, 3000, 6000, 12000].map((n) => "(".repeat(n)),
  ];
}

function calculatorExpr(r: Rng): string {
  const roll = r();
  if (roll < 0.35) return expression(r);
  if (roll < 0.6) {
    let s = "";
    for (let n = int(r, 1, 14); n > 0; n--) s += pick(r, PIECES) + (r() < 0.3 ? " " : "");
    return s;
  }
  if (roll < 0.8) return pick(r, CALC_CASES);
  if (roll < 0.82) return deepExpression(r);
  if (roll < 0.92) return unicodeText(r);
  return `${expression(r)}${pick(r, [" ", "\n", "  # note", "\t", ")", "("])}`;
}

function queryText(r: Rng): string {
  const roll = r();
  if (roll < 0.6) return Array.from({ length: int(r, 0, 6) }, () => pick(r, WORDS)).join(pick(r, [" ", ", ", "-", "_", "\n", "'"]));
  if (roll < 0.8) return unicodeText(r);
  return pick(r, ["", " ", "!!!", "Eiffel Tower", "eiffel tower eiffel", "A B C", "x".repeat(300)]);
}

/** A value for one parameter: usually its own kind, often something else. */
function valueFor(r: Rng, strings: () => string, integers: () => string): string {
  const roll = r();
  if (roll < 0.55) return quote(strings());
  if (roll < 0.7) return integers();
  if (roll < 0.97) return anyValue(r, strings);
  return nested(r, quote(strings()));
}

const GENERATORS: Record<string, (r: Rng) => Record<string, string>> = {
  boundary_action: (r) => ({ action: valueFor(r, () => pick(r, ["delete_user", "read_file", ""]) + unicodeText(r), () => number(r)) }),
  search: (r) => ({
    query: valueFor(r, () => queryText(r), () => number(r)),
    k: r() < 0.6 ? String(int(r, -30, 30)) : valueFor(r, () => pick(r, ["3", "-1", " 2 ", "x", "1_0", "٢", "9".repeat(int(r, 1, 5000))]), () => number(r)),
  }),
  calculator: (r) => ({ expr: r() < 0.8 ? quote(calculatorExpr(r)) : valueFor(r, () => calculatorExpr(r), () => number(r)) }),
  search_rooms: (r) => ({
    capacity: r() < 0.5 ? String(int(r, -5, 25)) : valueFor(r, () => pick(r, ["4", "0", "", "x", " 12 ", "-3", "١٠", "9".repeat(int(r, 1, 5000))]), () => number(r)),
    day: valueFor(r, () => pick(r, DAYS), () => number(r)),
  }),
  request_approval: (r) => ({ summary: valueFor(r, () => pick(r, ["Book R4 on tuesday", ""]) + unicodeText(r), () => number(r)) }),
  save_progress: (r) => ({ note: valueFor(r, () => pick(r, ["Found 330 m", ""]) + unicodeText(r), () => number(r)) }),
  book_room: (r) => ({ room_id: valueFor(r, () => pick(r, ROOM_IDS), () => number(r)) }),
};

/** One call's argument text: the fields, some dropped, some repeated, some extra — or not an object at all. */
function argumentsText(r: Rng, fields: Record<string, string>): string {
  const parts: string[] = [];
  for (const [key, value] of Object.entries(fields)) {
    if (r() < 0.12) continue; // missing
    parts.push(`${quote(key)}: ${value}`);
    if (r() < 0.04) parts.push(`${quote(key)}: ${anyValue(r, () => "again")}`); // repeated: the last one wins
  }
  if (r() < 0.15) parts.push(`${quote(pick(r, ["extra", "K", "Query", "expr ", "é", ""]))}: ${anyValue(r, () => "x")}`);
  if (r() < 0.2) parts.sort(() => (r() < 0.5 ? -1 : 1));
  const text = `{${parts.join(pick(r, [", ", ",", " ,\n "]))}}`;
  return r() < 0.07 ? notAnObject(r, text) : text;
}

/** `perTool` calls for every canonical tool, then a few for names that are no tool. */
export function parityVectors(seed: number, perTool: number): ToolCall[] {
  const calls: ToolCall[] = [];
  for (const name of TOOL_NAMES) {
    if (!toolDefinition(name)) throw new Error(`no definition for ${name}`);
    const r = mulberry32(seed + calls.length);
    for (let n = 0; n < perTool; n++) calls.push({ name, arguments: argumentsText(r, GENERATORS[name]!(r)) });
  }
  for (const expr of boundaryExpressions()) calls.push({ name: "calculator", arguments: JSON.stringify({ expr }) });
  const r = mulberry32(seed - 1);
  for (const name of ["teleport", "Search", "search ", "", "it's", "say \"hi\"", "o'k \"x\"", "é", "__proto__", "constructor", "toString", "\ud800"]) {
    calls.push({ name, arguments: argumentsText(r, { query: quote("x") }) });
  }
  return calls;
}
