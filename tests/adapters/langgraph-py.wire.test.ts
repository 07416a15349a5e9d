/**
 * The `langgraph-py` and `langgraph-py-multi` adapters (LangGraph 1.2.22 + langchain-openai 1.7.4 on
 * the Python host) on scripted one-item runs through the real orchestrator (real Python workers,
 * real mock gateway), judged on the wire: the iteration cap on a fresh and on a resumed leg and
 * the pipeline's single budget, a suspend call batched with siblings, and transport (model,
 * temperature, retries, the request timeout). The same figures are the findings in
 * workers/adapters/langgraph-py/README.md; whole arenas are langgraph-py.arenas.test.ts.
 */
import { describe, expect, it } from "vitest";
import { probeRun } from "../probes/support.ts";
import { adapterEntry } from "../support/run.ts";
import { ANSWER_ONLY, batchedSiblingsRun, expectEachLegCapped, expectOneBudgetForPipeline, resumedCapRun } from "./support/probes.ts";
import { itemBodies, type Body } from "./support/wire.ts";

describe("langgraph-py-multi on multi_agent", () => {
  it("one budget for the whole pipeline: the research loop stops at the cap; a short budget skips the editor", async () => {
    await expectOneBudgetForPipeline("langgraph-py-multi");
  }, 120_000);
});

describe("langgraph-py: the iteration cap on a fresh and on a resumed leg (recursion_limit 2N and 2N − 1, as the TS twin)", () => {
  for (const cap of [4, 7]) {
    it(`exactly ${cap} LLM calls per leg against a gateway that always asks for a tool`, async () => {
      const run = await resumedCapRun("langgraph-py", cap);
      expectEachLegCapped(run, cap);
      expect(itemBodies(run.bodies, "loop forever").length + itemBodies(run.bodies, "pause, then loop").length).toBe(2 * cap + 1);
    }, 120_000);
  }
});

describe("langgraph-py: a suspend call batched with sibling calls (a finding, not in any arena script)", () => {
  it("the interrupt discards the step and the resume runs every sibling again; a later sibling may or may not have run first", async () => {
    const run = await batchedSiblingsRun("langgraph-py");
    const item = run.record.items[0]!;
    expect(item.legs!.map((l) => l.tool_calls)).toEqual([["search", "calculator"], []]);
    // The pausing leg always runs `search` (before the suspend call). `calculator` runs there only if
    // its thread started before the interrupt surfaced: Executor.map cancels the futures no thread has
    // picked up (README Finding 5, scripts/langgraph-py-sibling-race.py). Which one is a race.
    // When `calculator` was cancelled, the witness says so: leg 1 reports fewer calls than it was served.
    const cancelled = item.reported!.tool_calls?.length === 3;
    expect(item.reported!.tool_calls).toEqual(cancelled ? ["search", "search", "calculator"] : ["search", "calculator", "search", "calculator"]);
    expect(item.violations?.filter((v) => v.rule === "served-result").map((v) => [v.leg, v.detail])).toEqual([
      ...(cancelled ? [[1, 'tool calls reported ["search"], served ["search","calculator"]']] : []),
      [2, 'tool calls reported ["search","calculator"], served []'],
    ]);
    // Python's ChatOpenAI replays a tool message without its name: the order is read off the call ids.
    const last = run.bodies.at(-1)!;
    const names = new Map<string, string>(last.messages.flatMap((m: any) => (m.tool_calls ?? []).map((c: any) => [c.id, c.function.name] as [string, string])));
    expect(last.messages.filter((m: Body) => m.role === "tool").map((m: Body) => names.get(m.tool_call_id as string))).toEqual(["search", "request_approval", "calculator"]);
    expect(item.passed).toBe(true);
  }, 120_000);
});

describe("langgraph-py: shared controls and transport on the wire", () => {
  it("a canary model and temperature reach the wire; retries (openai SDK, max_retries=1): a 400 never, a 500 once, a headerless 429 once", async () => {
    const cases = [
      { faults: [400, 200], attempts: 1, answered: false, error: /^OpenAIInvalidRequestError: Error code: 400/ },
      { faults: [500, 200], attempts: 2, answered: true, error: null },
      // The TS twin's @langchain/core never retries a headerless 429; the openai SDK under Python's ChatOpenAI does.
      { faults: [429, 200], attempts: 2, answered: true, error: null },
    ] as const;
    for (const c of cases) {
      const run = await probeRun({
        adapter: adapterEntry("langgraph-py"),
        arena: ANSWER_ONLY,
        gatewayFaults: { faults: [...c.faults] },
        config: { model: "arena-canary-model-7", temperature: 0.7 },
      });
      const item = run.record.items[0]!;
      for (const b of run.bodies) {
        expect([b.model, b.temperature, b.stream, Object.keys(b).join()]).toEqual(["arena-canary-model-7", 0.7, false, "model,stream,messages,temperature,tools"]);
      }
      expect(run.gateway.attempts.length, String(c.faults)).toBe(c.attempts);
      expect(item.output_text.includes("330 metres"), String(c.faults)).toBe(c.answered);
      if (c.error === null) expect(item.error).toBeNull();
      else expect(item.error).toMatch(c.error);
    }
  }, 120_000);

  it("the request timeout bounds every attempt (one retry after a timeout)", async () => {
    const run = await probeRun({
      adapter: adapterEntry("langgraph-py"),
      arena: ANSWER_ONLY,
      gatewayFaults: { stallSeconds: 20 },
      config: { requestTimeoutS: 1 },
    });
    const held = run.gateway.attempts.map((a) => ((a.closedAt ?? 0) - a.at) / 1000);
    expect(held.length).toBe(2);
    for (const h of held) {
      expect(h).toBeGreaterThanOrEqual(0.8);
      expect(h).toBeLessThan(2);
    }
    expect(run.record.items[0]!.error).toMatch(/^OpenAITimeoutError: Request timed out/);
  }, 60_000);
});
