import { describe, expect, it } from "vitest";
import { check, jsonl } from "./fixture.ts";

const NO_MATCH = "no mock scenario matches its input — this item would silently fall through to the default scenario in mock mode";

const HITL_TOML = `id = "demo"
description = "Booking with approval."
tools = ["search_rooms", "request_approval", "book_room"]
system_prompt_intent = "Book rooms."
`;

/** A HITL-style scenario: search, pause for approval, book, confirm. */
const HITL_SCRIPT = JSON.stringify({
  scenarios: [
    {
      match: "4 people",
      turns: [
        { tool_calls: [{ name: "search_rooms", arguments: { capacity: 4 } }] },
        { tool_calls: [{ name: "request_approval", arguments: { summary: "Aspen" } }] },
        { tool_calls: [{ name: "book_room", arguments: { room_id: "R1" } }] },
        { content: "Booked Aspen." },
        { tool_calls: [{ name: "search_rooms" }, { name: "search_rooms" }] },
        { content: "never reached" },
      ],
    },
    { match: "just chat", turns: [{ content: "Hello." }] },
  ],
});

function drift(checks: unknown[], input = "Book a room for 4 people.") {
  const out = check({ toml: HITL_TOML, script: HITL_SCRIPT, dataset: jsonl({ id: "d-01", input, checks }) });
  return { errors: out.errors, warnings: out.warnings };
}

const BY = "the matched mock scenario '4 people'";

describe("validate: drift check", () => {
  it("an item no scenario matches is an error", () => {
    const dataset = jsonl({ id: "d-01", input: "What is 2 plus 2?", checks: [{ type: "contains", value: "4" }] }, { id: "d-02", input: "Something else", checks: [{ type: "no_tool" }] });
    expect(check({ dataset }).errors).toEqual([`demo/dataset.jsonl:2: d-02: ${NO_MATCH}`]);
  });

  it("matching is case-insensitive on both sides", () => {
    const dataset = jsonl({ id: "d-01", input: "WHAT IS 2 PLUS 2?", checks: [{ type: "contains", value: "4" }] });
    expect(check({ dataset }).errors).toEqual([]);
  });

  it("several matching scenarios are a warning; the first one wins", () => {
    const script = JSON.stringify({
      scenarios: [
        { match: "2 plus 2", turns: [{ content: "4" }] },
        { match: "what is", turns: [{ content: "?" }] },
        { match: "nothing", turns: [{ content: "-" }] },
        { match: "2 PLUS 2?", turns: [{ content: "4" }] },
      ],
    });
    const out = check({ script });
    expect(out.warnings).toEqual(["demo/dataset.jsonl:1: d-01: matches 3 scenarios ['2 plus 2', 'what is', '2 PLUS 2?']; the first one wins"]);
  });

  it("a faithful replay of the matched scenario satisfies every check: no findings", () => {
    const out = drift([
      { type: "suspended" },
      { type: "tool_used", name: "search_rooms" },
      { type: "tool_used", name: "book_room" },
      { type: "min_tool_calls", value: 2 },
      { type: "call_counts", counts: { search_rooms: 1, book_room: 1.0 } },
    ]);
    expect(out).toEqual({ errors: [], warnings: [] });
  });

  it("tool_used a tool the matched scenario never calls", () => {
    expect(drift([{ type: "tool_used", name: "calculator" }]).errors).toEqual([
      `demo/dataset.jsonl:1: d-01.checks[0]: 'tool_used' expects tool 'calculator', but ${BY} never calls it`,
    ]);
  });

  it("min_tool_calls above the scripted (recorded) calls; turns after the first content turn never run", () => {
    expect(drift([{ type: "min_tool_calls", value: "3" }]).errors).toEqual([
      `demo/dataset.jsonl:1: d-01.checks[0]: 'min_tool_calls' expects >= 3 tool calls, but ${BY} scripts only 2`,
    ]);
  });

  it("suspended when the scenario calls no suspend tool, or too few times", () => {
    const chat = drift([{ type: "suspended" }], "just chat please");
    expect(chat.errors).toEqual([
      "demo/dataset.jsonl:1: d-01.checks[0]: 'suspended' expects the agent to pause >= 1 time(s), but the matched mock scenario 'just chat' calls no suspend tool",
    ]);
    expect(drift([{ type: "suspended", value: 2 }]).errors).toEqual([
      `demo/dataset.jsonl:1: d-01.checks[0]: 'suspended' expects the agent to pause >= 2 time(s), but ${BY} calls a suspend tool only 1 time(s)`,
    ]);
  });

  it("call_counts that differ from the scripted calls (suspend tools are not counted)", () => {
    expect(drift([{ type: "call_counts", counts: { search_rooms: 2, request_approval: 1 } }]).errors).toEqual([
      `demo/dataset.jsonl:1: d-01.checks[0]: 'call_counts' expects {'search_rooms': 2, 'request_approval': 1}, but ${BY} scripts {'search_rooms': 1, 'request_approval': 0}`,
    ]);
  });

  it("checks of an unmatched item are not second-guessed", () => {
    expect(drift([{ type: "tool_used", name: "calculator" }], "nothing matches").errors).toEqual([`demo/dataset.jsonl:1: d-01: ${NO_MATCH}`]);
  });

  it("is skipped when the script is missing, invalid or has no scenarios", () => {
    const dataset = jsonl({ id: "d-01", input: "unmatched", checks: [{ type: "no_tool" }] });
    for (const script of [null, "{", '{"scenarios": []}']) {
      expect(check({ dataset, script }).errors.filter((e) => e.includes("no mock scenario"))).toEqual([]);
    }
  });

  it("uses only the first matching scenario", () => {
    const script = JSON.stringify({
      scenarios: [
        { match: "plus", turns: [{ content: "4" }] },
        { match: "2 plus 2", turns: [{ tool_calls: [{ name: "calculator" }] }, { content: "4" }] },
      ],
    });
    const dataset = jsonl({ id: "d-01", input: "What is 2 plus 2?", checks: [{ type: "tool_used", name: "calculator" }] });
    expect(check({ script, dataset }).errors).toEqual([
      "demo/dataset.jsonl:1: d-01.checks[0]: 'tool_used' expects tool 'calculator', but the matched mock scenario 'plus' never calls it",
    ]);
  });
});
