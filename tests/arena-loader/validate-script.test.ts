import { describe, expect, it } from "vitest";
import { check } from "./fixture.ts";

function scriptErrors(script: string) {
  const out = check({ script });
  const mine = (m: string) => m.startsWith("demo/mock_script.json");
  return { errors: out.errors.filter(mine), all: out.errors, warnings: out.warnings, loadError: out.loadError };
}

const LAST_TURN = "last turn is a tool call, so the agent never gets a final answer and will burn max_tool_iterations";

describe("validate: mock_script.json", () => {
  it("missing mock_script.json (the drift check is skipped)", () => {
    const out = check({ script: null });
    expect(out.errors).toEqual(["demo/mock_script.json:1: missing mock_script.json"]);
    expect(out.loadError).toBe("demo/mock_script.json:1: missing mock_script.json");
  });

  it("invalid JSON names the line (the drift check is skipped)", () => {
    const out = scriptErrors('{\n  "scenarios": [\n    {"match": "2 plus 2" "turns": []}\n  ]\n}\n');
    expect(out.all).toEqual(["demo/mock_script.json:3: invalid JSON (Expecting ',' delimiter)"]);
    expect(out.loadError).toBe(out.all[0]);
  });

  it("'scenarios' must be a non-empty list (stops the mock checks and the drift check)", () => {
    expect(scriptErrors('{"scenarios": []}').all).toEqual(["demo/mock_script.json:1: 'scenarios' must be a non-empty list"]);
    expect(scriptErrors('{"_comment": "x",\n "scenarios": {"match": "a"}}').all).toEqual([
      "demo/mock_script.json:2: 'scenarios' must be a non-empty list",
    ]);
    expect(scriptErrors('{"default": {"turns": 5}}').all).toEqual(["demo/mock_script.json:1: 'scenarios' must be a non-empty list"]);
  });

  it("a script that is not an object is an error (port addition)", () => {
    const out = scriptErrors("[1]");
    expect(out.all).toEqual(["demo/mock_script.json:1: expected a JSON object, got list"]);
    expect(out.loadError).toBe(out.all[0]);
  });

  it("scenario rules: match, duplicates, turns, undeclared tools, last turn", () => {
    const text = [
      "{",
      '  "scenarios": [',
      '    {"match": "2 plus 2", "turns": [{"content": "4"}]},',
      '    {"match": "2 PLUS 2", "turns": [{"content": "4"}]},',
      '    {"turns": [{"content": "x"}]},',
      '    {"match": "", "turns": [{"content": "x"}]},',
      '    {"match": "empty turns", "turns": []},',
      '    {"match": "no turns key"},',
      "    {",
      '      "match": "teleport",',
      '      "turns": [',
      '        {"tool_calls": [',
      '          {"name": "search", "arguments": {"query": "x"}},',
      '          {"name": "teleport", "arguments": {"to": "mars"}}',
      "        ]},",
      '        {"tool_calls": [{"name": "book_room"}]}',
      "      ]",
      "    },",
      '    {"match": "faulty", "deliberate_fault": "on purpose", "turns": [{"tool_calls": [{"name": "teleport"}]}, {"content": "ok"}]}',
      "  ]",
      "}",
    ].join("\n");
    const declared = "['calculator', 'search']";
    expect(scriptErrors(text).errors).toEqual([
      "demo/mock_script.json:4: scenarios[1]: duplicate match '2 PLUS 2'",
      "demo/mock_script.json:5: scenarios[2]: missing 'match'",
      "demo/mock_script.json:6: scenarios[3]: missing 'match'",
      "demo/mock_script.json:7: scenarios[4]: has no turns",
      "demo/mock_script.json:8: scenarios[5]: has no turns",
      `demo/mock_script.json:14: scenarios[6].turns[0]: calls tool 'teleport', which the arena does not declare (${declared})`,
      `demo/mock_script.json:16: scenarios[6].turns[1]: calls tool 'book_room', which the arena does not declare (${declared})`,
      `demo/mock_script.json:16: scenarios[6]: ${LAST_TURN}`,
    ]);
  });

  it("the declared list in the message is sorted and keeps only known tools", () => {
    const toml = 'id = "demo"\ndescription = "d"\nsystem_prompt_intent = "i"\ntools = ["search", "telepathy", "book_room"]\n';
    const text = '{"scenarios": [{"match": "2 plus 2", "turns": [{"tool_calls": [{"name": "calculator"}]}, {"content": "4"}]}]}';
    const out = check({ toml, script: text });
    expect(out.errors).toContain(
      "demo/mock_script.json:1: scenarios[0].turns[0]: calls tool 'calculator', which the arena does not declare (['book_room', 'search'])",
    );
  });

  it("an arena without tools flags every scripted call (the original's behaviour)", () => {
    const toml = 'id = "demo"\ndescription = "d"\nsystem_prompt_intent = "i"\n';
    const out = check({ toml });
    expect(out.errors).toEqual([
      "demo/mock_script.json:6: scenarios[0].turns[0]: calls tool 'calculator', which the arena does not declare ([])",
    ]);
    expect(out.loadError).toBeUndefined();
  });

  it("shape errors: non-object scenarios, turns and calls, calls without name (port additions)", () => {
    const text = [
      '{"scenarios": [',
      '  "not an object",',
      '  {"match": "a", "turns": "nope"},',
      '  {"match": "2 plus 2", "turns": [',
      '    "x",',
      '    {"tool_calls": {"name": "search"}},',
      '    {"tool_calls": [{"arguments": {}}, {"name": 5}, "call", {"name": "search", "id": 3}]},',
      '    {"content": null}',
      "  ]}",
      "],",
      '"default": {"turns": [{"content": 1}]}}',
    ].join("\n");
    const out = scriptErrors(text);
    expect(out.errors).toEqual([
      "demo/mock_script.json:1: scenarios[0]: must be an object, got str",
      "demo/mock_script.json:3: scenarios[1]: 'turns' must be a list, got str",
      "demo/mock_script.json:4: scenarios[2].turns[0]: must be an object, got str",
      "demo/mock_script.json:6: scenarios[2].turns[1]: 'tool_calls' must be a list, got dict",
      "demo/mock_script.json:7: scenarios[2].turns[2].tool_calls[0]: tool call has no 'name'",
      "demo/mock_script.json:7: scenarios[2].turns[2].tool_calls[1]: 'name' must be a string, got int",
      "demo/mock_script.json:7: scenarios[2].turns[2].tool_calls[2]: must be an object, got str",
      "demo/mock_script.json:7: scenarios[2].turns[2].tool_calls[3]: 'id' must be a string, got int",
      "demo/mock_script.json:8: scenarios[2].turns[3]: 'content' must be a string, got NoneType",
      "demo/mock_script.json:11: default.turns[0]: 'content' must be a string, got int",
    ]);
    expect(out.loadError).toBe("demo/mock_script.json:1: scenarios[0]: must be an object, got str");
  });

  it("'default' must be an object when present", () => {
    const text = '{"scenarios": [{"match": "2 plus 2", "turns": [{"content": "4"}]}],\n "default": [{"content": "x"}]}';
    expect(scriptErrors(text).errors).toEqual(["demo/mock_script.json:2: default: must be an object, got list"]);
  });

  it("a turn with both keys is a tool-call turn; with neither it is content", () => {
    const text = '{"scenarios": [{"match": "2 plus 2", "turns": [{"content": "x", "tool_calls": [{"name": "search"}]}, {}]}]}';
    expect(scriptErrors(text).errors).toEqual([]);
    const last = '{"scenarios": [{"match": "2 plus 2", "turns": [{}, {"content": "4", "tool_calls": []}]}]}';
    expect(scriptErrors(last).errors).toEqual([`demo/mock_script.json:1: scenarios[0]: ${LAST_TURN}`]);
  });
});
