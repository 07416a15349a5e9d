/**
 * The advertised declaration of every tool (shared spec, tools.md §1), derived from its
 * definition. The baseline sends these objects unmodified and the schema-fidelity probe compares
 * every adapter against them, so key order and every string are part of the contract. Adapters
 * derive their framework's tool from here (`jsonSchemaOf`, `parameterList`) instead of restating
 * any text.
 */
import { dumpsPy, fromJs } from "@agentic-arena/py-semantics";
import { CANONICAL_TOOLS, TOOL_NAMES, type ToolName } from "./canonical.ts";
import { deepFreeze, type ParameterType, type ToolDefinition } from "./define.ts";

export type { ParameterType, ToolName };
export { isToolName } from "./canonical.ts";

export interface ParameterSchema {
  readonly type: ParameterType;
  readonly description: string;
  /** Only `search.k` has one (3). A JS number; serialise through `fromJs` so it stays an int. */
  readonly default?: number;
}

export interface ParametersSchema {
  readonly type: "object";
  readonly properties: Readonly<Record<string, ParameterSchema>>;
  readonly required: readonly string[];
}

export interface ToolSpec {
  readonly type: "function";
  readonly function: {
    readonly name: ToolName;
    readonly description: string;
    readonly parameters: ParametersSchema;
  };
}

/** The Chat Completions declaration, keys in the canonical order at every level. */
function specOf(tool: ToolDefinition<ToolName>): ToolSpec {
  const entries = Object.entries(tool.parameters);
  const properties: Record<string, ParameterSchema> = {};
  for (const [param, p] of entries) {
    properties[param] = { type: p.type, description: p.description, ...(p.default === undefined ? {} : { default: p.default }) };
  }
  const required = entries.filter(([, p]) => p.required === true).map(([param]) => param);
  return deepFreeze({
    type: "function",
    function: { name: tool.name, description: tool.description, parameters: { type: "object", properties, required } },
  });
}

/** Registry (= advertised) order. */
export const CANONICAL_SPECS: readonly ToolSpec[] = Object.freeze(TOOL_NAMES.map((name) => specOf(CANONICAL_TOOLS[name])));

const BY_NAME: ReadonlyMap<string, ToolSpec> = new Map(CANONICAL_SPECS.map((s) => [s.function.name, s]));

export function toolSpec(name: ToolName): ToolSpec {
  const found = BY_NAME.get(name);
  if (!found) throw new Error(`unknown tool ${JSON.stringify(name)}`);
  return found;
}

export function descriptionOf(name: ToolName): string {
  return toolSpec(name).function.description;
}

/** The `parameters` JSON Schema, exactly as advertised. */
export function jsonSchemaOf(name: ToolName): ParametersSchema {
  return toolSpec(name).function.parameters;
}

export interface ParameterInfo {
  readonly name: string;
  readonly type: ParameterType;
  readonly description: string;
  readonly default?: number;
  readonly required: boolean;
}

/** The parameters in declaration order, flattened for adapters that build typed signatures. */
export function parameterList(name: ToolName): readonly ParameterInfo[] {
  const { properties, required } = jsonSchemaOf(name);
  return Object.entries(properties).map(([param, schema]) => ({
    name: param,
    type: schema.type,
    description: schema.description,
    ...(schema.default === undefined ? {} : { default: schema.default }),
    required: required.includes(param),
  }));
}

/** The spec as Python `json.dumps` writes it: the billed and probe-compared text. */
export function toolSpecJson(name: ToolName): string {
  return dumpsPy(fromJs(toolSpec(name)));
}
