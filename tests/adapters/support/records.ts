/**
 * Reading run records the way every adapter suite judges them: pass counts, failed items, and the
 * usage an adapter reports against what the gateway served (per item and per leg, where the
 * classic double-count hides).
 */
import { expect } from "vitest";
import type { AdapterRecord, ItemRecord, RunRecord } from "../../../orchestrator/report/record.ts";

/** Our seven arenas, in the order the suites report them. */
export const OUR_SEVEN = ["tool_use", "structured_output", "rag", "resilience", "multi_agent", "human_in_the_loop", "durable_state"];

/**
 * Every item of every one of our arenas passed: each suite spreads this and overrides only the
 * arenas where its framework fails an item, with the reason beside the override.
 */
export const ALL_PASSED: Readonly<Record<string, string>> = {
  tool_use: "18/18",
  structured_output: "16/16",
  rag: "18/18",
  resilience: "10/10",
  multi_agent: "12/12",
  human_in_the_loop: "14/14",
  durable_state: "10/10",
};

export const adapterRecordOf = (record: RunRecord): AdapterRecord => record.frameworks[0]!;

export const passCount = (adapterRecord: AdapterRecord) => `${adapterRecord.items.filter((i) => i.passed).length}/${adapterRecord.items.length}`;

export const failedIds = (adapterRecord: AdapterRecord) => adapterRecord.items.filter((i) => !i.passed).map((i) => i.item_id);

/** One framework's record in each arena of a run that had several frameworks side by side. */
export function byArena(records: readonly RunRecord[], adapter: string): Map<string, AdapterRecord> {
  return new Map(records.map((r) => [r.arena, r.frameworks.find((f) => f.framework === adapter)!]));
}

type Usage = { prompt_tokens: number; completion_tokens: number; llm_calls: number };

export const usageOf = (x: Usage) => [x.prompt_tokens, x.completion_tokens, x.llm_calls];

/** Every item and leg whose reported usage is not what the gateway served (a missing `served` is a mismatch). */
export function usageMismatches(items: readonly ItemRecord[]): string[] {
  const figures = (u: Usage | undefined) => (u ? usageOf(u).join() : "none");
  const bad: string[] = [];
  for (const i of items) {
    if (figures(i) !== figures(i.served)) bad.push(`${i.item_id}: reported ${figures(i)} served ${figures(i.served)}`);
    for (const [n, leg] of (i.legs ?? []).entries()) {
      if (figures(leg) !== figures(leg.served)) bad.push(`${i.item_id} leg ${n + 1}: reported ${figures(leg)} served ${figures(leg.served)}`);
    }
  }
  return bad;
}

export function expectUsageEqualsServed(arena: string, items: readonly ItemRecord[]): void {
  expect(usageMismatches(items), arena).toEqual([]);
}
