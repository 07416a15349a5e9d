import { describe, expect, it } from "vitest";
import { ArenaLoadError } from "../../orchestrator/arena/diagnostics.ts";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { jsonl, tempRoot, writeArena } from "./fixture.ts";

function load(files: Parameters<typeof writeArena>[2]) {
  const root = tempRoot();
  return loadArena(writeArena(root, "demo", files), { cwd: root });
}

function loadError(files: Parameters<typeof writeArena>[2]): ArenaLoadError {
  try {
    load(files);
  } catch (err) {
    if (err instanceof ArenaLoadError) return err;
    throw err;
  }
  throw new Error("expected the arena not to load");
}

describe("loadArena", () => {
  it("reads arena.toml with defaults and derives the system prompt", () => {
    // \u001C is a TOML escape here: TOML forbids the raw control character.
    const a = load({ toml: 'id = "demo"\nsystem_prompt_intent = """\n  Be\u00a0brief.\n\tUse\\u001Ctools.  \n"""\n' });
    expect(a).toMatchObject({ id: "demo", description: "", declaredTools: [], durable: false, systemPrompt: "Be brief. Use tools." });
    expect(a.systemPromptIntent).toBe("  Be\u00a0brief.\n\tUse\u001ctools.  \n");
  });

  it("U+FEFF is not whitespace in the system prompt", () => {
    expect(load({ toml: 'id = "demo"\nsystem_prompt_intent = "a \uFEFF b"\n' }).systemPrompt).toBe("a \uFEFF b");
  });

  it("reads dataset items: physical line numbers, str() coercion, defaults", () => {
    const text = `# header\n\n${jsonl(
      { id: 5, input: 12.0, checks: [{ type: "numeric_equals", value: 3, tol: 0.5 }], extra: "ignored" },
      { id: "d-02", input: "Hi", checks: [{ type: "no_tool" }], note: "n", resume_with: "deny" },
    )}`.replace('"input":12', '"input":12.0');
    const items = load({ dataset: text }).items;
    expect(items.map((i) => [i.id, i.input, i.note, i.resume_with, i.line])).toEqual([
      ["5", "12.0", "", "", 3],
      ["d-02", "Hi", "n", "deny", 4],
    ]);
    expect(items[0]!.checks[0]).toEqual(new Map<string, unknown>([["type", "numeric_equals"], ["value", 3n], ["tol", 0.5]]));
  });

  it("keeps int vs float literals in checks and scripted arguments", () => {
    const dataset = '{"id": "d-01", "input": "x", "checks": [{"type": "numeric_equals", "value": 3.0}]}\n';
    const script = '{"scenarios": [{"match": "x", "turns": [{"tool_calls": [{"name": "calculator", "arguments": {"a": 3, "b": 3.0}}]}, {"content": "3"}]}]}';
    const a = load({ dataset, script });
    expect(a.items[0]!.checks[0]!.get("value")).toBe(3);
    const turn = a.script.scenarios[0]!.turns[0]!;
    expect(turn.kind).toBe("tool_calls");
    const args = turn.kind === "tool_calls" ? turn.tool_calls[0]!.arguments : undefined;
    expect(args).toEqual(new Map<string, unknown>([["a", 3n], ["b", 3]]));
  });

  it("normalises mock script turns", () => {
    const script = JSON.stringify({
      _comment: "ignored",
      scenarios: [
        {
          match: "Q",
          deliberate_fault: "bad args",
          turns: [
            { tool_calls: [{ name: "calculator", arguments: '{"expr": 17 * 23 + 4', id: "call_x" }, { name: "search" }, { name: "calculator", arguments: "null" }] },
            { content: "ignored", tool_calls: [{ name: "search", arguments: { q: "a" } }] },
            {},
            { content: "done" },
          ],
        },
        { match: 7, turns: [] },
      ],
    });
    const s = load({ script }).script;
    expect(s.scenarios[0]).toEqual({
      match: "Q",
      deliberate_fault: "bad args",
      turns: [
        {
          kind: "tool_calls",
          tool_calls: [
            { name: "calculator", arguments: '{"expr": 17 * 23 + 4', id: "call_x" },
            { name: "search", arguments: new Map() },
            { name: "calculator", arguments: "null" },
          ],
        },
        { kind: "tool_calls", tool_calls: [{ name: "search", arguments: new Map([["q", "a"]]) }] },
        { kind: "content", content: "" },
        { kind: "content", content: "done" },
      ],
    });
    expect(s.scenarios[1]).toEqual({ match: "7", deliberate_fault: "", turns: [] });
    expect(s.default).toEqual({ turns: [{ kind: "content", content: "I don't know." }] });
  });

  it("reads an explicit default", () => {
    const script = '{"scenarios": [], "default": {"turns": [{"content": "I could not find a confident answer."}]}}';
    expect(load({ script }).script.default.turns).toEqual([{ kind: "content", content: "I could not find a confident answer." }]);
  });

  it("fails with errors as data", () => {
    const err = loadError({ dataset: jsonl({ id: "d-01", input: "x", checks: [{ type: "contains", value: "4" }, "oops"] }) });
    expect(err).toBeInstanceOf(ArenaLoadError);
    expect(err).toMatchObject({ file: "demo/dataset.jsonl", line: 1, field: "d-01.checks[1]", reason: "must be an object, got str" });
    expect(err.message).toBe("demo/dataset.jsonl:1: d-01.checks[1]: must be an object, got str");
  });

  it("requires 'input' and at least one check", () => {
    expect(loadError({ dataset: jsonl({ id: "d-01", checks: [{ type: "no_tool" }] }) }).message).toBe("demo/dataset.jsonl:1: d-01: missing 'input'");
  });

  it("does not judge what only the validator judges (duplicates, drift, unknown tools, id mismatch)", () => {
    const a = load({
      toml: 'id = "elsewhere"\ntools = ["search", "telepathy"]\n',
      dataset: jsonl({ id: "d-01", input: "unmatched", checks: [{ type: "vibes" }] }, { id: "d-01", input: "  ", checks: [{ type: "no_tool" }] }),
    });
    expect(a.id).toBe("elsewhere");
    expect(a.declaredTools).toEqual(["search", "telepathy"]);
    expect(a.items).toHaveLength(2);
  });
});
