/**
 * `--update-expected` (updateExpectations): it rewrites the file so the same run has no
 * differences, while keeping the reasons and comments people wrote, the entries of what did not
 * run, and a file that needs no change untouched.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  compareWithExpectations,
  DEFAULT_PREAMBLE,
  ExpectationsError,
  loadExpectations,
  REASON_PLACEHOLDER,
  unwrittenReasons,
  updateExpectations,
} from "../../orchestrator/expectations/index.ts";
import { entry, item, lane, LG, OA, record, ref, resilienceRun, tempDir, writeFile } from "./support.ts";

describe("updateExpectations", () => {

  it("round trip: after an update the same run has no differences, and written reasons are kept", () => {
    const file = writeFile(`# top comment\n\n# about oa\n${entry(OA)}\n# about lg\n${entry(LG)}`);
    const run = [resilienceRun({ lg01: true }), record("tool_use", [lane("vanilla", [item("t-01", false), item("t-02", true)])])];
    expect(updateExpectations(file, run, "mock")).toEqual({
      added: [ref("vanilla", "t-01", "tool_use")],
      removed: [ref("langgraph", "res-01")],
      kept: [ref("openai_agents", "res-02")],
      written: true,
    });
    const after = loadExpectations(file);
    expect(compareWithExpectations(run, after, "mock")).toEqual([]);
    expect(after.preamble).toBe("# top comment\n\n");
    expect(after.entries.map((e) => [e.framework, e.items, e.reason, e.comments])).toEqual([
      ["openai_agents", ["res-02"], "raises on an unknown tool", ["# about oa"]],
      ["vanilla", ["t-01"], REASON_PLACEHOLDER, []],
    ]);
    expect(unwrittenReasons(after).map((e) => e.framework)).toEqual(["vanilla"]);
  });

  it("keeps entries for modes, arenas, frameworks and items that did not run", () => {
    const other = [
      OA.replace('"mock"', '"live"'),
      OA.replace('"resilience"', '"rag"'),
      OA.replace("openai_agents", "vanilla-multi"),
      LG.replace('["res-01"]', '["res-01", "res-09"]'),
    ];
    const file = writeFile(other.map(entry).join("\n"));
    const partial = record("resilience", [lane("langgraph", [item("res-01", true)])]);
    const result = updateExpectations(file, [partial], "mock");
    expect(result.removed).toEqual([ref("langgraph", "res-01")]);
    expect(result.added).toEqual([]);
    expect(result.kept).toEqual([ref("openai_agents", "res-02", "resilience", "live"), ref("openai_agents", "res-02", "rag"), ref("vanilla-multi", "res-02"), ref("langgraph", "res-09")]);
    expect(loadExpectations(file).entries.map((e) => [e.mode, e.arena, e.framework, e.items])).toEqual([
      ["live", "resilience", "openai_agents", ["res-02"]],
      ["mock", "rag", "openai_agents", ["res-02"]],
      ["mock", "resilience", "vanilla-multi", ["res-02"]],
      ["mock", "resilience", "langgraph", ["res-09"]],
    ]);
  });

  it("keeps an item failing on only some repeats, and leaves a lane that did not run alone", () => {
    const file = writeFile(entry(OA) + entry(LG));
    const run = record("resilience", [
      lane("openai_agents", [item("res-02", true), item("res-02", false, { repeat: 1 })]),
      lane("langgraph", [], { available: false, unavailable_kind: "build_failed", reason: "x" }),
    ]);
    expect(updateExpectations(file, [run], "mock")).toMatchObject({ added: [], removed: [], written: false });
  });

  it("a new failure beside a listed one gets its own entry after it, so the old reason does not cover it", () => {
    const file = writeFile(entry(OA) + entry(LG));
    const run = record("resilience", [lane("openai_agents", [item("res-02", false), item("res-05", false)])]);
    updateExpectations(file, [run], "mock");
    expect(loadExpectations(file).entries.map((e) => [e.framework, e.items, e.reason])).toEqual([
      ["openai_agents", ["res-02"], "raises on an unknown tool"],
      ["openai_agents", ["res-05"], REASON_PLACEHOLDER],
      ["langgraph", ["res-01"], "ends the run on malformed JSON"],
    ]);
  });

  it("an entry whose items all pass is removed with its comments", () => {
    const file = writeFile(`# top\n\n${entry(OA)}\n# about lg\n${entry(LG)}`);
    updateExpectations(file, [resilienceRun({ lg01: true })], "mock");
    expect(readFileSync(file, "utf8")).not.toContain("about lg");
    expect(readFileSync(file, "utf8")).toContain("# top\n");
  });

  it("nothing changed: the file is not touched, and no file is created", () => {
    const file = writeFile(`# hand formatted\n[[expected]]\nmode="mock"\narena="resilience"\nframework="openai_agents"\nitems=["res-02"]\nreason="r"\n`);
    const before = readFileSync(file, "utf8");
    const mtime = statSync(file).mtimeMs;
    expect(updateExpectations(file, [resilienceRun({ lg01: true })], "mock").written).toBe(false);
    expect(readFileSync(file, "utf8")).toBe(before);
    expect(statSync(file).mtimeMs).toBe(mtime);
    const absent = path.join(tempDir(), "expectations.toml");
    expect(updateExpectations(absent, [resilienceRun({ oa02: true, lg01: true })], "mock").written).toBe(false);
    expect(() => statSync(absent)).toThrow();
  });

  it("creates a missing file with the standard header", () => {
    const file = path.join(tempDir(), "expectations.toml");
    expect(updateExpectations(file, [resilienceRun()], "mock").added).toEqual([ref("openai_agents", "res-02"), ref("langgraph", "res-01")]);
    expect(readFileSync(file, "utf8").startsWith(DEFAULT_PREAMBLE)).toBe(true);
    expect(compareWithExpectations([resilienceRun()], loadExpectations(file), "mock")).toEqual([]);
  });

  it("writes reasons with quotes and newlines as valid TOML", () => {
    const file = writeFile(entry(OA.replace(/reason = .*/, 'reason = """a "quoted"\nsecond line"""')) + entry(LG));
    updateExpectations(file, [resilienceRun({ lg01: true })], "mock");
    expect(loadExpectations(file).entries[0]!.reason).toBe('a "quoted"\nsecond line');
  });

  it("refuses to overwrite a broken file", () => {
    const text = entry(OA.replace('"mock"', '"replay"'));
    const file = writeFile(text);
    expect(() => updateExpectations(file, [resilienceRun()], "mock")).toThrow(ExpectationsError);
    expect(readFileSync(file, "utf8")).toBe(text);
  });
});
