/**
 * The `calculator` tool (shared spec, tools.md §4): the reference implementation parses the text
 * with `ast.parse(expr, mode="eval")` and evaluates a small arithmetic subset with Python float
 * semantics. This is a from-scratch parser for the same language — no `eval`, `Function` or `vm`
 * anywhere — so that every result and every error text matches CPython 3.11.
 */
import { formatG, PyError, reprString } from "../index.ts";
import { isComplex } from "./complex.ts";
import { CalcError } from "./errors.ts";
import { evaluate, type Value } from "./evaluate.ts";
import { CalcSyntaxError, ParserOverflow, parseEval } from "./parser/index.ts";
import { checkSource } from "./source.ts";

/**
 * CPython's limit for converting a deep AST to Python objects (3 × the recursion limit), minus
 * what the reference's call stack already uses when it parses.
 */
const AST_DEPTH_LIMIT = 2985;

/**
 * Evaluate `expr`. Parse and evaluation failures come back as
 * `ERROR: could not evaluate '<expr>' (<reason>)`; a result that is not a finite real number
 * throws a `PyError` (the reference raises it outside its own error handling, so it surfaces as
 * `ERROR: tool 'calculator' raised ...` through dispatch).
 */
export function calculator(expr: string): string {
  let value: Value;
  try {
    checkSource(expr);
    const body = parseEval(expr);
    // ast.parse wraps the body in an Expression node, one more level.
    if (body.depth + 1 > AST_DEPTH_LIMIT) {
      throw new CalcError("RecursionError", "maximum recursion depth exceeded during ast construction");
    }
    value = evaluate(body);
  } catch (err) {
    return `ERROR: could not evaluate ${reprString(expr)} (${reason(err)})`;
  }
  return formatResult(value);
}

function reason(err: unknown): string {
  if (err instanceof CalcSyntaxError || err instanceof CalcError || err instanceof ParserOverflow) return err.message;
  // Exhausting the JS stack is where CPython exhausts its parser stack: a message-less MemoryError.
  if (err instanceof RangeError) return "";
  return err instanceof Error ? err.message : String(err);
}

/** `str(int(v)) if v == int(v) else f"{v:.6g}"` */
function formatResult(value: Value): string {
  if (isComplex(value)) {
    throw new PyError(
      "TypeError",
      "int() argument must be a string, a bytes-like object or a real number, not 'complex'",
    );
  }
  if (Number.isNaN(value)) throw new PyError("ValueError", "cannot convert float NaN to integer");
  if (!Number.isFinite(value)) throw new PyError("OverflowError", "cannot convert float infinity to integer");
  if (Number.isInteger(value)) return BigInt(value).toString();
  return formatG(value, 6);
}
