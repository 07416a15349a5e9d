/** The mini JSON schema of `json_schema` checks (arena-format.md §5.4). */
import { pyEquals, pyRepr, pyStr, pyTypeName, type PyDict, type PyValue } from "@agentic-arena/py-semantics";

/** The schema itself is malformed (the original crashed on these). */
export class SchemaDefinitionError extends Error {
  override readonly name = "SchemaDefinitionError";
}

function typeError(path: string, want: string, value: PyValue): string | undefined {
  switch (want) {
    case "object":
      return value instanceof Map ? undefined : `${path}: expected object, got ${pyTypeName(value)}`;
    case "array":
      return Array.isArray(value) ? undefined : `${path}: expected array, got ${pyTypeName(value)}`;
    case "string":
      return typeof value === "string" ? undefined : `${path}: expected string, got ${pyTypeName(value)}`;
    case "boolean":
      return typeof value === "boolean" ? undefined : `${path}: expected boolean, got ${pyTypeName(value)}`;
    case "integer":
    case "number": {
      // Python's bool is an int subclass, so the original tested booleans first and named them itself.
      if (typeof value === "boolean") return `${path}: expected ${want}, got boolean`;
      const ok = typeof value === "bigint" || (want === "number" && typeof value === "number");
      return ok ? undefined : `${path}: expected ${want}, got ${pyTypeName(value)}`;
    }
  }
  return undefined;
}

function asSchema(v: PyValue | undefined, path: string): PyDict {
  if (v instanceof Map) return v;
  throw new SchemaDefinitionError(`schema at ${path} must be an object, got ${pyTypeName(v ?? null)}`);
}

/** What Python's `for k in x` yields for the JSON shapes a schema keyword might hold. */
function iterate(v: PyValue, keyword: string, path: string): PyValue[] {
  if (Array.isArray(v)) return v;
  if (typeof v === "string") return [...v];
  if (v instanceof Map) return [...v.keys()];
  throw new SchemaDefinitionError(`'${keyword}' at ${path} must be a list, got ${pyTypeName(v)}`);
}

function checkMinItems(min: PyValue, length: number, path: string): string | undefined {
  let bound: number;
  if (typeof min === "bigint" || typeof min === "number") bound = Number(min);
  else if (typeof min === "boolean") bound = min ? 1 : 0;
  else throw new SchemaDefinitionError(`'minItems' at ${path} must be a number, got ${pyTypeName(min)}`);
  return length < bound ? `${path}: expected >= ${pyStr(min)} items, got ${length}` : undefined;
}

function validate(value: PyValue, schema: PyDict, path: string, errors: string[]): void {
  const type = schema.get("type");
  if (typeof type === "string") {
    const err = typeError(path, type, value);
    if (err !== undefined) errors.push(err);
  }
  const choices = schema.get("enum");
  if (choices !== undefined) {
    if (!Array.isArray(choices)) {
      throw new SchemaDefinitionError(`'enum' at ${path} must be a list, got ${pyTypeName(choices)}`);
    }
    if (!choices.some((c) => pyEquals(value, c))) errors.push(`${path}: ${pyRepr(value)} not in enum ${pyRepr(choices)}`);
  }
  if (type === "object" && value instanceof Map) {
    for (const key of iterate(schema.has("required") ? schema.get("required")! : [], "required", path)) {
      if (typeof key !== "string" || !value.has(key)) errors.push(`${path}: missing required key ${pyRepr(key)}`);
    }
    const props = schema.has("properties") ? asSchema(schema.get("properties"), `${path} (properties)`) : new Map<string, PyValue>();
    if (schema.get("additionalProperties") === false) {
      for (const key of value.keys()) {
        if (!props.has(key)) errors.push(`${path}: unexpected key ${pyRepr(key)}`);
      }
    }
    for (const [key, sub] of props) {
      if (value.has(key)) validate(value.get(key)!, asSchema(sub, `${path}.${key}`), `${path}.${key}`, errors);
    }
  }
  if (type === "array" && Array.isArray(value)) {
    const min = schema.get("minItems");
    if (min !== undefined) {
      const err = checkMinItems(min, value.length, path);
      if (err !== undefined) errors.push(err);
    }
    const items = schema.get("items");
    if (items !== undefined) {
      const itemSchema = asSchema(items, `${path} (items)`);
      value.forEach((el, i) => validate(el, itemSchema, `${path}[${i}]`, errors));
    }
  }
}

/** Every violation of `schema` by `value`, in the spec's order; empty when it conforms. */
export function schemaErrors(value: PyValue, schema: PyValue): string[] {
  const errors: string[] = [];
  validate(value, asSchema(schema, "$"), "$", errors);
  return errors;
}
