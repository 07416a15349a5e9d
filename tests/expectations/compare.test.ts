/**
 * Comparing run records with the expectations: each kind of difference (new_failure, error,
 * now_passes, lane_error), --strict, partial runs, repeats and modes.
 */
import { describe, expect, it } from "vitest";
import { compareWithExpectations, loadExpectations, type ComparedItem, type ComparedRecord } from "../../orchestrator/expectations/index.ts";
import type { RunRecord } from "../../orchestrator/report/record.ts";
import { entry, item, known, lane, LG, record, resilienceRun, writeFile } from "./support.ts";

// Compile-time: the CLI passes RunRecords straight in (checked by `pnpm typecheck`).
export function acceptsRunRecords(records: RunRecord[]): readonly ComparedRecord[] {
  return records;
}

describe("compareWithExpectations", () => {
  it("a run with exactly the expected failures has no differences", () => {
    expect(compareWithExpectations([resilienceRun()], known(), "mock")).toEqual([]);
  });

  it("new_failure: a failed item nobody listed", () => {
    const run = record("tool_use", [lane("vanilla", [item("t-01", true), item("t-02", false)])]);
    expect(compareWithExpectations([run], known(), "mock")).toEqual([
      { kind: "new_failure", arena: "tool_use", framework: "vanilla", item_id: "t-02", repeats: 1, failed_repeats: [0] },
    ]);
  });

  it("error: an errored item nobody listed, with its class and text", () => {
    const run = record("tool_use", [
      lane("vanilla", [item("t-01", false, { error: "LLM HTTP 503", error_class: "infra" }), item("t-02", false, { error: "worker exited" })]),
    ]);
    expect(compareWithExpectations([run], known(), "mock")).toEqual([
      { kind: "error", arena: "tool_use", framework: "vanilla", item_id: "t-01", repeats: 1, failed_repeats: [0], error_class: "infra", error: "LLM HTTP 503" },
      // A record from before errors were classified: no class, still an error.
      { kind: "error", arena: "tool_use", framework: "vanilla", item_id: "t-02", repeats: 1, failed_repeats: [0], error: "worker exited" },
    ]);
  });

  it("now_passes: a listed item that passed", () => {
    expect(compareWithExpectations([resilienceRun({ lg01: true })], known(), "mock")).toEqual([
      { kind: "now_passes", arena: "resilience", framework: "langgraph", item_id: "res-01", repeats: 1, reason: "ends the run on malformed JSON" },
    ]);
  });

  it("lane_error: a framework whose build or load failed; declared unavailability is not a difference", () => {
    const run = record("resilience", [
      lane("a", [], { available: false, unavailable_kind: "build_failed", reason: "build failed: boom" }),
      lane("b", [], { available: false, unavailable_kind: "load_failed", reason: "cannot load" }),
      lane("c", [], { available: false, unavailable_kind: "unsupported", reason: "no resume" }),
      lane("d", [], { available: false, unavailable_kind: "stub", reason: "stub adapter" }),
      lane("e", [], { available: false, unavailable_kind: "not_installed", reason: "not installed" }),
      lane("f", [], { available: false, reason: "?" }),
    ]);
    expect(compareWithExpectations([run], known(), "mock")).toEqual([
      { kind: "lane_error", arena: "resilience", framework: "a", unavailable_kind: "build_failed", reason: "build failed: boom" },
      { kind: "lane_error", arena: "resilience", framework: "b", unavailable_kind: "load_failed", reason: "cannot load" },
      // No kind recorded: not known to be benign, so it counts.
      { kind: "lane_error", arena: "resilience", framework: "f", reason: "?" },
    ]);
  });

  it("strict: listed failures are differences too, marked with the listed reason", () => {
    const diffs = compareWithExpectations([resilienceRun({ lg01: true })], known(), "mock", { strict: true });
    expect(diffs.map((d) => [d.kind, d.framework, "expected_reason" in d ? d.expected_reason : undefined])).toEqual([
      ["error", "openai_agents", "raises on an unknown tool"],
      ["now_passes", "langgraph", undefined],
    ]);
  });

  it("a partial run compares only what ran: listed items, frameworks and arenas left out are not now_passes", () => {
    const partial = record("resilience", [lane("openai_agents", [item("res-01", true)]), lane("vanilla", [item("res-02", true)])]);
    expect(compareWithExpectations([partial], known(), "mock")).toEqual([]);
    expect(compareWithExpectations([], known(), "mock")).toEqual([]);
  });

  it("repeats: failing on some repeats is still failing; now_passes needs every repeat to pass", () => {
    const reps = (id: string, passes: boolean[], extra: Partial<ComparedItem> = {}) =>
      passes.map((passed, repeat) => item(id, passed, { repeat, ...(passed ? {} : extra) }));
    const run = record("resilience", [
      lane("openai_agents", reps("res-02", [true, false, true])),
      lane("langgraph", reps("res-01", [true, true, true])),
      lane("vanilla", [...reps("res-03", [true, false, false]), ...reps("res-04", [false, true], { error: "boom", error_class: "timeout" })]),
    ]);
    expect(compareWithExpectations([run], known(), "mock")).toEqual([
      { kind: "now_passes", arena: "resilience", framework: "langgraph", item_id: "res-01", repeats: 3, reason: "ends the run on malformed JSON" },
      { kind: "new_failure", arena: "resilience", framework: "vanilla", item_id: "res-03", repeats: 3, failed_repeats: [1, 2] },
      { kind: "error", arena: "resilience", framework: "vanilla", item_id: "res-04", repeats: 2, failed_repeats: [0], error_class: "timeout", error: "boom" },
    ]);
  });

  it("an item that failed on one repeat and errored on another is an error", () => {
    const run = record("tool_use", [lane("vanilla", [item("t-01", false), item("t-01", false, { repeat: 1, error: "boom", error_class: "adapter" })])]);
    expect(compareWithExpectations([run], known(), "mock")).toMatchObject([{ kind: "error", failed_repeats: [0, 1], error: "boom" }]);
  });

  it("entries of the other mode do not apply, and records of the other mode are refused", () => {
    const liveOnly = loadExpectations(writeFile(entry(LG.replace('"mock"', '"live"'))));
    expect(compareWithExpectations([resilienceRun({ oa02: true })], liveOnly, "mock")).toMatchObject([{ kind: "new_failure", framework: "langgraph" }]);
    expect(compareWithExpectations([record("resilience", [lane("langgraph", [item("res-01", false)])], "live")], liveOnly, "live")).toEqual([]);
    expect(() => compareWithExpectations([resilienceRun()], known(), "live")).toThrow("record of arena 'resilience' is a mock run, compared as live");
  });
});
