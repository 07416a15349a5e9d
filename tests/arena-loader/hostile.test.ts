/**
 * Input written to hurt: ids that climb out of the output folders, nesting that blows the stack,
 * files that block forever when opened. Each is refused with `file:line`, by the validator and the
 * loader alike (check() fails the test on any other exception).
 */
import { writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { DATA_MAX_DEPTH } from "@agentic-arena/py-semantics";
import { check, jsonl, tempRoot, VALID_DATASET, VALID_SCRIPT, VALID_TOML, type FileContent } from "./fixture.ts";

const RULE = "(letters, digits, '_', '.', '-'; must start with a letter or digit; at most 128 characters)";
const nested = (n: number) => "[".repeat(n) + "]".repeat(n);
const item = (extra: Record<string, unknown>) => ({ id: "d-01", input: "What is 2 plus 2?", checks: [{ type: "contains", value: "4" }], ...extra });
const withId = (id: string) => VALID_TOML.replace('id = "demo"', `id = ${JSON.stringify(id)}`);

describe("arena ids must be safe names", () => {
  it("an id that climbs out of the folder is an error on its line, and the loader refuses it", () => {
    const out = check({ toml: withId("../../../../tmp/x") });
    expect(out.errors).toEqual([
      "demo/arena.toml:1: id '../../../../tmp/x' != directory name 'demo'",
      `demo/arena.toml:1: id '../../../../tmp/x' is not a safe name ${RULE}`,
    ]);
    expect(out.loadError).toBe(out.errors[1]);
  });

  it("a folder whose own name is unsafe fails even when the id matches it", () => {
    const out = check({}, "my arena");
    expect(out.errors).toEqual([`my arena/arena.toml:1: id 'my arena' is not a safe name ${RULE}`]);
    expect(out.loadError).toBe(out.errors[0]);
  });

  it("128 characters are allowed, 129 are not, and a long id is shown clipped", () => {
    expect(check({}, "a".repeat(128)).errors).toEqual([]);
    const long = "a".repeat(129);
    const out = check({ toml: withId(long) });
    expect(out.errors[1]).toBe(`demo/arena.toml:1: id '${"a".repeat(64)}'… (129 characters) is not a safe name ${RULE}`);
  });

  it.each(["/tmp/x", ".hidden", "-x", "a/b", "a\\b", "tab\there", "nul\u0000", "é"])("arena id %j is refused", (id) => {
    const out = check({ toml: withId(id) });
    expect(out.errors.some((e) => e.includes("is not a safe name"))).toBe(true);
    expect(out.loadError).toMatch(/^demo\/arena\.toml:1: id .* is not a safe name /);
  });
});

describe("item ids must be safe names", () => {
  it("an unsafe item id is an error on the item's line; the loader refuses it", () => {
    const out = check({ dataset: jsonl("# header", item({ id: "../x" })) });
    expect(out.errors).toEqual([`demo/dataset.jsonl:2: id '../x' is not a safe name ${RULE}`]);
    expect(out.loadError).toBe(out.errors[0]);
  });

  it("ids are judged after Python str(): 5 and True are safe, a list is not", () => {
    expect(check({ dataset: jsonl(item({ id: 5 })) }).loadError).toBeUndefined();
    expect(check({ dataset: jsonl(item({ id: true })) }).loadError).toBeUndefined();
    expect(check({ dataset: jsonl(item({ id: ["x"] })) }).errors).toEqual([`demo/dataset.jsonl:1: id "['x']" is not a safe name ${RULE}`]);
  });

  it("an unsafe duplicate is reported as both", () => {
    const out = check({ dataset: jsonl(item({ id: "a b" }), item({ id: "a b" })) });
    expect(out.errors).toEqual([
      `demo/dataset.jsonl:1: id 'a b' is not a safe name ${RULE}`,
      `demo/dataset.jsonl:2: id 'a b' is not a safe name ${RULE}`,
      "demo/dataset.jsonl:2: duplicate id 'a b'",
    ]);
  });
});

describe(`JSON nesting is limited to ${DATA_MAX_DEPTH} levels`, () => {
  const deepItem = (levels: number) => {
    // The item object, `checks` and the check object are three levels already.
    const line = JSON.stringify(item({})).replace('"value":"4"', `"value":"4","x":${nested(levels - 3)}`);
    return `${line}\n`;
  };

  it("exactly the limit loads; one more is an error on the item's line", () => {
    expect(check({ dataset: deepItem(DATA_MAX_DEPTH) }).loadError).toBeUndefined();
    const out = check({ dataset: `# c\n${deepItem(DATA_MAX_DEPTH + 1)}` });
    expect(out.errors).toEqual([`demo/dataset.jsonl:2: invalid JSON (Nested deeper than ${DATA_MAX_DEPTH} levels)`]);
    expect(out.loadError).toBe(out.errors[0]);
  });

  it("5,000 levels in the dataset or the script is one message, not a stack overflow", () => {
    expect(check({ dataset: `${VALID_DATASET}${nested(5000)}\n` }).errors).toEqual([
      `demo/dataset.jsonl:2: invalid JSON (Nested deeper than ${DATA_MAX_DEPTH} levels)`,
    ]);
    const out = check({ script: VALID_SCRIPT.replace('"2 + 2"}', `"2 + 2", "deep":\n${nested(5000)}}`) });
    expect(out.errors).toEqual([`demo/mock_script.json:7: invalid JSON (Nested deeper than ${DATA_MAX_DEPTH} levels)`]);
    expect(out.loadError).toBe(out.errors[0]);
  });

  it("deep TOML arrays and inline tables are invalid TOML, not a crash", () => {
    for (const value of [nested(5000), nested(DATA_MAX_DEPTH + 1), `${"{a = ".repeat(200)}1${"}".repeat(200)}`]) {
      const out = check({ toml: `${VALID_TOML}x = ${value}\n` });
      expect(out.errors).toEqual([expect.stringMatching(/^demo\/arena\.toml:7: invalid TOML \([^\n]+\)$/)]);
      expect(out.loadError).toBe(out.errors[0]);
    }
  });
});

describe("only regular files are read", () => {
  const files = { "arena.toml": "toml", "dataset.jsonl": "dataset", "mock_script.json": "script" } as const;
  const cases: [string, FileContent, string][] = [
    ["FIFO", { kind: "fifo" }, "a FIFO"],
    ["directory", { kind: "directory" }, "a directory"],
    ["symlink to a device", { kind: "symlink", target: "/dev/null" }, "a character device"],
  ];
  for (const [name, key] of Object.entries(files)) {
    it.each(cases)(`a %s as ${name} is refused at once, naming the file`, (_, content, kind) => {
      const out = check({ [key]: content });
      expect(out.errors).toEqual([`demo/${name}:1: not a regular file (${kind})`]);
      expect(out.loadError).toBe(out.errors[0]);
    });
  }

  it("a symlink to a regular file is read through; a dangling one is missing", () => {
    const target = path.join(tempRoot(), "elsewhere.jsonl");
    writeFileSync(target, VALID_DATASET);
    expect(check({ dataset: { kind: "symlink", target } })).toEqual({ errors: [], warnings: [], loadError: undefined });
    expect(check({ dataset: { kind: "symlink", target: `${target}.gone` } }).errors).toEqual(["demo/dataset.jsonl:1: missing dataset.jsonl"]);
  });

  it("cases.json is not parsed, but must be a regular file when present (a run hashes it)", () => {
    const out = check({ cases: { kind: "fifo" } });
    expect(out.errors).toEqual(["demo/cases.json:1: not a regular file (a FIFO)"]);
    expect(out.loadError).toBe(out.errors[0]);
    expect(check({ cases: '{"cases": []}' }).errors).toEqual([]);
    expect(check({ cases: { kind: "symlink", target: "absent.json" } }).errors).toEqual([]);
  });
});

describe("an arena with nothing to run", () => {
  it.each([["empty", ""], ["only comments and blank lines", "# one\n\n   \n# two\n"]])("an %s dataset is an error and does not load", (_, dataset) => {
    const out = check({ dataset });
    expect(out.errors).toEqual(["demo/dataset.jsonl:1: dataset.jsonl has no items"]);
    expect(out.loadError).toBe(out.errors[0]);
  });
});
