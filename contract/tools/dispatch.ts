/**
 * Runs one tool call the way the reference implementation does (shared spec, tools.md §3): one
 * generic runner over the canonical definitions. Every outcome, including a broken call, is a
 * string for the model: a framework must be able to recover from a bad call, so nothing here may
 * throw.
 */
import { fromJs, isPyDict, parsePyJson, reprString, type PyDict, type PyValue } from "@agentic-arena/py-semantics";
import { toolDefinition } from "./canonical.ts";
import type { Arguments, Parameters, ParameterDefinition, ToolEnv } from "./define.ts";

export type { ToolEnv };

/** Step 1–2: JSON text is parsed, and anything that is not an object counts as `{}`. */
function toArguments(name: string, args: unknown): PyDict | string {
  let value: unknown = args;
  if (typeof args === "string") {
    try {
      value = args === "" ? new Map() : parsePyJson(args);
    } catch {
      return `ERROR: tool arguments for ${reprString(name)} were not valid JSON`;
    }
  } else if (!isPyDict(args)) {
    // A PyDict is used as is: re-reading it through fromJs would turn a float 3.0 into an int.
    try {
      value = fromJs(args);
    } catch {
      value = null;
    }
  }
  return isPyDict(value) ? value : new Map();
}

/** What `args.get(name, …)` falls back to for an absent key: the declared default, else "" or 0. */
function fallback(parameter: ParameterDefinition): PyValue {
  if (parameter.default !== undefined) return fromJs(parameter.default);
  return parameter.type === "integer" ? 0n : "";
}

/** Python `dict.get` per parameter: the fallback applies only to an absent key; a present `null` is passed on. */
function parameterValues<P extends Parameters>(parameters: P, args: PyDict): Arguments<P> {
  const values: Record<string, PyValue> = {};
  for (const [key, parameter] of Object.entries(parameters)) {
    values[key] = args.has(key) ? (args.get(key) as PyValue) : fallback(parameter);
  }
  return values as Arguments<P>;
}

/**
 * `args` may be JSON text (as a model sends it), a PyDict, or a plain JS object (whose integral
 * numbers are read as ints; pass text or a PyDict when a float like 3.0 must stay a float).
 */
export function dispatch(name: string, args: unknown, env: ToolEnv): string {
  const parsed = toArguments(name, args);
  if (typeof parsed === "string") return parsed;
  const tool = toolDefinition(name);
  if (!tool) return `ERROR: unknown tool ${reprString(name)}`;
  try {
    return tool.run(parameterValues(tool.parameters, parsed), env);
  } catch (err) {
    return `ERROR: tool ${reprString(name)} raised ${err instanceof Error ? err.message : String(err)}`;
  }
}
