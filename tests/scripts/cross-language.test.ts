/**
 * The cross-language table (scripts/findings/cross-language.ts): twins are found by name, the cost
 * table's cells are read back by column, and each edition's findings come from the expectations.
 */
import { describe, expect, it } from "vitest";
import type { ExpectedEntry } from "../../orchestrator/expectations/index.ts";
import type { RunRecord } from "../../orchestrator/report/record.ts";
import { costCells, crossLanguageSection, twins } from "../../scripts/findings/cross-language.ts";

describe("the cross-language table", () => {
  it("pairs each TypeScript entry with its -py twin, a variant with its -py-multi one", () => {
    expect(twins(["vanilla", "vanilla-multi", "langgraph", "vanilla-py", "vanilla-py-multi", "smolagents"])).toEqual([
      ["vanilla", "vanilla-py"],
      ["vanilla-multi", "vanilla-py-multi"],
    ]);
    expect(twins(["smolagents", "pydantic_ai"])).toEqual([]);
  });

  it("reads cold start and RSS off the cost table's rows", () => {
    const table = "| adapter | adds | shared | cold | rss | tools |\n|---|--:|--:|--:|--:|--:|\n| `vanilla` | 0.0 (0) | 0.0 | 240 | 61 | 637 |\n| `vanilla-py` | 0.0 (0 Python) | — | 120 | 22 | 637 |";
    expect(costCells(table)).toEqual(new Map([["vanilla", ["240", "61"]], ["vanilla-py", ["120", "22"]]]));
  });

  it("gives each edition a row with its figures and findings, and says when no framework has two", () => {
    const item = (p: number, c: number, legs: { resume_state_bytes?: number }[] = []) => ({ prompt_tokens: p, llm_calls: c, legs });
    const records = [
      { arena: "tool_use", frameworks: [{ framework: "vanilla", available: true, items: [item(100, 2)] }, { framework: "vanilla-py", available: true, items: [item(100, 2)] }] },
      { arena: "durable_state", frameworks: [{ framework: "vanilla-py", available: true, items: [item(300, 4, [{ resume_state_bytes: 900 }, {}])] }] },
    ] as unknown as RunRecord[];
    const expectations = [{ mode: "mock", arena: "resilience", framework: "vanilla-py", rule: "tool-output", items: ["res-01"], reason: "r" }] as unknown as ExpectedEntry[];
    const lines = crossLanguageSection({
      names: ["vanilla", "vanilla-py"],
      pause: new Map([["vanilla", "emulated"], ["vanilla-py", "emulated"]]),
      records,
      facts: new Map([["vanilla", { toolsChars: 637, checkpointFiles: 0 }], ["vanilla-py", { toolsChars: 637, checkpointFiles: 0 }]]),
      costs: undefined,
      expectations,
      notes: { vanilla: "byte-equal" },
    });
    expect(lines).toContain("| `vanilla` | TypeScript (`vanilla`) | 637 | tool_use 100.0 | tool_use 2.0 | emulated | — | 0 | — | — | none |");
    expect(lines).toContain("| `vanilla` | Python (`vanilla-py`) | 637 | durable_state 300.0, tool_use 100.0 | durable_state 4.0, tool_use 2.0 | emulated | 900 | 0 | — | — | resilience breaks tool-output ×1 |");
    expect(lines).toContain("- `vanilla`: byte-equal");
    expect(crossLanguageSection({ names: ["vanilla"], pause: new Map(), records: [], facts: new Map(), costs: undefined, expectations: [], notes: {} })).toContain(
      "No framework has both editions in the catalogue yet.",
    );
  });
});
