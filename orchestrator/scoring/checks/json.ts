/** Checks on a JSON value in the answer (arena-format.md §5.3–§5.5). */
import { floatRepr, PyError, pyFloat, pyRepr, reprString } from "@agentic-arena/py-semantics";
import { extractJson } from "../extract-json.ts";
import { field, FieldError, stringField } from "../fields.ts";
import { pathValuesEqual, readPath } from "../json-path.ts";
import { schemaErrors, SchemaDefinitionError } from "../mini-schema.ts";
import type { CheckFn } from "../types.ts";

export const jsonValid: CheckFn = (_check, { outputText }) => {
  const extracted = extractJson(outputText);
  return extracted.ok
    ? { ok: true, detail: "expected parseable JSON" }
    : { ok: false, detail: `expected parseable JSON (${extracted.reason})` };
};

export const jsonSchema: CheckFn = (check, { outputText }) => {
  const schema = field(check, "schema");
  const extracted = extractJson(outputText);
  if (!extracted.ok) return { ok: false, detail: `expected parseable JSON (${extracted.reason})` };
  let errors: string[];
  try {
    errors = schemaErrors(extracted.value, schema);
  } catch (e) {
    if (e instanceof SchemaDefinitionError) throw new FieldError(`invalid 'schema' (${e.message})`);
    throw e;
  }
  return errors.length === 0 ? { ok: true, detail: "schema: ok" } : { ok: false, detail: `schema: ${errors.join("; ")}` };
};

export const jsonPathEquals: CheckFn = (check, { outputText }) => {
  const path = stringField(check, "path");
  const expected = field(check, "value");
  const extracted = extractJson(outputText);
  const read = extracted.ok ? readPath(extracted.value, path) : extracted;
  if (!read.ok) return { ok: false, detail: `could not read ${reprString(path)} (${read.reason})` };
  const actual = read.value;
  const tolValue = check.get("tol");
  if (tolValue === undefined) {
    return {
      ok: pathValuesEqual(actual, expected),
      detail: `expected ${path} == ${pyRepr(expected)}, got ${pyRepr(actual)}`,
    };
  }
  // A value Python float() rejects fails the check, whichever of the three it is (§5.5).
  let a: number, v: number, tol: number;
  try {
    [a, v, tol] = [pyFloat(actual), pyFloat(expected), pyFloat(tolValue)];
  } catch (e) {
    if (!(e instanceof PyError)) throw e;
    return {
      ok: false,
      detail: `expected ${path} within ${pyRepr(tolValue)} of ${pyRepr(expected)}, got ${pyRepr(actual)} (${e.message})`,
    };
  }
  return {
    ok: Math.abs(a - v) <= tol,
    detail: `expected ${path} within ${floatRepr(tol)} of ${floatRepr(v)}, got ${pyRepr(actual)}`,
  };
};
