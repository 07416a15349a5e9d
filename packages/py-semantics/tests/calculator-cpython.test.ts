/**
 * Differential cases: each expected output was produced by CPython 3.11.7 running the reference
 * calculator's semantics (`ast.parse(expr, mode="eval")`, float evaluation, `{:.6g}` formatting),
 * with a raised formatting error shown as the tool dispatcher shows it (tools.md §3). The inputs are hand-picked edge cases
 * plus a spread of seeded random token soups and arithmetic, covering every distinct kind of
 * outcome those produced.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PyError } from "../src/index.ts";
import { calculator } from "../src/calculator/index.ts";

/** A result that is not a finite real raises; the dispatcher reports it as the tool having raised. */
function asDispatched(expr: string): string {
  try {
    return calculator(expr);
  } catch (err) {
    if (err instanceof PyError) return `ERROR: tool 'calculator' raised ${err.message}`;
    throw err;
  }
}

const cases: [string, string][] = JSON.parse(
  readFileSync(new URL("./calculator-cpython-cases.json", import.meta.url), "utf8"),
);

describe("calculator matches CPython 3.11", () => {
  it("has a meaningful number of cases", () => {
    expect(cases.length).toBeGreaterThan(500);
  });

  it("produces CPython's output for every case", () => {
    const mismatches = cases
      .map(([expr, expected]) => ({ expr, expected, actual: asDispatched(expr) }))
      .filter((c) => c.actual !== c.expected);
    expect(mismatches).toEqual([]);
  });
});
