/** Compatibility: the original project's arena folders load unchanged and validate clean. */
import { readdirSync } from "node:fs";
import path from "node:path";
import { expect, it } from "vitest";
import { listArenas } from "../../orchestrator/arena/discover.ts";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { validateArena } from "../../orchestrator/arena/validate.ts";
import { describeWithReference, REFERENCE_ARENAS } from "../support/reference.ts";

/** golden.md §2 (collapsed system prompt) and the dataset sizes of golden.md §1. */
const EXPECTED: Record<string, { prompt?: number; items: number }> = {
  tool_use: { prompt: 384, items: 15 },
  structured_output: { prompt: 434, items: 15 },
  rag: { prompt: 470, items: 15 },
  resilience: { prompt: 449, items: 8 },
  multi_agent: { prompt: 557, items: 10 },
  human_in_the_loop: { prompt: 526, items: 12 },
  durable_state: { prompt: 487, items: 8 },
  boundary_response: { items: 16 },
};

describeWithReference("reference arenas", () => {
  const ids = () => readdirSync(REFERENCE_ARENAS, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();

  it("lists every folder", () => {
    expect(listArenas(REFERENCE_ARENAS).map((a) => a.id)).toEqual(ids());
    expect(ids()).toEqual(Object.keys(EXPECTED).sort());
  });

  it.each(Object.keys(EXPECTED))("%s loads and validates with no errors or warnings", (id) => {
    const dir = path.join(REFERENCE_ARENAS, id);
    const arena = loadArena(dir);
    expect(arena.id).toBe(id);
    expect(arena.items).toHaveLength(EXPECTED[id]!.items);
    if (EXPECTED[id]!.prompt !== undefined) expect(arena.systemPrompt).toHaveLength(EXPECTED[id]!.prompt!);
    expect(validateArena(dir)).toEqual({ errors: [], warnings: [] });
  });

  it("boundary_response (with its cases.json and the boundary_action tool) loads", () => {
    const arena = loadArena(path.join(REFERENCE_ARENAS, "boundary_response"));
    expect(arena.declaredTools).toEqual(["boundary_action"]);
    expect(arena.script.scenarios[0]!.match).toBe("[file-allowed]");
  });

  it("reads the shipped arena.toml keys", () => {
    const durable = loadArena(path.join(REFERENCE_ARENAS, "durable_state"));
    expect(durable.durable).toBe(true);
    expect(durable.declaredTools).toEqual(["search", "calculator", "save_progress"]);
    expect(loadArena(path.join(REFERENCE_ARENAS, "human_in_the_loop")).durable).toBe(false);
  });

  it("keeps resilience's malformed argument strings verbatim and its explicit default", () => {
    const script = loadArena(path.join(REFERENCE_ARENAS, "resilience")).script;
    const first = script.scenarios[0]!.turns[0]!;
    expect(first.kind === "tool_calls" && first.tool_calls[0]!.arguments).toBe('{"expr": 17 * 23 + 4');
    expect(script.scenarios[0]!.deliberate_fault).toBe("calculator called with malformed JSON arguments");
    expect(script.default.turns).toEqual([{ kind: "content", content: "I could not find a confident answer." }]);
    const nulls = script.scenarios.flatMap((s) => s.turns).flatMap((t) => (t.kind === "tool_calls" ? t.tool_calls : [])).map((c) => c.arguments);
    expect(nulls).toContain("null");
  });

  it("reads commented datasets with physical line numbers", () => {
    const hitl = loadArena(path.join(REFERENCE_ARENAS, "human_in_the_loop"));
    expect(hitl.items[0]).toMatchObject({ id: "hitl-01", resume_with: "approve" });
    expect(hitl.items[0]!.line).toBeGreaterThan(1);
    expect(hitl.items.filter((i) => i.resume_with === "deny")).toHaveLength(6);
  });
});
