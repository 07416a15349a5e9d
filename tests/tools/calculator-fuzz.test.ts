/**
 * Robustness: whatever the model sends, the calculator answers with a string in bounded time and
 * never crashes the worker — no stack overflow on deep nesting, no stray JS exception. The only
 * thing it may throw is the documented PyError of the formatting step (non-finite or complex
 * result), which dispatch turns into a string as well.
 */
import { describe, expect, it } from "vitest";
import { PyError } from "@agentic-arena/py-semantics";
import { calculator, dispatch } from "../../contract/tools/index.ts";
import { mulberry32 } from "../../orchestrator/stats/prng.ts";
import { CALCULATOR_PIECES } from "./support/calculator-pieces.ts";

const rng = mulberry32;


const FORMAT_ERRORS = new Set([
  "cannot convert float infinity to integer",
  "cannot convert float NaN to integer",
  "int() argument must be a string, a bytes-like object or a real number, not 'complex'",
]);

function check(expr: string): void {
  let out: string;
  try {
    out = calculator(expr);
  } catch (err) {
    expect(err).toBeInstanceOf(PyError);
    expect(FORMAT_ERRORS.has((err as PyError).message)).toBe(true);
    out = "raised";
  }
  expect(typeof out).toBe("string");
  const viaDispatch = dispatch("calculator", { expr }, { corpus: [] });
  expect(typeof viaDispatch).toBe("string");
}

describe("calculator fuzz (seeded)", () => {
  it("answers every random token soup with a string", () => {
    const random = rng(20240611);
    const started = Date.now();
    for (let n = 0; n < 3000; n++) {
      const count = 1 + Math.floor(random() * 14);
      let expr = "";
      for (let k = 0; k < count; k++) {
        expr += CALCULATOR_PIECES[Math.floor(random() * CALCULATOR_PIECES.length)]!;
        if (random() < 0.3) expr += " ";
      }
      check(expr);
    }
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it("answers random arithmetic with a number or an error string", () => {
    const random = rng(7);
    const operand = (): string => {
      const r = random();
      if (r < 0.4) return String(Math.floor(random() * 1000));
      if (r < 0.7) return (random() * 100).toFixed(Math.floor(random() * 6));
      return String(random() * 10 ** Math.floor(random() * 40 - 20));
    };
    const expr = (depth: number): string => {
      if (depth > 4 || random() < 0.3) return operand();
      if (random() < 0.2) return `-${expr(depth + 1)}`;
      const op = ["+", "-", "*", "/", "//", "%", "**"][Math.floor(random() * 7)]!;
      return `(${expr(depth + 1)} ${op} ${expr(depth + 1)})`;
    };
    for (let n = 0; n < 2000; n++) check(expr(0));
  });
});

describe("calculator on deep and huge input", () => {
  it.each([
    ["10k open parentheses", "(".repeat(10_000), "too many nested parentheses (<unknown>, line 1)"],
    ["10k balanced parentheses", "(".repeat(10_000) + "1" + ")".repeat(10_000), "too many nested parentheses (<unknown>, line 1)"],
    ["100k brackets", "[".repeat(100_000), "too many nested parentheses (<unknown>, line 1)"],
    ["10k closers", ")".repeat(10_000), "unmatched ')' (<unknown>, line 1)"],
    ["5k unary minus", "-".repeat(5_000) + "1", "maximum recursion depth exceeded during ast construction"],
    ["1k unary minus", "-".repeat(1_000) + "1", "maximum recursion depth exceeded"],
    ["10k unary minus", "-".repeat(10_000) + "1", ""],
    ["20k 'not'", "not ".repeat(20_000) + "1", ""],
    ["5k power chain", "2**".repeat(5_000) + "2", ""],
    ["10k lambdas", "lambda:".repeat(10_000) + "1", ""],
    ["10k conditionals", "1 if 1 else ".repeat(10_000) + "1", ""],
    ["50k additions", "1+".repeat(50_000) + "1", "maximum recursion depth exceeded during ast construction"],
    ["200 parentheses around 1k unary", "(".repeat(200) + "-".repeat(1_000) + "1" + ")".repeat(200), ""],
  ])("%s", (_name, expr, reason) => {
    const out = calculator(expr);
    expect(out.startsWith("ERROR: could not evaluate ")).toBe(true);
    expect(out.endsWith(` (${reason})`)).toBe(true);
  });

  it("still evaluates 200 nested parentheses", () => {
    expect(calculator("(".repeat(200) + "6*7" + ")".repeat(200))).toBe("42");
    expect(calculator("-(".repeat(150) + "1" + ")".repeat(150))).toBe("1");
  });

  it("handles long flat input", () => {
    expect(calculator("+".repeat(900) + "1")).toBe("1");
    expect(calculator(`'${"a".repeat(100_000)}'`)).toMatch(/\(unsupported constant: 'a+'\)$/);
    expect(calculator(`0x${"f".repeat(100_000)}`)).toMatch(/\(int too large to convert to float\)$/);
  });
});
