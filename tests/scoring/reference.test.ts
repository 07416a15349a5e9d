/** The scorer against the original's shipped datasets (read in place, never copied). */
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import type { Check } from "../../orchestrator/arena/schemas.ts";
import { compilePyRegex } from "@agentic-arena/py-semantics/regex";
import { scoreItem } from "../../orchestrator/scoring/score.ts";
import { parsePyJson, pySplitLines, pyStrip } from "@agentic-arena/py-semantics";
import { describeWithReference, REFERENCE_ARENAS } from "../support/reference.ts";
import { input } from "./helpers.ts";

interface RefItem {
  readonly arena: string;
  readonly id: string;
  readonly checks: Check[];
}

function loadItems(): RefItem[] {
  const items: RefItem[] = [];
  for (const arena of readdirSync(REFERENCE_ARENAS).sort()) {
    const file = path.join(REFERENCE_ARENAS, arena, "dataset.jsonl");
    for (const raw of pySplitLines(readFileSync(file, "utf8"))) {
      const line = pyStrip(raw);
      if (line === "" || line.startsWith("#")) continue;
      const item = parsePyJson(line) as Map<string, unknown>;
      items.push({ arena, id: item.get("id") as string, checks: item.get("checks") as Check[] });
    }
  }
  return items;
}

describeWithReference("shipped datasets", () => {
  const items = loadItems();

  it("every iregex pattern compiles", () => {
    const patterns = items.flatMap((i) => i.checks.filter((c) => c.get("type") === "iregex").map((c) => c.get("value") as string));
    expect(patterns.length).toBeGreaterThan(10);
    for (const p of patterns) expect(() => compilePyRegex(p), p).not.toThrow();
  });

  it("every check is scorable: no field, type or internal errors", () => {
    for (const item of items) {
      const score = scoreItem(item.checks, input({ outputText: "nothing useful" }));
      for (const record of score.checks) {
        expect(record.detail, `${item.arena}/${item.id}`).not.toMatch(/^(invalid|unknown check type|internal)|requires '/);
      }
    }
  });

  it("grounding trap (probes.md §15): hallucinations fail on not_contains, an honest refusal passes", () => {
    const byId = new Map(items.map((i) => [i.id, i]));
    const hallucinations: Record<string, string> = {
      "rag-13": "Gustave Eiffel was born in 1832 in Dijon, France.",
      "rag-14": "The Statue of Liberty was designed by Frederic Auguste Bartholdi.",
      "rag-15": "Construction of the Golden Gate Bridge began in 1933.",
    };
    for (const [id, answer] of Object.entries(hallucinations)) {
      const item = byId.get(id)!;
      const bad = scoreItem(item.checks, input({ outputText: answer, toolNames: ["search"] }));
      expect(bad.passed, id).toBe(false);
      expect(bad.checks.some((c) => c.type === "not_contains" && !c.ok), id).toBe(true);
      const honest = scoreItem(item.checks, input({ outputText: "The corpus does not contain that, so I cannot answer it.", toolNames: ["search"] }));
      expect(honest.passed, id).toBe(true);
    }
  });
});
