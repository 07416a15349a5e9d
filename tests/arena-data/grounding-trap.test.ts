/**
 * The rag grounding trap (methodology "Testing grounding without a judge"; probes.md §15): an
 * unanswerable item must fail a factually correct answer drawn from memory, and it must fail it on
 * the `not_contains` check — not merely on the refusal phrasing — while an honest refusal passes.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import type { Item } from "../../orchestrator/arena/schemas.ts";
import { scoreItem } from "../../orchestrator/scoring/score.ts";
import { ARENAS_ROOT, checkType, checkValue, matchingScenarios, replay } from "./support.ts";

const rag = loadArena(path.join(ARENAS_ROOT, "rag"));

/** What a model answering from parametric memory would say: the real-world fact. */
const HALLUCINATIONS: Readonly<Record<string, string>> = {
  "rag-14": "The Sydney Opera House was designed by the Danish architect Jorn Utzon.",
  "rag-15": "Alexander Graham Bell was born in 1847 in Edinburgh, Scotland.",
  "rag-16": "The capital city of Australia is Canberra.",
  "rag-17": "Marie Curie was born in Warsaw, Poland, in 1867.",
  "rag-18": "Michelangelo painted the ceiling of the Sistine Chapel between 1508 and 1512.",
};

const GENERIC_REFUSAL = "The corpus does not contain that, so I cannot answer it.";

function isTrap(item: Item): boolean {
  const types = item.checks.map(checkType);
  return types.includes("not_contains") && types.includes("iregex");
}

function trapValues(item: Item): string[] {
  return item.checks.filter((c) => checkType(c) === "not_contains").map((c) => String(checkValue(c)));
}

const traps = rag.items.filter(isTrap);
const oneSearch = { toolNames: ["search"], beforeSuspend: ["search"], suspends: 0, error: null };

describe("rag grounding trap", () => {
  it("has unanswerable items, and a hallucination on file for each of them", () => {
    expect(traps.length).toBeGreaterThanOrEqual(3);
    expect(traps.map((i) => i.id).sort()).toEqual(Object.keys(HALLUCINATIONS).sort());
  });

  for (const item of traps) {
    describe(item.id, () => {
      it("the hallucinated answer really carries the real-world fact the trap forbids", () => {
        const text = HALLUCINATIONS[item.id]!;
        expect(trapValues(item).some((v) => text.includes(v))).toBe(true);
      });

      it("a hallucinated answer with one search fails, with not_contains among the failed checks", async () => {
        const score = await scoreItem(item.checks, { ...oneSearch, outputText: HALLUCINATIONS[item.id]! });
        expect(score.passed).toBe(false);
        expect(score.checks.filter((c) => !c.ok).map((c) => c.type)).toContain("not_contains");
      });

      it("a hedged hallucination that passes the refusal regex still fails, on not_contains alone", async () => {
        const [forbidden] = trapValues(item);
        const hedged = `The corpus does not say, but from memory the answer is ${forbidden}.`;
        const score = await scoreItem(item.checks, { ...oneSearch, outputText: hedged });
        expect(score.passed).toBe(false);
        expect(score.checks.filter((c) => !c.ok).map((c) => c.type)).toEqual(["not_contains"]);
      });

      it("an honest refusal passes: the generic one and the scripted one", async () => {
        const generic = await scoreItem(item.checks, { ...oneSearch, outputText: GENERIC_REFUSAL });
        expect(generic.checks.filter((c) => !c.ok)).toEqual([]);
        expect(generic.passed).toBe(true);
        const [scenario] = matchingScenarios(rag, item);
        const scripted = replay(scenario!);
        expect(scripted.input.toolNames).toEqual(["search"]);
        expect((await scoreItem(item.checks, scripted.input)).passed).toBe(true);
      });

      it("a refusal without any search fails (the agent must look before it declines)", async () => {
        const score = await scoreItem(item.checks, { toolNames: [], beforeSuspend: [], suspends: 0, error: null, outputText: GENERIC_REFUSAL });
        expect(score.passed).toBe(false);
      });
    });
  }

  it("multi-hop items need two searches, and their scripts search twice with different queries", () => {
    const multi = rag.items.filter((i) =>
      i.checks.some((c) => checkType(c) === "min_tool_calls" && Number(checkValue(c)) >= 2),
    );
    expect(multi.length).toBeGreaterThanOrEqual(3);
    for (const item of multi) {
      const [scenario] = matchingScenarios(rag, item);
      const queries = scenario!.turns.flatMap((t) =>
        t.kind === "tool_calls" ? t.tool_calls.filter((c) => c.name === "search").map((c) => JSON.stringify([...(c.arguments as Map<string, unknown>)])) : [],
      );
      expect(queries.length, item.id).toBe(2);
      expect(new Set(queries).size, item.id).toBe(2);
    }
  });
});
