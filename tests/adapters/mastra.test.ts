/**
 * The `mastra` adapter through the real orchestrator (real worker processes, real mock gateway, a
 * real SIGKILL at every durable pause), judged on the wire: pass counts per arena, reported usage
 * against what the gateway served (per item and per leg), the tools block against the canonical
 * one, the envelope, the iteration cap on a fresh and on a resumed leg, a pause call batched with
 * siblings, what the model sees after each resilience fault, transport and the timeout's error
 * class. The same figures are the findings in workers/adapters/mastra/README.md.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { classifyAdapterError } from "../../orchestrator/run/error-class.ts";
import { dumpsPy, fromJs, toJs } from "@agentic-arena/py-semantics";
import { specsFor } from "../../contract/tools/registry.ts";
import { probeRun } from "../probes/support.ts";
import { adapterEntry, OUR_ARENAS } from "../support/run.ts";
import { ourArenas, ourPipelineRun } from "./support/our-arenas.ts";
import { expectPausedOnceForApproval, expectResumedAfterTwoSearches } from "./support/pauses.ts";
import { ANSWER_ONLY, batchedSiblingsRun, expectEachLegCapped, expectOneBudgetForPipeline, resumedCapRun } from "./support/probes.ts";
import { ALL_PASSED, failedIds, OUR_SEVEN } from "./support/records.ts";
import { shownAfterFault, type Body } from "./support/wire.ts";

/** The canonical specs as Mastra sends them: every key kept in order, `$schema` and `additionalProperties: false` appended. */
function asMastraSends(declared: readonly string[]): unknown {
  return specsFor(declared).map((s) => ({
    type: "function",
    function: {
      name: s.function.name,
      description: s.function.description,
      parameters: { ...s.function.parameters, $schema: "http://json-schema.org/draft-07/schema#", additionalProperties: false },
    },
  }));
}

describe("mastra: the iteration cap on a fresh and on a resumed leg", () => {
  for (const cap of [4, 7]) {
    it(`exactly ${cap} LLM calls per leg against a gateway that always asks for a tool`, async () => {
      // c-01 loops from the first call; c-02 pauses on its first call, then loops after the
      // restart: the resumed leg gets its own full budget, and no more.
      expectEachLegCapped(await resumedCapRun("mastra", cap), cap);
    }, 180_000);
  }
});

describe("mastra: a pause call batched with sibling calls (a finding, not in any arena script)", () => {
  it("what runs before the pause and after the decision", async () => {
    const run = await batchedSiblingsRun("mastra");
    const item = run.record.items[0]!;
    // One call per leg; the pause is taken at the first call, with both siblings in that response.
    expect(item.legs!.map((l) => [l.llm_calls, l.tool_calls])).toEqual([
      [1, ["search", "calculator"]],
      [1, []],
    ]);
    // What the model reads after the approval: every sibling answered by its tool, in call order.
    // The baseline answers a call after the pause "Not executed - the run paused…"; Mastra runs it
    // once the decision is in (measured: it executes in the resumed process, never before the pause).
    const tools = run.bodies.at(-1)!.messages.filter((m: Body) => m.role === "tool").map((m: Body) => m.content);
    expect(tools.slice(1)).toEqual(["Decision: approve.", "4"]);
    expect(item.passed).toBe(true);
  }, 120_000);
});

describe("mastra on our seven arenas", () => {
  const ours = ourArenas("mastra");

  it("passes every item of every arena; usage equals what was served, per item and per leg", () => {
    expect(ours.passCounts()).toEqual(ALL_PASSED);
    ours.expectUsageAsServed();
  });

  it("pauses once per item, resumes the same conversation, and books only on approval", () => {
    expectPausedOnceForApproval(ours.recordOn("human_in_the_loop").items);
    // The decision is the pause tool's result: the tool's own return on approval, the decline reason on deny.
    const decisions = ours.bodies("human_in_the_loop").flatMap((b) => b.messages).filter((m: Body) => m.role === "tool" && /^Decision/.test(m.content as string));
    expect(new Set(decisions.map((m: Body) => m.content))).toEqual(new Set(["Decision: approve.", "Decision: deny."]));
  });

  it("durable_state: two searches before the kill, one calculation after, a small handle", () => {
    expectResumedAfterTwoSearches(ours.recordOn("durable_state").items, { above: 100, below: 200 });
  });

  it("sends the canonical tools plus $schema and additionalProperties: false, inside the baseline's envelope, never streaming", () => {
    const chars: Record<string, number> = {};
    for (const arena of OUR_SEVEN) {
      const raw = ours.requests(arena);
      expect(raw.length, arena).toBeGreaterThan(0);
      const declared = loadArena(path.join(OUR_ARENAS, arena)).declaredTools;
      for (const r of raw) {
        const body = toJs(r.body) as Body;
        expect(Object.keys(body), arena).toEqual(["model", "temperature", "messages", "tools", "tool_choice"]);
        expect([body.tool_choice, "stream" in body]).toEqual(["auto", false]);
        expect(body.tools, arena).toEqual(asMastraSends(declared));
      }
      chars[arena] = dumpsPy(raw[0]!.body.get("tools") as never).length;
      expect(chars[arena]! - dumpsPy(fromJs(specsFor(declared))).length).toBe(specsFor(declared).length * 85);
    }
    expect([chars.tool_use, chars.rag, chars.human_in_the_loop, chars.durable_state]).toEqual([807, 444, 1257, 1238]);
  });

  it("records the transforms it declared on every lane, so the report can publish them", () => {
    for (const arena of OUR_SEVEN) {
      expect(ours.recordOn(arena).declarations?.map((d) => d.what), arena).toEqual(["json-schema-draft-07", "closed-objects", "non-object-arguments-as-empty-object"]);
    }
  });

  it("resilience: what the model is shown after each fault", () => {
    const shown = shownAfterFault(ours.bodies("resilience"), loadArena(path.join(OUR_ARENAS, "resilience")).items);
    expect(Object.fromEntries(Object.entries(shown).map(([id, text]) => [id, text.slice(0, 60)]))).toEqual({
      "res-01": "{\"error\":true,\"message\":\"Tool input validation failed for ca",
      "res-02": "Tool \"slide_rule\" not found. Available tools: search, calcul",
      "res-03": "dispatch",
      "res-04": "{\"error\":true,\"message\":\"Tool input validation failed for ca",
      "res-05": "dispatch",
      "res-06": "Tool \"calculator\" received invalid arguments — the provided ",
      "res-07": "dispatch",
      "res-08": "dispatch",
      "res-09": "{\"error\":true,\"message\":\"Tool input validation failed for se",
      "res-10": "{\"error\":true,\"message\":\"Tool input validation failed for ca",
    });
  });
});

describe("mastra: transport and error classes on the wire", () => {
  it("no retries (Mastra's default): a 400, a 429 and a 500 each end the item after one attempt, with the right class", async () => {
    const cases = [
      { faults: [400, 200], cls: "adapter" },
      { faults: [429, 200], cls: "adapter" },
      { faults: [500, 200], cls: "infra" },
    ] as const;
    for (const c of cases) {
      const r = await probeRun({ adapter: adapterEntry("mastra"), arena: ANSWER_ONLY, gatewayFaults: { faults: [...c.faults] } });
      const item = r.record.items[0]!;
      expect([r.gateway.attempts.length, item.error, classifyAdapterError(item.error ?? "")], String(c.faults)).toEqual([
        1,
        `AI_APICallError: injected ${c.faults[0]} (status code ${c.faults[0]})`,
        c.cls,
      ]);
    }
  }, 120_000);

  it("the request timeout bounds the model call (Mastra's step timeout) and is a timeout-class error", async () => {
    const r = await probeRun({ adapter: adapterEntry("mastra"), arena: ANSWER_ONLY, gatewayFaults: { stallSeconds: 20 }, config: { requestTimeoutS: 1 } });
    const held = r.gateway.attempts.map((a) => ((a.closedAt ?? 0) - a.at) / 1000);
    expect(held.length).toBe(1);
    expect(held[0]).toBeGreaterThanOrEqual(0.8);
    expect(held[0]).toBeLessThan(2);
    const error = r.record.items[0]!.error ?? "";
    expect(error).toBe("MastraTimeoutError: Model call timed out after 1000ms (modelSettings.timeout.stepMs)");
    expect(classifyAdapterError(error)).toBe("timeout");
  }, 60_000);
});

describe("mastra-multi on multi_agent", () => {
  it("12/12 in four calls each (researcher, tool turn, writer, editor), usage = served; one budget: the research loop stops at the cap, a short budget skips the editor", async () => {
    const { adapterRecord: multi } = await ourPipelineRun("mastra-multi");
    expect([multi.available, failedIds(multi), multi.items.length]).toEqual([true, [], 12]);
    expect(multi.items.every((i) => i.llm_calls === 4 && i.tool_calls.join() === "search")).toBe(true);
    await expectOneBudgetForPipeline("mastra-multi");
  }, 300_000);
});
