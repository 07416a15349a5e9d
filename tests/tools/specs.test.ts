import { describe, expect, it } from "vitest";
import { dumpsPy, fromJs } from "@agentic-arena/py-semantics";
import {
  CANONICAL_SPECS,
  descriptionOf,
  jsonSchemaOf,
  parameterList,
  specsFor,
  toolSpec,
  toolSpecJson,
  TOOL_NAMES,
  type ToolName,
} from "../../contract/tools/index.ts";

// tools.md §1, verbatim: the text the baseline bills and the schema-fidelity probe compares against.
const CANONICAL: Record<ToolName, { chars: number; json: string }> = {
  boundary_action: {
    chars: 293,
    json: '{"type": "function", "function": {"name": "boundary_action", "description": "Execute a synthetic action through the fixture policy service.", "parameters": {"type": "object", "properties": {"action": {"type": "string", "description": "Synthetic action identifier."}}, "required": ["action"]}}}',
  },
  search: {
    chars: 357,
    json: '{"type": "function", "function": {"name": "search", "description": "Search a knowledge base of general facts. Returns up to k text snippets.", "parameters": {"type": "object", "properties": {"query": {"type": "string", "description": "What to look up."}, "k": {"type": "integer", "description": "How many snippets.", "default": 3}}, "required": ["query"]}}}',
  },
  calculator: {
    chars: 276,
    json: `{"type": "function", "function": {"name": "calculator", "description": "Evaluate a basic arithmetic expression, e.g. '330 / 0.3048'.", "parameters": {"type": "object", "properties": {"expr": {"type": "string", "description": "Arithmetic expression."}}, "required": ["expr"]}}}`,
  },
  search_rooms: {
    chars: 376,
    json: `{"type": "function", "function": {"name": "search_rooms", "description": "List meeting rooms that seat at least \`capacity\` and are free on \`day\`.", "parameters": {"type": "object", "properties": {"capacity": {"type": "integer", "description": "People to seat."}, "day": {"type": "string", "description": "Day of the week, e.g. 'tuesday'."}}, "required": ["capacity", "day"]}}}`,
  },
  request_approval: {
    chars: 345,
    json: '{"type": "function", "function": {"name": "request_approval", "description": "Ask a human to approve a consequential action before you take it. Call this and stop; you will be told the decision.", "parameters": {"type": "object", "properties": {"summary": {"type": "string", "description": "What you want approved."}}, "required": ["summary"]}}}',
  },
  save_progress: {
    chars: 344,
    json: '{"type": "function", "function": {"name": "save_progress", "description": "Checkpoint what you have gathered so far, then stop. You will be resumed and can carry on from where you left off.", "parameters": {"type": "object", "properties": {"note": {"type": "string", "description": "What you have established so far."}}, "required": ["note"]}}}',
  },
  book_room: {
    chars: 275,
    json: `{"type": "function", "function": {"name": "book_room", "description": "Book a meeting room by id. Only call this after approval.", "parameters": {"type": "object", "properties": {"room_id": {"type": "string", "description": "Room id, e.g. 'R3'."}}, "required": ["room_id"]}}}`,
  },
};

describe("canonical specs (tools.md §1)", () => {
  it("are declared once, in registry order", () => {
    expect(CANONICAL_SPECS.map((s) => s.function.name)).toEqual([
      "boundary_action",
      "search",
      "calculator",
      "search_rooms",
      "request_approval",
      "save_progress",
      "book_room",
    ]);
    expect(TOOL_NAMES).toEqual(CANONICAL_SPECS.map((s) => s.function.name));
  });

  for (const [name, { chars, json }] of Object.entries(CANONICAL) as [ToolName, { chars: number; json: string }][]) {
    it(`${name} serialises to the canonical JSON (${chars} chars)`, () => {
      const text = dumpsPy(fromJs(toolSpec(name)));
      expect(text).toBe(json);
      expect(text.length).toBe(chars);
      expect(toolSpecJson(name)).toBe(json);
    });
  }

  it("keeps the key order of every level", () => {
    for (const spec of CANONICAL_SPECS) {
      expect(Object.keys(spec)).toEqual(["type", "function"]);
      expect(Object.keys(spec.function)).toEqual(["name", "description", "parameters"]);
      expect(Object.keys(spec.function.parameters)).toEqual(["type", "properties", "required"]);
    }
    expect(Object.keys(jsonSchemaOf("search").properties.k!)).toEqual(["type", "description", "default"]);
  });

  it("cannot be mutated by an adapter", () => {
    const spec = toolSpec("search") as { function: { description: string } };
    expect(() => {
      spec.function.description = "changed";
    }).toThrow(TypeError);
    expect(descriptionOf("search")).toBe("Search a knowledge base of general facts. Returns up to k text snippets.");
  });

  it("exposes the literal backticks and quotes of the descriptions", () => {
    expect(descriptionOf("search_rooms")).toBe("List meeting rooms that seat at least `capacity` and are free on `day`.");
    expect(descriptionOf("calculator")).toBe("Evaluate a basic arithmetic expression, e.g. '330 / 0.3048'.");
    expect(jsonSchemaOf("search_rooms").properties.day!.description).toBe("Day of the week, e.g. 'tuesday'.");
    expect(jsonSchemaOf("book_room").properties.room_id!.description).toBe("Room id, e.g. 'R3'.");
  });

  it("lists parameters for adapters that build typed signatures", () => {
    expect(parameterList("search")).toEqual([
      { name: "query", type: "string", description: "What to look up.", required: true },
      { name: "k", type: "integer", description: "How many snippets.", default: 3, required: false },
    ]);
    expect(parameterList("search_rooms").map((p) => [p.name, p.type, p.required])).toEqual([
      ["capacity", "integer", true],
      ["day", "string", true],
    ]);
    expect(jsonSchemaOf("calculator")).toEqual({
      type: "object",
      properties: { expr: { type: "string", description: "Arithmetic expression." } },
      required: ["expr"],
    });
  });
});

describe("tools blocks the baseline sends (tools.md §1, golden.md §2)", () => {
  const block = (declared: string[]): string => dumpsPy(fromJs(specsFor(declared)));
  it.each([
    [["search", "calculator"], 637],
    [["search"], 359],
    [["search_rooms", "request_approval", "book_room"], 1002],
    [["search", "calculator", "save_progress"], 983],
  ])("%j is %i chars", (declared, chars) => {
    const text = block(declared);
    expect(text.length).toBe(chars);
    expect(text).toBe(`[${declared.map((n) => CANONICAL[n as ToolName].json).join(", ")}]`);
  });
});
