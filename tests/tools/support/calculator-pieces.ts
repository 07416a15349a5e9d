/**
 * Fragments of Python (and of things that are not Python) that the calculator fuzzers glue
 * together: numbers of every literal form, keywords, operators, brackets, quotes, escapes and
 * control characters. The in-process fuzz (calculator-fuzz.test.ts) draws from this list as it is,
 * its repeats included (they weight brackets); the TS/Python parity vectors draw from it too.
 */
export const CALCULATOR_PIECES: readonly string[] = [
  "1", "2", "0", "01", "1e", "1e5", "1_0", "0x1f", "0b2", "1.5", ".5", "5.", "1j", "9".repeat(30), "x", "print",
  "lambda", "lambda x:", "if", "else", "for", "in", "not", "and", "or", "is", "None", "True", "await", "yield",
  "+", "-", "*", "/", "//", "%", "**", "@", "<<", "^", "~", "<", "==", "<>", ":=", "=", ":", ",", ".", "...",
  ";", "!", "$", "?", "(", ")", "[", "]", "{", "}", "(", ")", "'a'", "b'x'", "f'{x}'", "f'{'", "'\\x4'", "'",
  '"', "#c", "\\\n", "\\", "\n", " ", "\t", "é", "€", "\u00a0", "\u0001", "\ud800", "\u0000", "\r", "**-1",
  "1/0", "2**1024", "(-8)**0.5", "1e308*10", "for x in y", "*a", "**a", "f(a=1)", "x[1:2]", "(1 2)",
];
