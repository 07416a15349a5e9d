/**
 * Seed 000's reproduction (scripts/findings/seed-000.ts): the first request of each item is found
 * by its message count, and every departure from the baseline is named part by part; an edition
 * not in the run says so instead of borrowing another's figure.
 */
import { fromJs, type PyDict } from "@agentic-arena/py-semantics";
import { describe, expect, it } from "vitest";
import type { RunRecord } from "../../orchestrator/report/record.ts";
import { differenceParts, firstRequestParts, seed000Section, SEED_000_PUBLISHED } from "../../scripts/findings/seed-000.ts";

const body = (messages: number, extra: Record<string, unknown> = {}) =>
  fromJs({ model: "m", messages: Array.from({ length: messages }, () => ({ role: "user", content: "x" })), tools: [{ a: 1 }], ...extra }) as PyDict;

describe("seed 000's reproduction", () => {
  it("takes each item's first request (the fewest messages) and averages its parts", () => {
    const parts = firstRequestParts([body(2), body(4, { stop: ["x"] }), body(2, { tool_choice: "auto" })]);
    expect(parts).toEqual({ tools: 10, messages: 68, extraKeys: [] });
    expect(firstRequestParts([body(2, { stop: ["Observation:"] })])?.extraKeys).toEqual(["stop"]);
  });

  it("names calls, tools block, messages and extra keys where they differ, and nothing where they do not", () => {
    const base = { tools: 637, messages: 400, extraKeys: [] };
    expect(differenceParts(base, base, 2.07, 2.07)).toBe("");
    expect(differenceParts({ tools: 700, messages: 3000, extraKeys: ["stop"] }, base, 3, 2.07)).toBe(
      "3.00 calls/item vs 2.07; tools block +63 chars; messages +2600 chars on the first request; also sends `stop`",
    );
  });

  it("puts the published figure beside each edition's, and says when an edition is missing", () => {
    const item = (prompt: number, calls: number) => ({ prompt_tokens: prompt, llm_calls: calls });
    const record = {
      arena: "tool_use",
      frameworks: [
        { framework: "vanilla", available: true, items: [item(700, 2), item(807, 2)] },
        { framework: "vanilla-py", available: true, items: [item(700, 2), item(807, 2)] },
        { framework: "smolagents", available: false, unavailable_kind: "not_installed", items: [] },
      ],
    } as unknown as RunRecord;
    const same = { tools: 637, messages: 400, extraKeys: [] };
    const lines = seed000Section(record, new Map([["vanilla", same], ["vanilla-py", same]]), { langgraph: "a note" });
    expect(lines).toContain("| `vanilla` | 753.5 | 753.5 (`vanilla-py`) | 753.5 (`vanilla`) | the baseline's wire, byte for byte |");
    expect(lines).toContain("| `smolagents` | 2935.5 | n/a (not_installed) | — (no such edition) | the baseline's wire, byte for byte |");
    expect(lines).toContain("| `langgraph` | 753.5 | — (not in this run) | — (not in this run) | a note |");
    expect(lines.filter((l) => l.startsWith("| `"))).toHaveLength(SEED_000_PUBLISHED.length);
    expect(seed000Section(undefined, new Map(), {})).toContain("The reference arenas were not found (../shared/reference), so nothing was reproduced.");
  });
});
