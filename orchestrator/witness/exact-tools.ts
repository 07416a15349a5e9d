/**
 * Tools exactly, not by containment (issue 18): each declared tool on the wire is the canonical
 * spec, key order aside, after the named transformations the adapter declares (Mastra's
 * `$schema`, OpenAI Agents' `strict`). A description cut to "-", a coaching sentence appended,
 * a dataset value folded into a parameter's description — each is a difference no declaration
 * names, so each is a violation.
 */
import type { ToolTransform, WireDeclaration } from "../../contract/declarations.ts";
import type { ToolSpec } from "../../contract/tools/specs.ts";
import { cut, type Body } from "./wire.ts";

const EDITS: Record<ToolTransform, (fn: Body) => void> = {
  "json-schema-draft-07": (fn) => void (fn.parameters.$schema = "http://json-schema.org/draft-07/schema#"),
  "closed-objects": (fn) => void (fn.parameters.additionalProperties = false),
  "strict-false": (fn) => void (fn.strict = false),
  "nullable-optionals": (fn) => {
    const required = new Set<string>(Array.isArray(fn.parameters.required) ? fn.parameters.required : []);
    for (const [name, schema] of Object.entries(fn.parameters.properties ?? {})) if (!required.has(name)) (schema as Body).nullable = true;
  },
};

/** The canonical `function` object as this adapter declares it reaches the wire. */
export function declaredFunction(spec: ToolSpec, declaration: WireDeclaration): Body {
  const fn = structuredClone(spec.function) as Body;
  for (const { transform } of declaration.tool_transforms) EDITS[transform](fn);
  return fn;
}

/** The first place two JSON values differ, as a path (`parameters.properties.k.description`). */
export function firstDifference(expected: unknown, seen: unknown, at = ""): { path: string; expected: unknown; seen: unknown } | undefined {
  const isObject = (v: unknown): v is Body => v !== null && typeof v === "object" && !Array.isArray(v);
  if (Array.isArray(expected) && Array.isArray(seen)) {
    for (let i = 0; i < Math.max(expected.length, seen.length); i++) {
      const d = firstDifference(expected[i], seen[i], `${at}[${i}]`);
      if (d) return d;
    }
    return undefined;
  }
  if (isObject(expected) && isObject(seen)) {
    for (const key of [...new Set([...Object.keys(expected), ...Object.keys(seen)])].sort()) {
      const d = firstDifference(expected[key], seen[key], at ? `${at}.${key}` : key);
      if (d) return d;
    }
    return undefined;
  }
  return Object.is(expected, seen) ? undefined : { path: at || "(the whole value)", expected, seen };
}

/** Violations of one advertised task tool against its declared form. */
export function exactToolViolations(spec: ToolSpec, fn: Body | undefined, declaration: WireDeclaration): string[] {
  if (!fn) return [];
  const d = firstDifference(declaredFunction(spec, declaration), fn);
  if (!d) return [];
  const show = (v: unknown) => (v === undefined ? "absent" : cut(JSON.stringify(v), 80));
  return [`${spec.function.name}: ${d.path} is ${show(d.seen)} on the wire, declared ${show(d.expected)}`];
}
