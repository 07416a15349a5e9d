/**
 * The evaluator: literals (each converted to a float first), parentheses, binary `+ - * / // % **`
 * and unary `+ -`; every other node is rejected *before* its children are looked at. Evaluation
 * is depth-first, left operand first, so the first failing node decides the message. Nothing is
 * ever looked up or called: names, calls and attributes are just "unsupported expression".
 */
import type { BinOperator, Constant, Expr } from "./ast.ts";
import {
  complexAdd,
  complexDiv,
  complexMul,
  complexNeg,
  complexPow,
  complexSub,
  isComplex,
  toComplex,
  type Complex,
} from "./complex.ts";
import { CalcError, overflow, typeError } from "./errors.ts";
import { reprBytes, reprCodePoints, reprImaginary } from "./literals.ts";
import { floatDiv, floatFloorDiv, floatMod, floatPow } from "./pyfloat.ts";

export type Value = number | Complex;

/**
 * Python's recursion limit (1000) minus the frames the reference tool already uses when it starts
 * evaluating; a deeper tree fails with RecursionError there.
 */
const EVAL_DEPTH_LIMIT = 995;

const ARITHMETIC: ReadonlySet<BinOperator> = new Set(["+", "-", "*", "/", "//", "%", "**"]);

/** Evaluate the body of `Expression(body)` (the Expression node itself is depth 1). */
export function evaluate(body: Expr): Value {
  return evaluateNode(body, 2);
}

function evaluateNode(e: Expr, depth: number): Value {
  if (depth > EVAL_DEPTH_LIMIT) throw new CalcError("RecursionError", "maximum recursion depth exceeded");
  switch (e.type) {
    case "Constant":
      return constantValue(e.value);
    case "BinOp":
      if (!ARITHMETIC.has(e.op)) break;
      return binary(e.op, evaluateNode(e.left, depth + 1), evaluateNode(e.right, depth + 1));
    case "UnaryOp":
      if (e.op === "-") {
        const v = evaluateNode(e.operand, depth + 1);
        return isComplex(v) ? complexNeg(v) : -v;
      }
      if (e.op === "+") return evaluateNode(e.operand, depth + 1);
      break;
  }
  throw new CalcError("ValueError", "unsupported expression");
}

function constantValue(c: Constant): number {
  switch (c.kind) {
    case "float":
      return c.value;
    case "bool":
      return c.value ? 1 : 0;
    case "int": {
      const f = Number(c.value); // rounds half to even, like PyLong_AsDouble
      if (!Number.isFinite(f)) throw overflow("int too large to convert to float");
      return f;
    }
    case "complex":
      throw unsupportedConstant(reprImaginary(c.imag));
    case "str":
      throw unsupportedConstant(reprCodePoints(c.codePoints));
    case "bytes":
      throw unsupportedConstant(reprBytes(c.bytes));
    case "None":
      throw unsupportedConstant("None");
    case "Ellipsis":
      throw unsupportedConstant("Ellipsis");
  }
}

function unsupportedConstant(repr: string): CalcError {
  return new CalcError("ValueError", `unsupported constant: ${repr}`);
}

const typeName = (v: Value): string => (isComplex(v) ? "complex" : "float");

function binary(op: BinOperator, a: Value, b: Value): Value {
  if (!isComplex(a) && !isComplex(b)) {
    switch (op) {
      case "+":
        return a + b;
      case "-":
        return a - b;
      case "*":
        return a * b;
      case "/":
        return floatDiv(a, b);
      case "//":
        return floatFloorDiv(a, b);
      case "%":
        return floatMod(a, b);
      default:
        return floatPow(a, b);
    }
  }
  const x = toComplex(a);
  const y = toComplex(b);
  switch (op) {
    case "+":
      return complexAdd(x, y);
    case "-":
      return complexSub(x, y);
    case "*":
      return complexMul(x, y);
    case "/":
      return complexDiv(x, y);
    case "**":
      return complexPow(x, y);
    default:
      throw typeError(`unsupported operand type(s) for ${op}: '${typeName(a)}' and '${typeName(b)}'`);
  }
}
