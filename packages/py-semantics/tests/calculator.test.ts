import { describe, expect, it } from "vitest";
import { PyError } from "../src/index.ts";
import { calculator } from "../src/calculator/index.ts";

/** What the model sees: calculator's string, or the error dispatch makes of a raised PyError. */
function run(expr: string): string {
  try {
    return calculator(expr);
  } catch (err) {
    if (err instanceof PyError) return `ERROR: tool 'calculator' raised ${err.message}`;
    throw err;
  }
}

const evalError = (expr: string, reason: string): string => `ERROR: could not evaluate ${expr} (${reason})`;
const syntax = (reason: string, line = 1): string => `${reason} (<unknown>, line ${line})`;

describe("calculator: results (tools.md §4)", () => {
  it.each([
    ["17 * 23 + 4", "395"],
    ["144 / 12 - 5", "7"],
    ["0.15 * 240", "36"],
    ["1e20", "100000000000000000000"],
    ["330 * 3.28084", "1082.68"],
    ["1/3", "0.333333"],
    ["2/3", "0.666667"],
    ["2**0.5", "1.41421"],
    ["0.1+0.2", "0.3"],
    ["123456.7", "123457"],
    ["123456789.5", "1.23457e+08"],
    ["1e-7", "1e-07"],
    ["0.00001234", "1.234e-05"],
    ["999998.5", "999998"],
    ["999999.5", "1e+06"],
    ["1644 - 1368", "276"],
    ["-0.0", "0"],
  ])("%s → %s", (expr, out) => {
    expect(run(expr)).toBe(out);
  });

  it.each([
    ["7", "7"],
    ["1_000", "1000"],
    ["0x10", "16"],
    ["0o7", "7"],
    ["0b1", "1"],
    ["2.5", "2.5"],
    [".5", "0.5"],
    ["5.", "5"],
    ["2.5e3", "2500"],
    ["True", "1"],
    ["False", "0"],
    ["True + True", "2"],
    ["0X1F + 0O17 + 0B101", "51"],
    ["1_000.000_1", "1000"],
    ["00", "0"],
    ["09.5", "9.5"],
  ])("numeric literal %s → %s", (expr, out) => {
    expect(run(expr)).toBe(out);
  });

  it.each([
    ["-2**2", "-4"],
    ["2**-1", "0.5"],
    ["2**3**2", "512"],
    ["(2**3)**2", "64"],
    ["-2**-2", "-0.25"],
    ["2*3+4*5", "26"],
    ["(1 + 2) * 3", "9"],
    ["10 - 2 - 3", "5"],
    ["2 ** - 1", "0.5"],
    ["--3", "3"],
    ["+-+3", "-3"],
  ])("precedence %s → %s", (expr, out) => {
    expect(run(expr)).toBe(out);
  });

  it.each([
    ["-7 % 3", "2"],
    ["7 % -3", "-2"],
    ["-7.5 // 2", "-4"],
    ["1 // 0.1", "9"],
    ["7 // 0.1", "69"],
    ["0**0", "1"],
    ["(-8)**2", "64"],
    ["(-2)**3", "-8"],
    ["(-1)**1e999", "1"],
    ["1**(1e999-1e999)", "1"],
    ["(1e999-1e999)**0", "1"],
    ["2**-1074", "4.94066e-324"],
    ["10**-400", "0"],
  ])("Python float semantics %s → %s", (expr, out) => {
    expect(run(expr)).toBe(out);
  });

  it("accepts comments, newlines inside brackets and trailing whitespace", () => {
    expect(run("1 + 2 # three")).toBe("3");
    expect(run("(1 +\n 2)")).toBe("3");
    expect(run("(1 # one\n + 2)")).toBe("3");
    expect(run("1 + 2   ")).toBe("3");
    expect(run("1 + 2\n")).toBe("3");
    expect(run("1 + \\\n2")).toBe("3");
    expect(run("(1 +\r\n2)")).toBe("3");
  });
});

describe("calculator: errors (tools.md §4)", () => {
  it.each([
    ["", evalError("''", syntax("invalid syntax", 0))],
    ["two ** ten", evalError("'two ** ten'", "unsupported expression")],
    [
      "__import__('os').system('echo hi')",
      evalError(`"__import__('os').system('echo hi')"`, "unsupported expression"),
    ],
    ["1/0", evalError("'1/0'", "float division by zero")],
    ["1 % 0", evalError("'1 % 0'", "float modulo")],
    ["1 // 0", evalError("'1 // 0'", "float floor division by zero")],
    ["0 ** -1", evalError("'0 ** -1'", "0.0 cannot be raised to a negative power")],
    ["2 ** 1024", evalError("'2 ** 1024'", "(34, 'Numerical result out of range')")],
    ["9" + "9".repeat(400), evalError(`'${"9".repeat(401)}'`, "int too large to convert to float")],
    ["1e999", "ERROR: tool 'calculator' raised cannot convert float infinity to integer"],
    ["1e308*10-1e308*10", "ERROR: tool 'calculator' raised cannot convert float NaN to integer"],
    [
      "(-8)**(1/3)",
      "ERROR: tool 'calculator' raised int() argument must be a string, a bytes-like object or a real number, not 'complex'",
    ],
  ])("%j", (expr, out) => {
    expect(run(expr)).toBe(out);
  });

  it("raises the formatting-step errors instead of returning them", () => {
    expect(() => calculator("1e999")).toThrow(PyError);
    expect(() => calculator("(-8)**(1/3)")).toThrow(
      "int() argument must be a string, a bytes-like object or a real number, not 'complex'",
    );
  });

  it.each([
    ["'a'", "unsupported constant: 'a'"],
    ['"o\'k"', `unsupported constant: "o'k"`],
    ["None", "unsupported constant: None"],
    ["b'x'", "unsupported constant: b'x'"],
    ["...", "unsupported constant: Ellipsis"],
    ["1j", "unsupported constant: 1j"],
    ["1.5j", "unsupported constant: 1.5j"],
    ["1e20j", "unsupported constant: 1e+20j"],
    ["'a' 'b'", "unsupported constant: 'ab'"],
    ["'\\x41\\t'", "unsupported constant: 'A\\t'"],
    ["b'\\xff'", "unsupported constant: b'\\xff'"],
  ])("constant %s → %s", (expr, reason) => {
    expect(run(expr)).toMatch(`(${reason})`);
    expect(run(expr).startsWith("ERROR: could not evaluate ")).toBe(true);
  });

  it.each([
    "x",
    "sqrt(16)",
    "math.pi",
    "x[0]",
    "1 < 2",
    "not 1",
    "~1",
    "1 << 2",
    "2 ^ 10",
    "1 & 1",
    "1 @ 2",
    "1, 2",
    "(1, 2)",
    "[1]",
    "{1: 2}",
    "{1}",
    "1 if 1 else 2",
    "lambda: 1",
    "(x := 1)",
    "1 and 2",
    "f'{1}'",
    "[x for x in y]",
    "await x",
    "(yield)",
  ])("%s is an unsupported expression", (expr) => {
    expect(run(expr)).toMatch(/\(unsupported expression\)$/);
  });

  it("evaluates depth-first, left operand first", () => {
    expect(run("1/0 + x")).toBe(evalError("'1/0 + x'", "float division by zero"));
    expect(run("x + 1/0")).toBe(evalError("'x + 1/0'", "unsupported expression"));
    expect(run("'a' + 1/0")).toBe(evalError(`"'a' + 1/0"`, "unsupported constant: 'a'"));
    expect(run("1/0 + 'a'")).toBe(evalError(`"1/0 + 'a'"`, "float division by zero"));
    // An unsupported operator is rejected before its operands are evaluated.
    expect(run("1/0 << 2")).toBe(evalError("'1/0 << 2'", "unsupported expression"));
    expect(run("2**1024 * x")).toBe(evalError("'2**1024 * x'", "(34, 'Numerical result out of range')"));
  });

  it("follows a complex value through the arithmetic", () => {
    expect(run("(-8)**(1/3)//2")).toBe(
      evalError("'(-8)**(1/3)//2'", "unsupported operand type(s) for //: 'complex' and 'float'"),
    );
    expect(run("2 % (-1)**0.5")).toBe(
      evalError("'2 % (-1)**0.5'", "unsupported operand type(s) for %: 'float' and 'complex'"),
    );
    expect(run("(-8)**(1/3)/0")).toBe(evalError("'(-8)**(1/3)/0'", "complex division by zero"));
    expect(run("0**(-8)**0.5")).toBe(evalError("'0**(-8)**0.5'", "0.0 to a negative or complex power"));
    expect(run("((-1)**0.5*1e300)**2.5")).toBe(evalError("'((-1)**0.5*1e300)**2.5'", "complex exponentiation"));
  });
});

describe("calculator: CPython syntax-error reasons (tools.md §4)", () => {
  it.each([
    [" 1", syntax("unexpected indent")],
    ["\t1", syntax("unexpected indent")],
    ["(1 + 2", syntax("'(' was never closed")],
    ["[1", syntax("'[' was never closed")],
    ["(1 +\n2", syntax("'(' was never closed")],
    ["1 + 2)", syntax("unmatched ')'")],
    ["]", syntax("unmatched ']'")],
    ["(1]", syntax("closing parenthesis ']' does not match opening parenthesis '('")],
    ["1e", syntax("invalid decimal literal")],
    ["1__0", syntax("invalid decimal literal")],
    ["12abc", syntax("invalid decimal literal")],
    ["0x", syntax("invalid hexadecimal literal")],
    ["0b2", syntax("invalid digit '2' in binary literal")],
    ["0o8", syntax("invalid digit '8' in octal literal")],
    [
      "01",
      syntax("leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers"),
    ],
    ["1 +", syntax("invalid syntax")],
    ["1 2", syntax("invalid syntax")],
    ["x = 5", syntax("invalid syntax")],
    ["5!", syntax("invalid syntax")],
    ["$100", syntax("invalid syntax")],
    ["#only a comment", syntax("invalid syntax")],
    ["1\n2", syntax("invalid syntax", 2)],
    ["(1\n+)", syntax("invalid syntax", 2)],
    ["3 × 4", syntax("invalid character '×' (U+00D7)")],
    ["1\u00a0+ 1", syntax("invalid non-printable character U+00A0")],
    ["'abc", syntax("unterminated string literal (detected at line 1)")],
    ["1 +\\", syntax("unexpected character after line continuation character")],
    ["1 +\\\n", syntax("unexpected EOF while parsing")],
    ["(" .repeat(201), syntax("too many nested parentheses")],
    ["(1 2)", syntax("invalid syntax. Perhaps you forgot a comma?")],
    ["1 if 2", syntax("expected 'else' after 'if' expression")],
    ["print 1", syntax("Missing parentheses in call to 'print'. Did you mean print(...)?")],
    ["(x = 1)", syntax("invalid syntax. Maybe you meant '==' or ':=' instead of '='?")],
    ["'\\x4'", syntax("(unicode error) 'unicodeescape' codec can't decode bytes in position 0-2: truncated \\xXX escape")],
    ["'a' b'b'", syntax("cannot mix bytes and nonbytes literals")],
    ["f'{}'", syntax("f-string: empty expression not allowed")],
  ])("%j", (expr, reason) => {
    const out = run(expr);
    expect(out.startsWith("ERROR: could not evaluate ")).toBe(true);
    expect(out.endsWith(` (${reason})`)).toBe(true);
  });

  it("reports what compile() rejects before parsing", () => {
    expect(run("1\u0000")).toBe(evalError("'1\\x00'", "source code string cannot contain null bytes"));
    expect(run("\ud800")).toBe(
      evalError("'\\ud800'", "'utf-8' codec can't encode character '\\ud800' in position 0: surrogates not allowed"),
    );
    expect(run("a\ud800\udbffb")).toBe(
      evalError("'a\\ud800\\udbffb'", "'utf-8' codec can't encode characters in position 1-2: surrogates not allowed"),
    );
  });

  it("names the over-long decimal literal", () => {
    expect(run("1".repeat(4301))).toMatch(
      / \(Exceeds the limit \(4300 digits\) for integer string conversion: value has 4301 digits; use sys\.set_int_max_str_digits\(\) to increase the limit - Consider hexadecimal for huge integer literals to avoid decimal conversion limits\. \(<unknown>, line 1\)\)$/,
    );
  });
});
