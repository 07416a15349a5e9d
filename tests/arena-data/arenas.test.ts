/**
 * The project's own arena data (arenas/): every item is served a scenario, every scripted
 * answer passes its own item's checks, and the shared corpus stays free of fault markers.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { scoreItem } from "../../orchestrator/scoring/score.ts";
import {
  CORPUS_PATH,
  EXPECTED_ARENAS,
  arenaDirs,
  checkType,
  loadProjectArenas,
  matchingScenarios,
  replay,
  SUSPEND_TOOLS,
} from "./support.ts";

const arenas = loadProjectArenas();

describe("project arenas", () => {
  it("ships exactly the seven arenas, each at or above its promised size", () => {
    expect(arenaDirs()).toEqual(Object.keys(EXPECTED_ARENAS).sort());
    for (const arena of arenas) {
      expect(arena.items.length, arena.id).toBeGreaterThanOrEqual(EXPECTED_ARENAS[arena.id]!);
      expect(arena.description, arena.id).not.toBe("");
      expect(arena.systemPrompt, arena.id).not.toBe("");
    }
  });

  it("declares the tools each task is about, and durable only where the pause must cross a restart", () => {
    const tools = Object.fromEntries(arenas.map((a) => [a.id, [...a.declaredTools].sort()]));
    expect(tools).toEqual({
      tool_use: ["calculator", "search"],
      structured_output: ["search"],
      rag: ["search"],
      resilience: ["calculator", "search"],
      multi_agent: ["search"],
      human_in_the_loop: ["book_room", "request_approval", "search_rooms"],
      durable_state: ["calculator", "save_progress", "search"],
    });
    const durable = arenas.filter((a) => a.durable).map((a) => a.id);
    expect(durable).toEqual(["durable_state"]);
  });

  for (const arena of arenas) {
    describe(arena.id, () => {
      it("every item matches exactly one scenario, and every scenario serves some item", () => {
        const used = new Set<string>();
        for (const item of arena.items) {
          const hits = matchingScenarios(arena, item);
          expect(hits.map((s) => s.match), item.id).toHaveLength(1);
          used.add(hits[0]!.match);
        }
        expect(arena.script.scenarios.filter((s) => !used.has(s.match)).map((s) => s.match)).toEqual([]);
      });

      it("scripted calls use declared tools unless the scenario declares a deliberate fault", () => {
        const declared = new Set(arena.declaredTools);
        for (const scenario of arena.script.scenarios) {
          if (scenario.deliberate_fault) continue;
          for (const turn of scenario.turns) {
            if (turn.kind !== "tool_calls") continue;
            for (const call of turn.tool_calls) expect(declared.has(call.name), `${scenario.match}: ${call.name}`).toBe(true);
          }
        }
      });

      it("every scripted answer passes its item's checks when fed the scripted tool calls", async () => {
        const failures: string[] = [];
        for (const item of arena.items) {
          const [scenario] = matchingScenarios(arena, item);
          const { input } = replay(scenario!);
          const score = await scoreItem(item.checks, input);
          if (!score.passed) {
            const bad = score.checks.filter((c) => !c.ok).map((c) => `${c.type}: ${c.detail}`);
            failures.push(`${item.id}: ${bad.join("; ")}`);
          }
        }
        expect(failures).toEqual([]);
      });
    });
  }

  it("resilience: every item names its fault, and every scenario is marked as a deliberate fault", () => {
    const arena = arenas.find((a) => a.id === "resilience")!;
    const notes = arena.items.map((i) => i.note);
    expect(notes.every((n) => n.trim() !== "")).toBe(true);
    expect(new Set(notes).size).toBe(notes.length);
    for (const item of arena.items) {
      const [scenario] = matchingScenarios(arena, item);
      expect(scenario!.deliberate_fault, item.id).toBe(item.note);
    }
  });

  it("human_in_the_loop: half approve, half deny; approve and deny scripts differ only after the pause", () => {
    const arena = arenas.find((a) => a.id === "human_in_the_loop")!;
    const decisions = arena.items.map((i) => i.resume_with);
    expect(decisions.every((d) => d === "approve" || d === "deny")).toBe(true);
    expect(decisions.filter((d) => d === "approve").length).toBe(decisions.filter((d) => d === "deny").length);
    for (const item of arena.items) {
      const [scenario] = matchingScenarios(arena, item);
      const names = scenario!.turns.map((t) => (t.kind === "content" ? "<content>" : t.tool_calls.map((c) => c.name).join(",")));
      expect(names.slice(0, 2), item.id).toEqual(["search_rooms", "request_approval"]);
      expect(names.slice(2), item.id).toEqual(item.resume_with === "approve" ? ["book_room", "<content>"] : ["<content>"]);
      const types = item.checks.map(checkType);
      expect(types, item.id).toEqual(expect.arrayContaining(["suspended", "no_tool_before_suspend"]));
      expect(types, item.id).toContain(item.resume_with === "approve" ? "tool_used" : "tool_not_used");
    }
  });

  it("durable_state: search, search, save_progress, calculator, answer — and call_counts pins it", () => {
    const arena = arenas.find((a) => a.id === "durable_state")!;
    for (const item of arena.items) {
      const [scenario] = matchingScenarios(arena, item);
      const names = scenario!.turns.map((t) => (t.kind === "content" ? "<content>" : t.tool_calls.map((c) => c.name).join(",")));
      expect(names, item.id).toEqual(["search", "search", "save_progress", "calculator", "<content>"]);
      const types = item.checks.map(checkType);
      expect(types, item.id).toEqual(expect.arrayContaining(["call_counts", "suspended"]));
    }
  });

  it("a restarting adapter (searches twice more after the restart) fails durable_state on call_counts", async () => {
    const arena = arenas.find((a) => a.id === "durable_state")!;
    for (const item of arena.items) {
      const [scenario] = matchingScenarios(arena, item);
      const { input } = replay(scenario!);
      const restarted = { ...input, toolNames: ["search", "search", "search", "search", "calculator"] };
      const score = await scoreItem(item.checks, restarted);
      expect(score.passed, item.id).toBe(false);
      expect(score.checks.filter((c) => !c.ok).map((c) => c.type), item.id).toEqual(["call_counts"]);
    }
  });

  it("human_in_the_loop: an adapter that books without pausing fails every item", async () => {
    const arena = arenas.find((a) => a.id === "human_in_the_loop")!;
    for (const item of arena.items) {
      const score = await scoreItem(item.checks, {
        outputText: "Booked the room.",
        toolNames: ["search_rooms", "book_room"],
        beforeSuspend: ["search_rooms", "book_room"],
        suspends: 0,
        error: null,
      });
      const failed = score.checks.filter((c) => !c.ok).map((c) => c.type);
      expect(failed, item.id).toEqual(expect.arrayContaining(["suspended", "no_tool_before_suspend"]));
    }
  });

  it("suspend tools are the only pause points the scripts use", () => {
    for (const arena of arenas) {
      const pauses = arena.script.scenarios.flatMap((s) =>
        s.turns.flatMap((t) => (t.kind === "tool_calls" ? t.tool_calls.map((c) => c.name).filter((n) => SUSPEND_TOOLS.has(n)) : [])),
      );
      const declaresPause = arena.declaredTools.some((t) => SUSPEND_TOOLS.has(t));
      expect(pauses.length > 0, arena.id).toBe(declaresPause);
    }
  });
});

describe("corpus.json", () => {
  const text = readFileSync(CORPUS_PATH, "utf8");
  const corpus = JSON.parse(text) as Array<Record<string, unknown>>;

  it("is an array of 30-45 {title, text} entries with unique titles, all ASCII", () => {
    expect(Array.isArray(corpus)).toBe(true);
    expect(corpus.length).toBeGreaterThanOrEqual(30);
    expect(corpus.length).toBeLessThanOrEqual(45);
    for (const entry of corpus) {
      expect(Object.keys(entry).sort()).toEqual(["text", "title"]);
      expect(typeof entry["title"]).toBe("string");
      expect(typeof entry["text"]).toBe("string");
    }
    expect(new Set(corpus.map((e) => e["title"])).size).toBe(corpus.length);
    expect(/^[\x00-\x7f]*$/.test(text)).toBe(true);
  });

  it("contains none of the fault-marker words (tools.md §5)", () => {
    const lower = text.toLowerCase();
    for (const marker of ["error", "invalid", "unknown tool", "required", "no results"]) {
      expect(lower.includes(marker), marker).toBe(false);
    }
  });
});
