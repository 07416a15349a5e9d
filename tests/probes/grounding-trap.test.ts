/**
 * §15 Grounding trap (rag): an answer from memory fails on `not_contains`, an honest refusal
 * passes, multi-hop items demand and script two different searches; every single agent walks the
 * reference rag identically in mock mode. The probe is the registry's
 * (orchestrator/probes/grounding-probes.ts); its hostile arena is our rag without the trap.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ARENA_FIXTURES } from "../../fixtures/catalogue.ts";
import { OUR_ARENAS } from "../support/run.ts";
import { describeProbe } from "./registry-suite.ts";

describe("§15 the hostile arena", () => {
  it("rag-no-trap is our rag dataset with exactly the not_contains checks removed (nothing else differs)", () => {
    const fixture = ARENA_FIXTURES["rag-no-trap"];
    const rows = (file: string) =>
      readFileSync(file, "utf8")
        .split("\n")
        .filter((l) => l.trim() && !l.startsWith("#"))
        .map((l) => JSON.parse(l) as { checks: { type: string }[] });
    const ours = rows(path.join(OUR_ARENAS, "rag", "dataset.jsonl"));
    const copy = rows(path.join(fixture.dir, "dataset.jsonl"));
    expect(copy).toEqual(ours.map((r) => ({ ...r, checks: r.checks.filter((c) => c.type !== "not_contains") })));
    expect(readFileSync(path.join(fixture.dir, "mock_script.json"), "utf8")).toBe(readFileSync(path.join(OUR_ARENAS, "rag", "mock_script.json"), "utf8"));
  });
});

describeProbe("grounding-trap", { fixtures: ["rag-no-trap"] });
