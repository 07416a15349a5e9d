/**
 * The `langgraph` and `langgraph-multi` adapters on scripted one-item runs through the real
 * orchestrator (real worker processes, real mock gateway), judged on the wire: the iteration cap
 * on a fresh and on a resumed leg and the pipeline's single budget, a suspend call batched with
 * siblings, transport (model, temperature, retries, the request timeout), and the message-id
 * gotcha against a loopback server. The same figures are the findings in
 * workers/adapters/langgraph/README.md; whole arenas are langgraph.arenas.test.ts.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import adapter from "../../workers/adapters/langgraph/index.ts";
import { probeRun } from "../probes/support.ts";
import { adapterEntry } from "../support/run.ts";
import { ANSWER_ONLY, batchedSiblingsRun, expectEachLegCapped, expectOneBudgetForPipeline, resumedCapRun } from "./support/probes.ts";
import { dispatched, itemBodies, type Body } from "./support/wire.ts";

describe("langgraph-multi on multi_agent", () => {
  it("one budget for the whole pipeline: the research loop stops at the cap; a short budget skips the editor", async () => {
    await expectOneBudgetForPipeline("langgraph-multi");
  }, 120_000);
});

describe("langgraph: the iteration cap on a fresh and on a resumed leg", () => {
  for (const cap of [4, 7]) {
    it(`exactly ${cap} LLM calls per leg against a gateway that always asks for a tool`, async () => {
      // c-01 loops from the first call; c-02 pauses on its first call, then loops after the
      // restart: the resumed leg gets its own full budget, and no more.
      const run = await resumedCapRun("langgraph", cap);
      expectEachLegCapped(run, cap);
      expect(itemBodies(run.bodies, "loop forever").length + itemBodies(run.bodies, "pause, then loop").length).toBe(2 * cap + 1);
    }, 120_000);
  }
});

describe("langgraph: a suspend call batched with sibling calls (a finding, not in any arena script)", () => {
  it("the ToolNode runs every sibling, the interrupt discards the step, and the resume runs them all again", async () => {
    const run = await batchedSiblingsRun("langgraph");
    const item = run.record.items[0]!;
    // The baseline runs `search`, pauses, and answers `calculator` with "Not executed" on resume:
    // legs [["search"], []]. LangGraph executes both siblings in each leg (the leg-1 results are
    // thrown away with the interrupted step), so each really ran twice. The record holds what the
    // wire shows — leg 1's calls, `calculator` included because the resumed request answers it with
    // its output — and the second run, which never reached the wire, is the adapter's word alone:
    // `served-result` names it on leg 2.
    expect(item.legs!.map((l) => l.tool_calls)).toEqual([["search", "calculator"], []]);
    expect(item.reported!.tool_calls).toEqual(["search", "calculator", "search", "calculator"]);
    expect(item.violations?.filter((v) => v.rule === "served-result").map((v) => [v.leg, v.detail])).toEqual([
      [2, 'tool calls reported ["search","calculator"], served []'],
    ]);
    const last = run.bodies.at(-1)!.messages.filter((m: Body) => m.role === "tool").map((m: Body) => m.name);
    expect(last).toEqual(["search", "request_approval", "calculator"]);
    expect(item.passed).toBe(true);
  }, 120_000);
});

describe("langgraph: shared controls and transport on the wire", () => {
  it("a canary model and temperature reach the wire; retries: a 400 never, a 500 once, a headerless 429 never", async () => {
    const cases = [
      { faults: [400, 200], attempts: 1, answered: false, error: /^Error: 400 / },
      { faults: [500, 200], attempts: 2, answered: true, error: null },
      // @langchain/core 1.4 classifies a 429 without a Retry-After hint as "capacity" and stops
      // (maxRetries notwithstanding); with `Retry-After` it waits and retries (a finding, not gated).
      { faults: [429, 200], attempts: 1, answered: false, error: /^RateLimitCapacityError: 429 / },
    ] as const;
    for (const c of cases) {
      const run = await probeRun({
        adapter: adapterEntry("langgraph"),
        arena: ANSWER_ONLY,
        gatewayFaults: { faults: [...c.faults] },
        config: { model: "arena-canary-model-7", temperature: 0.7 },
      });
      const item = run.record.items[0]!;
      // Every served request: the canary model and temperature, the baseline's envelope, no stream.
      for (const b of run.bodies) {
        expect([b.model, b.temperature, b.stream, Object.keys(b).sort().join()]).toEqual([
          "arena-canary-model-7",
          0.7,
          false,
          "messages,model,stream,temperature,tools",
        ]);
      }
      expect(run.gateway.attempts.length, String(c.faults)).toBe(c.attempts);
      expect(item.output_text.includes("330 metres"), String(c.faults)).toBe(c.answered);
      if (c.error === null) expect(item.error).toBeNull();
      else expect(item.error).toMatch(c.error);
    }
  }, 120_000);

  it("the request timeout bounds every attempt (one retry after a timeout)", async () => {
    const run = await probeRun({
      adapter: adapterEntry("langgraph"),
      arena: ANSWER_ONLY,
      gatewayFaults: { stallSeconds: 20 },
      config: { requestTimeoutS: 1 },
    });
    const held = run.gateway.attempts.map((a) => ((a.closedAt ?? 0) - a.at) / 1000);
    expect(held.length).toBe(2);
    for (const h of held) {
      // ≈ T: the client starts its timer before the gateway sees the request, so allow some slack below.
      expect(h).toBeGreaterThanOrEqual(0.8);
      expect(h).toBeLessThan(2);
    }
    expect(run.record.items[0]!.error).toMatch(/TimeoutError/);
  }, 60_000);
});

describe("langgraph: replies are never dropped from the history (the message-id gotcha)", () => {
  it("a server that repeats one completion id still gets the whole transcript and is billed twice", async () => {
    // LangGraph's messages reducer replaces a message whose id it already holds.
    const { messagesStateReducer } = await import("@langchain/langgraph");
    const { AIMessage } = await import("@langchain/core/messages");
    expect(messagesStateReducer([new AIMessage({ content: "a", id: "x" })], [new AIMessage({ content: "b", id: "x" })])).toHaveLength(1);

    const requests: Body[] = [];
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (c) => (body += c));
      req.on("end", () => {
        const parsed = JSON.parse(body) as Body;
        requests.push(parsed);
        const first = requests.length === 1;
        const message = first
          ? { role: "assistant", content: null, tool_calls: [{ id: "call_1", type: "function", function: { name: "search", arguments: '{"query": "Eiffel Tower"}' } }] }
          : { role: "assistant", content: "330 metres." };
        res.setHeader("Content-Type", "application/json");
        res.end(
          JSON.stringify({
            id: "chatcmpl-123", // the same id every time
            object: "chat.completion",
            created: 0,
            model: "m",
            choices: [{ index: 0, message, finish_reason: first ? "tool_calls" : "stop" }],
            usage: { prompt_tokens: first ? 10 : 20, completion_tokens: first ? 1 : 2, total_tokens: first ? 11 : 22 },
          }),
        );
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const runner = await adapter.build(
        { id: "gotcha", tools: ["search"], systemPrompt: "Answer.", durable: false },
        {
          model: "m",
          baseUrl: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
          apiKey: "k",
          temperature: 0,
          requestTimeoutS: 10,
          maxToolIterations: 6,
        },
        { tools: { dispatch: dispatched } },
      );
      const result = await runner.run({ id: "g-01", input: "How tall is the Eiffel Tower?", resume_with: "", checkpointDir: "" });
      expect(result.output_text).toBe("330 metres.");
      expect([result.prompt_tokens, result.completion_tokens, result.llm_calls]).toEqual([30, 3, 2]);
      expect(requests[1]!.messages.map((m: Body) => m.role)).toEqual(["system", "user", "assistant", "tool"]);
    } finally {
      server.close();
    }
  }, 60_000);
});
