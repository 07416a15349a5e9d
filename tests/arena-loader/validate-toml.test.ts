import { describe, expect, it } from "vitest";
import { check, VALID_TOML } from "./fixture.ts";

const ALL_TOOLS = "['book_room', 'boundary_action', 'calculator', 'request_approval', 'save_progress', 'search', 'search_rooms']";

describe("validate: arena.toml", () => {
  it("passes the baseline arena with no findings", () => {
    expect(check({})).toEqual({ errors: [], warnings: [], loadError: undefined });
  });

  it("missing arena.toml stops validation", () => {
    const out = check({ toml: null, dataset: null, script: null });
    expect(out.errors).toEqual(["demo/arena.toml:1: missing arena.toml"]);
    expect(out.warnings).toEqual([]);
  });

  it("invalid TOML names the parser's line and stops", () => {
    const out = check({ toml: 'id = "demo"\ntools = ["search",\n', dataset: null });
    expect(out.errors).toHaveLength(1);
    expect(out.errors[0]).toMatch(/^demo\/arena\.toml:2: invalid TOML \(.+\)$/);
  });

  it("id must equal the folder name", () => {
    const out = check({ toml: VALID_TOML.replace('id = "demo"', 'description_x = 1\nid = "other"') });
    expect(out.errors).toEqual(["demo/arena.toml:2: id 'other' != directory name 'demo'"]);
  });

  it("a missing id prints None (line 1) and the loader fails", () => {
    const out = check({ toml: VALID_TOML.replace('id = "demo"\n', "") });
    expect(out.errors).toEqual(["demo/arena.toml:1: id None != directory name 'demo'"]);
    expect(out.loadError).toBe("demo/arena.toml:1: missing 'id'");
  });

  it("a non-string id is shown with Python repr", () => {
    expect(check({ toml: VALID_TOML.replace('id = "demo"', "id = 7") }).errors).toEqual([
      "demo/arena.toml:1: id 7 != directory name 'demo'",
    ]);
  });

  it("unknown tools point at the offending array element", () => {
    const toml = VALID_TOML.replace('tools = ["search", "calculator"]', 'tools = [\n  "search",\n  "telepathy",\n]');
    const out = check({ toml, script: null });
    expect(out.errors).toContain(`demo/arena.toml:5: declares tools ['telepathy'] that arena.tools does not provide (${ALL_TOOLS})`);
  });

  it("non-string tool entries are unknown tools too", () => {
    const out = check({ toml: VALID_TOML.replace('["search", "calculator"]', '["search", "calculator", 3]') });
    expect(out.errors).toEqual([`demo/arena.toml:3: declares tools [3] that arena.tools does not provide (${ALL_TOOLS})`]);
    expect(out.loadError).toMatch(/^demo\/arena\.toml:3: 'tools' must be a list of strings/);
  });

  it("tools that is not a list is an error (port addition)", () => {
    const out = check({ toml: VALID_TOML.replace('["search", "calculator"]', '"search"') });
    expect(out.errors).toContain("demo/arena.toml:3: 'tools' must be a list of strings, got str");
  });

  it("durable must be a TOML boolean (port addition)", () => {
    const out = check({ toml: `${VALID_TOML}durable = "false"\n` });
    expect(out.errors).toEqual(["demo/arena.toml:7: 'durable' must be a boolean, got str"]);
    expect(out.loadError).toBe("demo/arena.toml:7: 'durable' must be a boolean, got str");
    expect(check({ toml: `${VALID_TOML}durable = 1\n` }).errors).toEqual(["demo/arena.toml:7: 'durable' must be a boolean, got int"]);
    expect(check({ toml: `${VALID_TOML}durable = true\n` }).errors).toEqual([]);
  });

  it("description and system_prompt_intent must be strings", () => {
    const out = check({ toml: VALID_TOML.replace('description = "A demo arena."', "description = 1.5") });
    expect(out.errors).toEqual(["demo/arena.toml:2: 'description' must be a string, got float"]);
    expect(out.loadError).toBe("demo/arena.toml:2: 'description' must be a string, got float");
  });

  it("warns on an empty description and an empty system_prompt_intent", () => {
    const toml = 'id = "demo"\ndescription = ""\ntools = ["search", "calculator"]\nsystem_prompt_intent = """\n   \n"""\n';
    const out = check({ toml });
    expect(out.errors).toEqual([]);
    expect(out.warnings).toEqual([
      "demo/arena.toml:2: empty 'description' (it heads the scorecard)",
      "demo/arena.toml:4: empty 'system_prompt_intent'",
    ]);
    expect(out.loadError).toBeUndefined();
  });

  it("absent description / intent warn at line 1", () => {
    const out = check({ toml: 'id = "demo"\ntools = ["search", "calculator"]\n' });
    expect(out.warnings).toEqual([
      "demo/arena.toml:1: empty 'description' (it heads the scorecard)",
      "demo/arena.toml:1: empty 'system_prompt_intent'",
    ]);
  });

  it("finds keys after multi-line strings, comments and quoted keys", () => {
    const toml = [
      "# id = \"nope\" in a comment",
      'system_prompt_intent = """',
      'id = "inside a string, with an escaped quote" \\"""',
      "[not a table]",
      '"""',
      "tools = [",
      '  ["x"],',
      "]",
      '"id" = "other"',
      "",
      "[table]",
      'id = "ignored"',
    ].join("\n");
    const out = check({ toml, dataset: null, script: null });
    expect(out.errors[0]).toBe("demo/arena.toml:9: id 'other' != directory name 'demo'");
  });
});
