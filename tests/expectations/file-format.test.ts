/**
 * Reading expectations.toml: what a well-formed file yields (entries, the comments kept with
 * them) and, for every way a file can be wrong, the one ExpectationsError naming its line, field
 * and kind, so a hand edit gone wrong is pointed at rather than half read.
 */
import { mkdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ExpectationsError, loadExpectations } from "../../orchestrator/expectations/index.ts";
import { entry, LG, loadError, OA, tempDir, writeFile } from "./support.ts";

describe("loadExpectations", () => {
  it("a missing file expects nothing", () => {
    const e = loadExpectations(path.join(tempDir(), "expectations.toml"));
    expect(e.exists).toBe(false);
    expect(e.entries).toEqual([]);
  });

  it("reads entries, the top-of-file comments and the comments directly above an entry", () => {
    const e = loadExpectations(writeFile(`# top\n# more\n\n# about oa\n${entry(OA)}\n# about lg\n${entry(LG)}`));
    expect(e.preamble).toBe("# top\n# more\n\n");
    expect(e.entries.map((x) => [x.framework, x.items, x.reason, x.comments])).toEqual([
      ["openai_agents", ["res-02"], "raises on an unknown tool", ["# about oa"]],
      ["langgraph", ["res-01"], "ends the run on malformed JSON", ["# about lg"]],
    ]);
  });

  it("allows two entries for one mode × arena × framework when their items differ (each keeps its reason)", () => {
    const e = loadExpectations(writeFile(entry(OA) + entry(OA.replace("res-02", "res-03").replace("raises", "hangs"))));
    expect(e.entries.map((x) => [x.items, x.reason])).toEqual([
      [["res-02"], "raises on an unknown tool"],
      [["res-03"], "hangs on an unknown tool"],
    ]);
  });

  it("names the file relative to the working directory", () => {
    const file = writeFile(entry(OA.replace('"mock"', '"replay"')));
    expect(() => loadExpectations(file, { cwd: path.dirname(path.dirname(file)) })).toThrow(
      `${path.basename(path.dirname(file))}/expectations.toml:2: expected[0].mode: must be mock or live, got 'replay'`,
    );
  });

  // Each case: the file, the exact message, the kind.
  const cases: [string, string, string, string][] = [
    ["bad TOML", `[[expected]]\nmode = "mock"\narena = \n`, "expectations.toml:3: invalid TOML (", "syntax"],
    ["an unknown top-level key", `# c\nversion = 1\n${entry(OA)}`, "expectations.toml:2: version: unknown key (the file holds only [[expected]] entries)", "unknown_key"],
    ["an unknown table", `${entry(OA)}\n[settings]\nx = 1\n`, "expectations.toml:8: settings: unknown key (the file holds only [[expected]] entries)", "unknown_key"],
    [
      "an unknown entry key",
      entry(OA.replace("items", "itmes")),
      "expectations.toml:5: expected[0].itmes: unknown key (known: mode, arena, framework, rule, items, reason)",
      "unknown_key",
    ],
    ["expected that is not tables", `expected = 1\n`, "expectations.toml:1: expected: must be [[expected]] tables, got int", "wrong_type"],
    ["a number for a string", entry(OA.replace('"resilience"', "1")), "expectations.toml:3: expected[0].arena: must be a string, got int", "wrong_type"],
    ["a string for items", entry(OA.replace('["res-02"]', '"res-02"')), "expectations.toml:5: expected[0].items: must be a list of item ids, got str", "wrong_type"],
    ["a number among the items", entry(OA.replace('["res-02"]', '["res-02", 3]')), "expectations.toml:5: expected[0].items[1]: must be a string, got int", "wrong_type"],
    ["a mode that is not mock or live", entry(OA.replace('"mock"', '"replay"')), "expectations.toml:2: expected[0].mode: must be mock or live, got 'replay'", "bad_value"],
    ["a missing mode", entry(OA.replace('mode = "mock"\n', "")), "expectations.toml:1: expected[0].mode: missing (mock or live)", "missing"],
    ["a missing reason", entry(OA.replace(/reason = .*/, "")), "expectations.toml:1: expected[0].reason: missing (say why these items fail)", "missing"],
    ["a blank reason", entry(OA.replace(/reason = .*/, 'reason = "  "')), "expectations.toml:6: expected[0].reason: is empty (say why these items fail)", "empty"],
    ["missing items", entry(OA.replace(/items = .*\n/, "")), "expectations.toml:1: expected[0].items: missing (the ids of the items expected to fail)", "missing"],
    ["empty items", entry(OA.replace('["res-02"]', "[]")), "expectations.toml:5: expected[0].items: is empty (list the items expected to fail, or remove the entry)", "empty"],
    [
      "an item listed twice in one entry",
      entry(OA.replace('["res-02"]', '["res-02",\n  "res-02"]')),
      "expectations.toml:5: expected[0].items[1]: 'res-02' is already listed for mock × resilience × openai_agents (line 5)",
      "duplicate",
    ],
    [
      "a duplicate entry for the same mode × arena × framework",
      `${entry(OA)}\n${entry(LG)}\n${entry(OA.replace("raises", "still raises"))}`,
      "expectations.toml:19: expected[2].items[0]: 'res-02' is already listed for mock × resilience × openai_agents (line 5)",
      "duplicate",
    ],
  ];
  it.each(cases)("%s is an ExpectationsError at its line", (_name, text, message, kind) => {
    const err = loadError(text);
    expect(err.message.startsWith(message)).toBe(true);
    if (kind !== "syntax") expect(err.message).toBe(message);
    expect(err.kind).toBe(kind);
    expect(err.file).toBe("expectations.toml");
  });

  it("splits message parts into fields", () => {
    const err = loadError(entry(OA.replace('"mock"', '"replay"')));
    expect([err.line, err.field, err.problem]).toEqual([2, "expected[0].mode", "must be mock or live, got 'replay'"]);
  });

  it("the same item under another framework or mode is not a duplicate", () => {
    const e = loadExpectations(writeFile(entry(OA) + entry(OA.replace("openai_agents", "langgraph")) + entry(OA.replace('"mock"', '"live"'))));
    expect(e.entries).toHaveLength(3);
  });

  it("a `[[expected]]` line inside a multi-line reason is not taken for an entry", () => {
    const tricky = OA.replace(/reason = .*/, 'reason = """\nsee below\n[[expected]]\n"""');
    const err = loadError(`${entry(tricky)}\n${entry(LG.replace('"mock"', '"replay"'))}`);
    expect(err.message).toBe("expectations.toml:12: expected[1].mode: must be mock or live, got 'replay'");
  });

  it("a directory is unreadable, not missing", () => {
    const dir = path.join(tempDir(), "expectations.toml");
    mkdirSync(dir);
    const err = (() => {
      try {
        loadExpectations(dir, { cwd: path.dirname(dir) });
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(ExpectationsError);
    expect((err as ExpectationsError).kind).toBe("unreadable");
    expect((err as ExpectationsError).message).toMatch(/^expectations\.toml:1: /);
  });
});
