/**
 * The witness checks every request of every run: hostile fixtures that are compliant at first
 * and break later (a later request, a resumed leg, a later item) are caught in an ordinary run,
 * with no probe setup, while the baseline on the same arenas shows no violation at all.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../fixtures/catalogue.ts";
import type { ItemRecord } from "../../orchestrator/report/record.ts";
import { adapterEntry, OUR_ARENAS, OUR_CORPUS, quickRun } from "../support/run.ts";

async function run(adapter: { name: string; module: string }, arenas: string[]) {
  const { records } = await quickRun({
    arenaDirs: arenas.map((a) => path.join(OUR_ARENAS, a)),
    adapters: [adapter],
    corpusPath: OUR_CORPUS,
    concurrency: 1,
  });
  return records.flatMap((r) => r.frameworks[0]!.items);
}

const rulesOf = (i: ItemRecord) => [...new Set((i.violations ?? []).map((v) => v.rule))];

describe("the witness on every run", () => {
  it("the baseline breaks no rule on any request of these arenas", async () => {
    const items = await run(adapterEntry("vanilla"), ["tool_use", "durable_state", "resilience"]);
    expect(items.length).toBeGreaterThan(30);
    expect(items.flatMap((i) => i.violations ?? [])).toEqual([]);
    // The figures are the witness's: served equals reported for an honest adapter.
    for (const i of items) expect([i.prompt_tokens, i.completion_tokens, i.llm_calls]).toEqual([i.reported!.prompt_tokens, i.reported!.completion_tokens, i.reported!.llm_calls]);
  }, 120_000);

  it("late-model-swap: its first item is clean; every later request is caught by `model`", async () => {
    const items = await run(FIXTURES["late-model-swap"], ["tool_use"]);
    expect(rulesOf(items[0]!)).toEqual([]);
    expect(items.slice(1).every((i) => rulesOf(i).includes("model"))).toBe(true);
    expect(items[1]!.violations![0]!.detail).toBe('model "gpt-4o-cheaper-snapshot", configured "gpt-4.1-mini"');
  }, 60_000);

  it("tool-rewrapper: caught by `tool-output` with the expected and seen text", async () => {
    const items = await run(FIXTURES["tool-rewrapper"], ["tool_use"]);
    const caught = items.filter((i) => rulesOf(i).includes("tool-output"));
    expect(caught.length).toBeGreaterThan(items.length / 2);
    expect(caught[0]!.violations!.find((v) => v.rule === "tool-output")!.detail).toMatch(/expected ".*", seen ".*\\n\(verified by the agent\)"/);
    // Every check still passes: mock mode alone would never have shown it.
    expect(caught.every((i) => i.passed)).toBe(true);
  }, 60_000);

  it("resume-drift: clean first legs, caught on the resumed leg by `temperature`", async () => {
    const items = await run(FIXTURES["resume-drift"], ["durable_state"]);
    for (const i of items) {
      const temperature = (i.violations ?? []).filter((v) => v.rule === "temperature");
      expect(temperature.length).toBeGreaterThan(0);
      expect(temperature.every((v) => v.leg >= 2)).toBe(true);
    }
  }, 120_000);

  it("carry-over: the first item is clean; later items carry another item's input (`cross-item`, `item-framing`)", async () => {
    const items = await run(FIXTURES["carry-over"], ["tool_use"]);
    expect(rulesOf(items[0]!)).toEqual([]);
    for (const i of items.slice(1)) expect(rulesOf(i)).toEqual(expect.arrayContaining(["cross-item", "item-framing"]));
  }, 60_000);

  it("memorised: an answer no LLM call served scores nothing: `no-llm-call`, `served-result`, and the claimed calls are `usage-reported`", async () => {
    const items = await run(FIXTURES.memorised, ["tool_use"]);
    const first = items.find((i) => i.item_id === "tu-01")!;
    // Scored on what the gateway served (nothing), not on the answer it knew by heart.
    expect(first.passed).toBe(false);
    expect(first.output_text).toBe("");
    expect(first.reported!.output_text).toBe("48 * 37 - 129 = 1647");
    expect(first.llm_calls).toBe(0);
    expect(rulesOf(first).sort()).toEqual(["no-llm-call", "served-result", "usage-reported"]);
    expect(items.filter((i) => i.item_id !== "tu-01").every((i) => rulesOf(i).length === 0)).toBe(true);
  }, 60_000);

  // The probe fixtures break their rule on every request, so an ordinary run catches them too.
  it.each([
    ["extra-sampling", "envelope", "tool_use"],
    ["blind-streamer", "stream-usage", "tool_use"],
    ["extra-tool", "declared-tools", "rag"],
    ["drops-k", "tool-schema", "tool_use"],
    ["hardcoded-prompt", "system-prompt", "tool_use"],
    ["delta-only", "replay", "tool_use"],
    ["own-temperature", "temperature", "tool_use"],
  ] as const)("%s is caught by `%s` in an ordinary run (%s)", async (name, rule, arena) => {
    const items = await run(FIXTURES[name], [arena]);
    expect(items.filter((i) => rulesOf(i).includes(rule)).length).toBeGreaterThan(items.length / 2);
  }, 60_000);

  it("under-reporter: the figures are what the gateway served, and the mismatch is `usage-reported`", async () => {
    const items = await run(FIXTURES["under-reporter"], ["tool_use"]);
    const multi = items.filter((i) => i.llm_calls > 1);
    expect(multi.length).toBeGreaterThan(0);
    for (const i of multi) {
      expect(rulesOf(i)).toContain("usage-reported");
      expect(i.prompt_tokens).toBe(i.served!.prompt_tokens);
      expect(i.prompt_tokens).toBeGreaterThan(i.reported!.prompt_tokens);
    }
  }, 60_000);
});
