/**
 * The repo's own arenas/expectations.toml: that it lists the findings a mock bench really has,
 * each with a reason written, and that it is already in the form an update writes, so
 * `--update-expected` on an unchanged run leaves it byte for byte alone.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { compareWithExpectations, loadExpectations, serializeExpectations, unwrittenReasons } from "../../orchestrator/expectations/index.ts";
import { REPO_ROOT } from "../support/reference.ts";
import { resilienceRun } from "./support.ts";

describe("the checked-in arenas/expectations.toml", () => {
  const file = path.join(REPO_ROOT, "arenas", "expectations.toml");

  it("lists the mock findings and the witness findings of every adapter, each with a written reason", () => {
    const e = loadExpectations(file);
    expect(e.entries.map((x) => [x.mode, x.arena, x.framework, x.rule ?? null, x.items])).toEqual([
      ["mock", "resilience", "openai_agents", null, ["res-02"]],
      ["mock", "resilience", "langgraph", null, ["res-01"]],
      ["mock", "resilience", "openai_agents", "tool-output", ["res-01"]],
      ["mock", "resilience", "langgraph", "tool-output", ["res-02", "res-04", "res-06", "res-09", "res-10"]],
      ["mock", "resilience", "ai_sdk", "tool-output", ["res-01", "res-02"]],
      ["mock", "resilience", "strands", null, ["res-01"]],
      ["mock", "resilience", "strands", "tool-output", ["res-02"]],
      ["mock", "resilience", "google_adk", null, ["res-02"]],
      ["mock", "resilience", "mastra", "tool-output", ["res-01", "res-02", "res-04", "res-06", "res-09", "res-10"]],
    ]);
    expect(unwrittenReasons(e)).toEqual([]);
    // The synthetic run carries no witness evidence: judge it by the failure entries alone.
    expect(compareWithExpectations([resilienceRun()], { ...e, entries: e.entries.filter((x) => !x.rule) }, "mock")).toEqual([]);
  });

  it("is in the form --update-expected writes, so an update never churns it", () => {
    const e = loadExpectations(file);
    expect(serializeExpectations(e.preamble, e.entries)).toBe(readFileSync(file, "utf8"));
  });
});
