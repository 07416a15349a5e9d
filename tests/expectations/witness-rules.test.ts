/**
 * Entries with `rule = ...`: an item listed as breaking one of the witness's rules, through load
 * (the rule id must be known), compare (violation, violation_gone) and update.
 */
import { describe, expect, it } from "vitest";
import { compareWithExpectations, loadExpectations, renderDifference, updateExpectations } from "../../orchestrator/expectations/index.ts";
import { entry, item, lane, LG, loadError, record, ref, writeFile } from "./support.ts";

describe("witness rule entries (rule = ...)", () => {
  const v = (rule: string) => ({ rule, leg: 1, request: 2, detail: `${rule} evidence` });
  const LG_RULE = `mode = "mock"\narena = "resilience"\nframework = "langgraph"\nrule = "tool-output"\nitems = ["res-02"]\nreason = "ToolNode answers an unknown tool with its own text"`;
  const run = (violations: ReturnType<typeof v>[]) =>
    record("resilience", [lane("langgraph", [item("res-01", false), item("res-02", true, { violations })])]);

  it("a violation nobody listed is a difference; a listed one is not; one that stopped is violation_gone", () => {
    const none = loadExpectations(writeFile(entry(LG)));
    expect(compareWithExpectations([run([v("tool-output")])], none, "mock")).toEqual([
      { kind: "violation", arena: "resilience", framework: "langgraph", item_id: "res-02", rule: "tool-output", detail: "leg 1 request 2: tool-output evidence" },
    ]);
    const listed = loadExpectations(writeFile(entry(LG) + "\n" + entry(LG_RULE)));
    expect(compareWithExpectations([run([v("tool-output")])], listed, "mock")).toEqual([]);
    expect(compareWithExpectations([run([v("tool-output"), v("model")])], listed, "mock").map((d) => d.kind)).toEqual(["violation"]);
    const gone = compareWithExpectations([run([])], listed, "mock");
    expect(gone).toEqual([
      { kind: "violation_gone", arena: "resilience", framework: "langgraph", item_id: "res-02", rule: "tool-output", reason: "ToolNode answers an unknown tool with its own text" },
    ]);
    expect(renderDifference(gone[0]!)).toBe(
      "resilience/langgraph/res-02: no longer breaks rule tool-output, but is listed as breaking it (ToolNode answers an unknown tool with its own text)",
    );
  });

  it("an unknown rule id is an ExpectationsError at its line", () => {
    expect(loadError(entry(LG_RULE.replace("tool-output", "vibes"))).message).toMatch(/^expectations\.toml:5: expected\[0\]\.rule: unknown rule 'vibes' \(known: model, /);
  });

  it("--update-expected lists new violations under their rule and drops the ones that stopped", () => {
    const file = writeFile(entry(LG));
    const update = updateExpectations(file, [run([v("tool-output")])], "mock");
    expect(update.added).toEqual([ref("langgraph", "res-02")]);
    const entries = loadExpectations(file).entries;
    expect(entries.map((e) => [e.rule ?? null, e.items])).toEqual([[null, ["res-01"]], ["tool-output", ["res-02"]]]);
    expect(compareWithExpectations([run([v("tool-output")])], loadExpectations(file), "mock")).toEqual([]);
    const again = updateExpectations(file, [run([])], "mock");
    expect(again.removed).toEqual([ref("langgraph", "res-02")]);
    expect(loadExpectations(file).entries.map((e) => e.rule ?? null)).toEqual([null]);
  });
});
