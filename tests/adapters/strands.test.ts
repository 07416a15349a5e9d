/**
 * `strands` through the real orchestrator (real worker processes, the real mock gateway, a real
 * restart at every durable pause), judged by the records and by what the gateway received; plus
 * the stream-idle watchdog against a loopback server that stalls mid-stream. Every failing cell is
 * the SDK's own behaviour, asserted as such and explained in workers/adapters/strands/README.md.
 */
import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { DEFAULTS } from "../../orchestrator/config/arena-config.ts";
import { classifyAdapterError } from "../../orchestrator/run/error-class.ts";
import { disableTelemetry } from "../../contract/telemetry.ts";
import { isSuspendTool, specsFor } from "../../contract/tools/registry.ts";
import { Message, TextBlock } from "@strands-agents/sdk";
import { OpenAIModel } from "@strands-agents/sdk/models/openai";
import strands from "../../workers/adapters/strands/index.ts";
import { chatModel } from "../../workers/adapters/strands/model.ts";
import { probeRun } from "../probes/support.ts";
import { adapterEntry, OUR_ARENAS } from "../support/run.ts";
import { ourArenas } from "./support/our-arenas.ts";
import { expectPausedOnceForApproval, expectResumedAfterTwoSearches } from "./support/pauses.ts";
import { batchedApprovalRun, cappedRun, expectResumedLegFullBudget, expectStoppedAtCap, resumedBudgetRun } from "./support/probes.ts";
import { ALL_PASSED, OUR_SEVEN } from "./support/records.ts";
import { dispatched, expectReplayedVerbatim, expectToolCallsAsOnWire, type AnswerJudge } from "./support/wire.ts";

const ENVELOPE = new Set(["model", "messages", "temperature", "stream", "tools", "tool_choice", "stream_options"]);
/** What the SDK's executor answers a call to a tool it does not have (the provider prefixes error results). */
const SDK_UNKNOWN_TOOL = (name: string) => `[ERROR] Tool '${name}' not found in registry`;

/** Each tool message is the shared dispatch's string on the call's arguments; the decision text for a pause; the SDK's text for an unknown tool. */
function sdkAnswers(arena: string): AnswerJudge {
  const declared = new Set(loadArena(path.join(OUR_ARENAS, arena)).declaredTools);
  return (call, content, where) => {
    if (isSuspendTool(call.name)) expect(content, where).toMatch(/^Decision: (approve|deny)\.$/);
    else if (!declared.has(call.name)) expect(content, where).toBe(SDK_UNKNOWN_TOOL(call.name));
    else expect(content, where).toBe(dispatched(call.name, call.arguments));
  };
}

describe("strands on our seven arenas", () => {
  const ours = ourArenas("strands");

  it("passes every arena except res-01 (the SDK throws on arguments it cannot JSON.parse)", () => {
    expect(ours.passCounts()).toEqual({ ...ALL_PASSED, resilience: "9/10" });
    const failed = OUR_SEVEN.flatMap((a) => ours.recordOn(a).items.filter((i) => !i.passed).map((i) => [a, i.item_id, i.llm_calls, i.error]));
    expect(failed).toEqual([["resilience", "res-01", 1, expect.stringMatching(/^ModelError: unable to parse tool input JSON <- caused by SyntaxError: /)]]);
  });

  it("reports exactly the usage the gateway served, per item and per leg (also for the response the SDK then rejected)", () => {
    ours.expectUsageAsServed();
  });

  it("streams with include_usage and puts only the shared controls on the wire", () => {
    for (const arena of OUR_SEVEN) {
      const spec = loadArena(path.join(OUR_ARENAS, arena));
      for (const body of ours.bodies(arena)) {
        expect(Object.keys(body).filter((k) => !ENVELOPE.has(k)), arena).toEqual([]);
        expect([body.model, body.temperature, body.stream, body.stream_options], arena).toEqual([DEFAULTS.model, 0, true, { include_usage: true }]);
        expect(body.messages[0], arena).toEqual({ role: "system", content: spec.systemPrompt });
        expect(body.tool_choice, arena).toBeUndefined();
        // The canonical tools block, byte for byte: a plain JSON Schema passes through unmodified.
        expect(JSON.stringify(body.tools), arena).toBe(JSON.stringify(specsFor(spec.declaredTools)));
      }
    }
  });

  it("replays the whole transcript on every call and returns every tool result byte for byte", () => {
    for (const arena of OUR_SEVEN) expectReplayedVerbatim(arena, ours.bodies(arena), sdkAnswers(arena));
  });

  it("reports as tool_calls the task calls the SDK handled, in order (unknown tool included, pause tools excluded)", () => {
    // res-01: the run ended before a tool message.
    for (const arena of OUR_SEVEN) expectToolCallsAsOnWire(arena, ours.recordOn(arena).items, ours.bodies(arena), ["res-01"]);
    expect(ours.recordOn("resilience").items.find((i) => i.item_id === "res-02")!.tool_calls).toEqual(["slide_rule", "calculator"]);
  });

  it("pauses on human_in_the_loop through a tool interrupt: once per item, book_room only after an approval", () => {
    expectPausedOnceForApproval(ours.recordOn("human_in_the_loop").items, { above: 1_500, below: 3_000 });
  });

  it("resumes durable_state in a fresh process from the JSON snapshot alone (resumed, not restarted)", () => {
    expectResumedAfterTwoSearches(ours.recordOn("durable_state").items, { below: 4_500 });
  });
});

describe("strands on the wire: iteration cap, a batched pause, transport", () => {
  const adapter = adapterEntry("strands");

  it("stops at exactly max_tool_iterations LLM calls (limits.turns) and ends with the baseline's error", async () => {
    expectStoppedAtCap(await cappedRun("strands", 3), 3);
  }, 60_000);

  it("gives a resumed leg the full budget across a real restart (the resumed tool cycle counts as a turn)", async () => {
    expectResumedLegFullBudget(await resumedBudgetRun("strands"));
  }, 60_000);

  it("runs every call batched with the pause call before pausing (finding: the concurrent executor holds back only the interrupt)", async () => {
    const item = (await batchedApprovalRun("strands")).record.items[0]!;
    expect([item.tool_calls_before_suspend, item.legs![1]!.tool_calls, item.passed]).toEqual([["search_rooms", "book_room"], [], true]);
  }, 60_000);

  it("lets the OpenAI client retry a 429 (maxRetries 2) and never retries a 400", async () => {
    const arena = { tools: ["search"], prompt: "Answer concisely.", items: [{ id: "x-01", input: "How tall is the Eiffel Tower?" }], script: { default: { turns: [{ content: "330 metres." }] } } };
    const limited = await probeRun({ adapter, arena, gatewayFaults: { faults: [429, 200] } });
    expect([limited.gateway.attempts.length, limited.record.items[0]!.output_text]).toEqual([2, "330 metres."]);
    const bad = await probeRun({ adapter, arena, gatewayFaults: { faults: [400, 200] } });
    expect(bad.gateway.attempts.length).toBe(1);
    expect(bad.record.items[0]!.error).toBe("ModelError: 400 injected 400 <- caused by BadRequestError: 400 injected 400");
  }, 60_000);
});

describe("strands: the stream-idle watchdog (cancelSignal) bounds a stall the client timeout cannot see", () => {
  let server: http.Server;
  let baseUrl = "";
  beforeAll(async () => {
    // Headers and one chunk at once, then nothing: the `openai` client's timeout has already been cleared.
    server = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(`data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", choices: [{ index: 0, delta: { role: "assistant", content: "Hel" } }] })}\n\n`);
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("ends the leg with a timeout-class error after ≈ request_timeout_s of silence", async () => {
    const config = { model: "m", baseUrl, apiKey: "k", temperature: 0, requestTimeoutS: 1, maxToolIterations: 3 };
    const runner = await strands.build({ id: "t", tools: ["search"], systemPrompt: "p", durable: false }, config, { tools: { dispatch: () => "x" } });
    const started = performance.now();
    const result = await runner.run({ id: "w-01", input: "hi", resume_with: "", checkpointDir: "" });
    const seconds = (performance.now() - started) / 1000;
    expect(result.error).toMatch(/^TimeoutError: no streamed data for 1 s$/);
    expect(classifyAdapterError(result.error!)).toBe("timeout");
    expect(seconds).toBeGreaterThan(0.9);
    expect(seconds).toBeLessThan(3);
  }, 30_000);
});

describe("strands: several tool calls in one streamed turn", () => {
  let server: http.Server;
  let baseUrl = "";
  beforeAll(async () => {
    // Text and two tool calls in one delta, then finish and usage: the mock gateway's stream shape.
    const chunk = (choices: unknown[], extra = {}) => `data: ${JSON.stringify({ id: "c1", object: "chat.completion.chunk", choices, ...extra })}\n\n`;
    server = http.createServer((_req, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      const calls = [
        { index: 0, id: "call_a", type: "function", function: { name: "search", arguments: '{"query": "Denali"}' } },
        { index: 1, id: "call_b", type: "function", function: { name: "calculator", arguments: '{"expr": "2.0 * 3"}' } },
      ];
      res.end(
        chunk([{ index: 0, delta: { role: "assistant", content: "Let me check.", tool_calls: calls }, finish_reason: null }]) +
          chunk([{ index: 0, delta: {}, finish_reason: "tool_calls" }]) +
          chunk([], { usage: { prompt_tokens: 5, completion_tokens: 7, total_tokens: 12 } }) +
          "data: [DONE]\n\n",
      );
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  });
  afterAll(() => server.close());

  async function blocks(model: OpenAIModel): Promise<string[]> {
    const gen = model.streamAggregated([new Message({ role: "user", content: [new TextBlock("hi")] })]);
    let next = await gen.next();
    while (!next.done) next = await gen.next();
    return next.value.message.content.map((b: any) => (b.type === "toolUseBlock" ? `${b.name} ${JSON.stringify(b.input)}` : `${b.type} ${b.text ?? ""}`));
  }

  it("the SDK's own provider keeps only the last call and drops the text (finding); the adapter's keeps all of them", async () => {
    const config = { model: "m", baseUrl, apiKey: "k", temperature: 0, requestTimeoutS: 5, maxToolIterations: 3 };
    expect(await blocks(chatModel(config, OpenAIModel))).toEqual(['calculator {"expr":"2.0 * 3"}']);
    expect(await blocks(chatModel(config))).toEqual(["textBlock Let me check.", 'search {"query":"Denali"}', 'calculator {"expr":"2.0 * 3"}']);
  });
});

describe("strands: telemetry exports nothing", () => {
  it("the worker env turns OTel off and drops every OTLP endpoint and header (the SDK and exporters are installed: Google ADK depends on them)", async () => {
    // Resolved from the SDK's own location, where pnpm links its peers.
    const fromSdk = createRequire(createRequire(import.meta.url).resolve("@strands-agents/sdk"));
    expect(fromSdk.resolve("@opentelemetry/api")).toContain("@opentelemetry");
    const env = disableTelemetry({ OTEL_EXPORTER_OTLP_ENDPOINT: "https://collector.example", OTEL_EXPORTER_OTLP_HEADERS: "x=1" });
    expect(env).toMatchObject({ OTEL_SDK_DISABLED: "true", OTEL_TRACES_EXPORTER: "none", OTEL_METRICS_EXPORTER: "none" });
    expect(env.OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(env.OTEL_EXPORTER_OTLP_HEADERS).toBeUndefined();
  });
});
