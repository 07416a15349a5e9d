/**
 * One check object of a dataset item (arena-format.md §5, §7). Besides the original's
 * type/field rules, values the scorer would coerce are tried here with the scorer's own Python
 * coercions: the original crashed at scoring time on them, the port fails the check, and the
 * validator makes sure it never gets that far.
 */
import { PyError, pyFloat, pyInt, pyRepr, pyStr, pyTypeName, reprString, type PyDict, type PyValue } from "@agentic-arena/py-semantics";
import { isSuspendTool } from "../../contract/tools/registry.ts";
import { CHECK_FIELDS, CHECK_TYPES, isCheckType, type CheckType } from "../scoring/catalogue.ts";
import { compilePyRegex } from "@agentic-arena/py-semantics/regex";
import { mustBeObject } from "./script-shape.ts";

export interface CheckFindings {
  readonly errors: string[];
  readonly warnings: string[];
}

const INT_FIELDS: Partial<Record<CheckType, readonly string[]>> = {
  min_tool_calls: ["value"],
  max_tool_calls: ["value"],
  suspended: ["value"],
  sentence_count: ["min", "max"],
};

const FLOAT_FIELDS: Partial<Record<CheckType, readonly string[]>> = {
  numeric_equals: ["value", "tol"],
  // `value` is only read as a number when `tol` is present (§5.5); see below.
  json_path_equals: ["tol"],
};

/** Findings for `check`, each already prefixed with `where` (`d-04.checks[1]`). */
export function checkFindings(check: PyValue, where: string): CheckFindings {
  const errors: string[] = [];
  const warnings: string[] = [];
  if (!(check instanceof Map)) {
    errors.push(`${where}: ${mustBeObject(check)}`);
    return { errors, warnings };
  }
  const type = check.get("type");
  if (!isCheckType(type)) {
    errors.push(`${where}: unknown check type ${pyRepr(type ?? null)} (known: ${CHECK_TYPES.join(", ")})`);
    return { errors, warnings };
  }
  const { required, optional } = CHECK_FIELDS[type] as { required: readonly string[]; optional: readonly string[] };
  for (const field of required) {
    if (!check.has(field)) errors.push(`${where}: ${reprString(type)} requires ${reprString(field)}`);
  }
  for (const field of check.keys()) {
    if (field !== "type" && !required.includes(field) && !optional.includes(field)) {
      warnings.push(`${where}: ${reprString(type)} ignores unknown field ${reprString(field)}`);
    }
  }
  for (const text of valueProblems(type, check)) errors.push(`${where}: ${text}`);
  return { errors, warnings };
}

function coercionProblem(type: CheckType, field: string, what: string, coerce: (v: PyValue) => unknown, v: PyValue): string | undefined {
  try {
    coerce(v);
    return undefined;
  } catch (err) {
    if (!(err instanceof PyError)) throw err;
    return `${reprString(type)} field ${reprString(field)} is not ${what} (${err.message})`;
  }
}

function valueProblems(type: CheckType, check: PyDict): string[] {
  const out: string[] = [];
  const present = (field: string) => check.has(field);
  for (const field of INT_FIELDS[type] ?? []) {
    if (present(field)) {
      const p = coercionProblem(type, field, "an integer", pyInt, check.get(field)!);
      if (p) out.push(p);
    }
  }
  const floatFields = [...(FLOAT_FIELDS[type] ?? [])];
  if (type === "json_path_equals" && present("tol")) floatFields.push("value");
  for (const field of floatFields) {
    if (present(field)) {
      const p = coercionProblem(type, field, "a number", pyFloat, check.get(field)!);
      if (p) out.push(p);
    }
  }
  if (present("tol")) {
    const p = tolProblem(type, check.get("tol")!);
    if (p) out.push(p);
  }
  if (type === "iregex" && present("value")) {
    const p = regexProblem(check.get("value")!);
    if (p) out.push(p);
  }
  if (type === "call_counts" && present("counts")) out.push(...countsProblems(check.get("counts")!));
  if (type === "json_schema" && present("schema")) {
    const schema = check.get("schema")!;
    if (!(schema instanceof Map)) out.push(`'json_schema' field 'schema' must be an object, got ${pyTypeName(schema)}`);
  }
  if (type === "tool_used" && present("name")) {
    const name = pyStr(check.get("name")!);
    // The harness never records suspend tools as tool calls (harness.md §3), so this cannot pass.
    if (isSuspendTool(name)) out.push(`'tool_used' expects tool ${reprString(name)}, which is a suspend tool and is never recorded as a tool call`);
  }
  return out;
}

/**
 * A tolerance the scorer would take but that decides the check by itself: `|a - v| <= tol` is
 * never true for a negative or NaN `tol` (the item can never pass), and always true for an
 * infinite one (`1e999` reads as inf: it can never fail).
 */
function tolProblem(type: CheckType, value: PyValue): string | undefined {
  let tol: number;
  try {
    tol = pyFloat(value);
  } catch {
    return undefined; // not a number at all: reported by the coercion check above
  }
  const field = `${reprString(type)} field 'tol'`;
  if (Number.isNaN(tol)) return `${field} is nan: the check can never pass`;
  if (!Number.isFinite(tol)) return `${field} is infinite: the check can never fail`;
  if (tol < 0) return `${field} is negative (${pyRepr(value)}): the check can never pass`;
  return undefined;
}

function regexProblem(value: PyValue): string | undefined {
  if (typeof value !== "string") return `'iregex' field 'value' must be a string, got ${pyTypeName(value)}`;
  try {
    compilePyRegex(value);
    return undefined;
  } catch (err) {
    return `'iregex' pattern ${reprString(value)} does not compile (${err instanceof Error ? err.message : String(err)})`;
  }
}

/** A count can only ever equal the (whole) number of calls made. */
export function isWholeCount(v: PyValue): boolean {
  return typeof v === "bigint" || (typeof v === "number" && Number.isInteger(v));
}

function countsProblems(counts: PyValue): string[] {
  if (!(counts instanceof Map)) return [`'call_counts' field 'counts' must be an object mapping tool names to counts, got ${pyTypeName(counts)}`];
  const out: string[] = [];
  for (const [name, n] of counts) {
    if (!isWholeCount(n)) out.push(`'call_counts' count for ${reprString(name)} must be a whole number, got ${pyRepr(n)}`);
  }
  return out;
}
