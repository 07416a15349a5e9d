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

/** `tu-01` … `tu-<n>`: every item of an arena, for the entries that cover a whole arena. */
const ids = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${String(i + 1).padStart(2, "0")}`);

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
      ["mock", "multi_agent", "smolagents", "system-prompt", ids("ma", 12)],
      ["mock", "multi_agent", "smolagents", "replay", ids("ma", 12)],
      ["mock", "multi_agent", "smolagents", "transcript", ids("ma", 12)],
      ["mock", "multi_agent", "smolagents", "framework-message", ids("ma", 12)],
      ["mock", "rag", "smolagents", "system-prompt", ids("rag", 18)],
      ["mock", "rag", "smolagents", "replay", ids("rag", 18)],
      ["mock", "rag", "smolagents", "transcript", ids("rag", 18)],
      ["mock", "rag", "smolagents", "framework-message", ids("rag", 18)],
      ["mock", "resilience", "smolagents", "system-prompt", ids("res", 10)],
      ["mock", "resilience", "smolagents", "replay", ids("res", 10)],
      ["mock", "resilience", "smolagents", "transcript", ids("res", 10)],
      ["mock", "resilience", "smolagents", "framework-message", ids("res", 10)],
      ["mock", "resilience", "smolagents", null, ["res-02", "res-04", "res-05", "res-06", "res-09", "res-10"]],
      ["mock", "resilience", "smolagents", "item-framing", ["res-02", "res-04", "res-05", "res-06", "res-09", "res-10"]],
      ["mock", "structured_output", "smolagents", "system-prompt", ids("so", 16)],
      ["mock", "structured_output", "smolagents", "replay", ids("so", 16)],
      ["mock", "structured_output", "smolagents", "transcript", ids("so", 16)],
      ["mock", "structured_output", "smolagents", "framework-message", ids("so", 16)],
      ["mock", "tool_use", "smolagents", "system-prompt", ids("tu", 18)],
      ["mock", "tool_use", "smolagents", "replay", ids("tu", 18)],
      ["mock", "tool_use", "smolagents", "transcript", ids("tu", 18)],
      ["mock", "tool_use", "smolagents", "framework-message", ids("tu", 18)],
      ["mock", "multi_agent", "smolagents-multi", "system-prompt", ids("ma", 12)],
      ["mock", "multi_agent", "smolagents-multi", "replay", ids("ma", 12)],
      ["mock", "multi_agent", "smolagents-multi", "transcript", ids("ma", 12)],
      ["mock", "multi_agent", "smolagents-multi", "framework-message", ids("ma", 12)],
      ["mock", "resilience", "microsoft_af", "tool-output", ["res-02"]],
      ["mock", "resilience", "microsoft_af-multi", "tool-output", ["res-02"]],
      ["mock", "resilience", "pydantic_ai", "tool-output", ["res-01", "res-02"]],
      ["mock", "resilience", "pydantic_ai", "transcript", ["res-01", "res-06", "res-10"]],
      ["mock", "resilience", "google_adk-py", "tool-output", ["res-02"]],
      ["mock", "multi_agent", "google_adk-py-multi", "framework-message", ids("ma", 12)],
      ["mock", "rag", "google_adk-py-multi", "framework-message", ids("rag", 18)],
      ["mock", "resilience", "google_adk-py-multi", "framework-message", ids("res", 10)],
      ["mock", "structured_output", "google_adk-py-multi", "framework-message", ids("so", 16)],
      ["mock", "tool_use", "google_adk-py-multi", "framework-message", ids("tu", 18)],
      ["mock", "durable_state", "google_adk-py-multi", "framework-message", ids("dur", 10)],
      ["mock", "human_in_the_loop", "google_adk-py-multi", "framework-message", ids("hitl", 14)],
      ["mock", "resilience", "google_adk-py-multi", "tool-output", ["res-02"]],
      ["mock", "resilience", "openai_agents-py", null, ["res-02"]],
      ["mock", "resilience", "langgraph-py", null, ["res-01", "res-10"]],
      ["mock", "resilience", "langgraph-py", "tool-output", ["res-02"]],
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
