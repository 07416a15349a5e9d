/**
 * The one canonical declaration of every tool (shared spec, tools.md §1). The baseline sends these
 * objects unmodified and the schema-fidelity probe compares every adapter against them, so key
 * order and every string are part of the contract. Adapters derive their framework's tool from
 * here (`jsonSchemaOf`, `parameterList`) instead of restating any text.
 */
import { dumpsPy, fromJs } from "@agentic-arena/py-semantics";

export type ToolName =
  | "boundary_action"
  | "search"
  | "calculator"
  | "search_rooms"
  | "request_approval"
  | "save_progress"
  | "book_room";

export type ParameterType = "string" | "integer";

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

function spec(
  name: ToolName,
  description: string,
  properties: Record<string, ParameterSchema>,
  required: string[],
): ToolSpec {
  return deepFreeze({
    type: "function",
    function: { name, description, parameters: { type: "object", properties, required } },
  });
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object") {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}

/** Registry (= advertised) order. */
export const CANONICAL_SPECS: readonly ToolSpec[] = Object.freeze([
  spec(
    "boundary_action",
    "Execute a synthetic action through the fixture policy service.",
    { action: { type: "string", description: "Synthetic action identifier." } },
    ["action"],
  ),
  spec(
    "search",
    "Search a knowledge base of general facts. Returns up to k text snippets.",
    {
      query: { type: "string", description: "What to look up." },
      k: { type: "integer", description: "How many snippets.", default: 3 },
    },
    ["query"],
  ),
  spec(
    "calculator",
    "Evaluate a basic arithmetic expression, e.g. '330 / 0.3048'.",
    { expr: { type: "string", description: "Arithmetic expression." } },
    ["expr"],
  ),
  spec(
    "search_rooms",
    "List meeting rooms that seat at least `capacity` and are free on `day`.",
    {
      capacity: { type: "integer", description: "People to seat." },
      day: { type: "string", description: "Day of the week, e.g. 'tuesday'." },
    },
    ["capacity", "day"],
  ),
  spec(
    "request_approval",
    "Ask a human to approve a consequential action before you take it. Call this and stop; you will be told the decision.",
    { summary: { type: "string", description: "What you want approved." } },
    ["summary"],
  ),
  spec(
    "save_progress",
    "Checkpoint what you have gathered so far, then stop. You will be resumed and can carry on from where you left off.",
    { note: { type: "string", description: "What you have established so far." } },
    ["note"],
  ),
  spec(
    "book_room",
    "Book a meeting room by id. Only call this after approval.",
    { room_id: { type: "string", description: "Room id, e.g. 'R3'." } },
    ["room_id"],
  ),
]);

const BY_NAME: ReadonlyMap<string, ToolSpec> = new Map(CANONICAL_SPECS.map((s) => [s.function.name, s]));

export function isToolName(name: string): name is ToolName {
  return BY_NAME.has(name);
}

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
