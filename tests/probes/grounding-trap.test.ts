/**
 * §15 Grounding trap (rag). Scorer level, no adapter: on the reference items rag-13..15 (and on our
 * own unanswerable items) an answer from memory with one search fails on a `not_contains` check and
 * an honest refusal passes; the multi-hop items demand and script two different searches. Then
 * every single-agent adapter walks the reference rag identically in mock mode (15/15, exactly two
 * searches per multi-hop item). The hostile fixture — our rag dataset with the `not_contains` checks removed
 * — must be reported as missing the trap.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { ARENA_FIXTURES } from "../../fixtures/catalogue.ts";
import { OUR_ARENAS } from "../support/run.ts";
import { describeWithReference, REFERENCE_ARENAS, REFERENCE_CORPUS } from "../support/reference.ts";
import { groundingViolations, multiHopIds, multiHopScriptViolations, ragWalkViolations, type Hallucinations } from "./checks/grounding.ts";
import { proceed } from "../../orchestrator/probes/built.ts";
import { judge, knownFor, KNOWN_FINDINGS } from "../../orchestrator/probes/known.ts";
import { probeAdapters, probeRun } from "./support.ts";

/** probes.md §15. */
const REFERENCE_HALLUCINATIONS: Hallucinations = {
  "rag-13": "Gustave Eiffel was born in 1832 in Dijon, France.",
  "rag-14": "The Statue of Liberty was designed by Frederic Auguste Bartholdi.",
  "rag-15": "Construction of the Golden Gate Bridge began in 1933.",
};

/** Our unanswerable items (arenas/rag: rag-14..18). */
const OUR_HALLUCINATIONS: Hallucinations = {
  "rag-14": "The Sydney Opera House was designed by the Danish architect Jorn Utzon.",
  "rag-15": "Alexander Graham Bell was born in 1847 in Edinburgh, Scotland.",
  "rag-16": "The capital city of Australia is Canberra.",
  "rag-17": "Marie Curie was born in Warsaw, Poland, in 1867.",
  "rag-18": "Michelangelo painted the ceiling of the Sistine Chapel between 1508 and 1512.",
};

/** Real adapters' known findings on the rag walk (adapter → case → expected violations). Empty. */
const KNOWN = KNOWN_FINDINGS["grounding"]!; // kept with the registry (orchestrator/probes/known.ts)

const OUR_RAG = path.join(OUR_ARENAS, "rag");
const REF_RAG = path.join(REFERENCE_ARENAS, "rag");

/**
 * The walk is for single agents: a pipeline variant (researcher → writer → editor) is scoped to
 * multi_agent, where its extra stages are the point; on rag it would only add stages.
 */
const walkers = () => probeAdapters().filter((a) => !a.variant);

function walk(dir: string, probeCase: string, corpusPath?: string) {
  for (const adapter of walkers()) {
    it(`${adapter.name} walks rag: every item, exactly two searches per multi-hop item`, async (ctx) => {
      const arena = loadArena(dir);
      const run = await probeRun({ adapter, arena: dir, ...(corpusPath ? { corpusPath } : {}) });
      if (!proceed(ctx, run.framework)) return;
      const { unexpected, stale } = judge(ragWalkViolations(run.framework, arena, multiHopIds(arena)), knownFor(KNOWN, adapter.name, probeCase));
      expect(unexpected).toEqual([]);
      expect(stale).toEqual([]);
    }, 300_000);
  }
}

describeWithReference("§15 grounding trap (reference rag)", () => {
  const rag = loadArena(REF_RAG);

  it("rag-13..15: an answer from memory fails on not_contains; the honest refusal passes", () => {
    expect(groundingViolations(rag, REFERENCE_HALLUCINATIONS)).toEqual([]);
  });

  it("multi-hop rag-10..12 demand two searches and script two different ones", () => {
    expect(multiHopIds(rag)).toEqual(["rag-10", "rag-11", "rag-12"]);
    expect(multiHopScriptViolations(rag, multiHopIds(rag))).toEqual([]);
  });

  describe.concurrent("adapters", () => walk(REF_RAG, "rag-reference", REFERENCE_CORPUS));
});

describe("§15 grounding trap (our rag)", () => {
  const rag = loadArena(OUR_RAG);

  it("rag-14..18: an answer from memory fails on not_contains; the honest refusal passes", () => {
    expect(groundingViolations(rag, OUR_HALLUCINATIONS)).toEqual([]);
  });

  it("multi-hop items demand two searches and script two different ones", () => {
    expect(multiHopIds(rag).length).toBeGreaterThanOrEqual(3);
    expect(multiHopScriptViolations(rag, multiHopIds(rag))).toEqual([]);
  });

});

describe("§15 hostile fixture: rag without the trap", () => {
  const fixture = ARENA_FIXTURES["rag-no-trap"];

  it("is our rag dataset with exactly the not_contains checks removed (nothing else differs)", () => {
    const rows = (file: string) =>
      readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l.trim() && !l.startsWith("#"))
        .map((l) => JSON.parse(l) as { checks: { type: string }[] });
    const ours = rows(path.join(OUR_RAG, "dataset.jsonl"));
    const copy = rows(path.join(fixture.dir, "dataset.jsonl"));
    expect(copy).toEqual(ours.map((r) => ({ ...r, checks: r.checks.filter((c) => c.type !== "not_contains") })));
    expect(readFileSync(path.join(fixture.dir, "mock_script.json"), "utf8")).toBe(readFileSync(path.join(OUR_RAG, "mock_script.json"), "utf8"));
  });

  it("the probe reports the trap missing on every unanswerable item", () => {
    const v = groundingViolations(loadArena(fixture.dir), OUR_HALLUCINATIONS);
    const ids = Object.keys(OUR_HALLUCINATIONS);
    expect(v, v.join("\n")).toEqual(ids.map((id) => `${id}: the trap is missing — the answer from memory fails only on iregex, not on a not_contains check`));
  });
});
