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
import type { GatewayRecords } from "../../orchestrator/gateway/index.ts";
import type { FrameworkRecord, ItemRecord, RunRecord } from "../../orchestrator/report/record.ts";
import { toJs } from "@agentic-arena/py-semantics";
import { disableTelemetry } from "../../contract/telemetry.ts";
import { dispatch } from "../../contract/tools/dispatch.ts";
import { isSuspendTool, specsFor } from "../../contract/tools/registry.ts";
import { loadCorpus } from "../../contract/tools/search.ts";
import { Message, TextBlock } from "@strands-agents/sdk";
import { OpenAIModel } from "@strands-agents/sdk/models/openai";
import strands from "../../workers/adapters/strands/index.ts";
import { chatModel } from "../../workers/adapters/strands/model.ts";
import { probeRun, SENTINEL_PROMPT } from "../probes/support.ts";
import { adapterEntry, OUR_ARENAS, OUR_CORPUS, quickRun } from "../support/run.ts";

const ARENAS = ["tool_use", "structured_output", "rag", "resilience", "multi_agent", "human_in_the_loop", "durable_state"];
const ENVELOPE = new Set(["model", "messages", "temperature", "stream", "tools", "tool_choice", "stream_options"]);
/** What the SDK's executor answers a call to a tool it does not have (the provider prefixes error results). */
const SDK_UNKNOWN_TOOL = (name: string) => `[ERROR] Tool '${name}' not found in registry`;

type Body = { model: string; messages: any[]; tools?: any[]; [k: string]: unknown };
const bodiesOf = (g: GatewayRecords): Body[] => g.requests.map((r) => toJs(r.body) as Body);
const frameworkOf = (record: RunRecord): FrameworkRecord => record.frameworks[0]!;
const passCount = (fw: FrameworkRecord) => `${fw.items.filter((i) => i.passed).length}/${fw.items.length}`;
const usageOf = (x: { prompt_tokens: number; completion_tokens: number; llm_calls: number }) => [x.prompt_tokens, x.completion_tokens, x.llm_calls];
const userText = (m: any): string => (typeof m.content === "string" ? m.content : m.content.map((p: any) => p.text ?? "").join(""));

function expectUsageEqualsServed(arena: string, items: readonly ItemRecord[]): void {
  for (const item of items) {
    expect(usageOf(item), `${arena}/${item.item_id}`).toEqual(usageOf(item.served!));
    for (const [n, leg] of (item.legs ?? []).entries()) expect(usageOf(leg), `${arena}/${item.item_id} leg ${n}`).toEqual(usageOf(leg.served!));
  }
}

function conversations(bodies: readonly Body[]): Map<string, Body[]> {
  const out = new Map<string, Body[]>();
  for (const body of bodies) {
    const input = userText(body.messages.find((m) => m.role === "user"));
    out.set(input, [...(out.get(input) ?? []), body]);
  }
  return out;
}

const corpus = loadCorpus(OUR_CORPUS);
const declaredTools = new Map(ARENAS.map((a) => [a, new Set(loadArena(path.join(OUR_ARENAS, a)).declaredTools)]));

/** Each tool message is the shared dispatch's string on the call's arguments; the decision text for a pause; the SDK's text for an unknown tool. */
function expectToolResultsVerbatim(arena: string, body: Body): void {
  const calls = new Map<string, { name: string; arguments: string }>();
  for (const m of body.messages) for (const c of m.tool_calls ?? []) calls.set(c.id, c.function);
  for (const m of body.messages.filter((x) => x.role === "tool")) {
    const call = calls.get(m.tool_call_id)!;
    const where = `${arena}: ${call.name}(${call.arguments})`;
    if (isSuspendTool(call.name)) expect(m.content, where).toMatch(/^Decision: (approve|deny)\.$/);
    else if (!declaredTools.get(arena)!.has(call.name)) expect(m.content, where).toBe(SDK_UNKNOWN_TOOL(call.name));
    else expect(m.content, where).toBe(dispatch(call.name, call.arguments, { corpus }));
  }
}

describe("strands on our seven arenas", () => {
  let records: Map<string, RunRecord>;
  let gateways: ReadonlyMap<string, GatewayRecords>;

  beforeAll(async () => {
    const outcome = await quickRun({ arenaDirs: ARENAS.map((a) => path.join(OUR_ARENAS, a)), adapters: [adapterEntry("strands")], corpusPath: OUR_CORPUS });
    records = new Map(outcome.records.map((r) => [r.arena, r]));
    gateways = outcome.gatewayRecords;
  }, 240_000);

  it("passes every arena except res-01 (the SDK throws on arguments it cannot JSON.parse)", () => {
    const counts = Object.fromEntries(ARENAS.map((a) => [a, passCount(frameworkOf(records.get(a)!))]));
    expect(counts).toEqual({ tool_use: "18/18", structured_output: "16/16", rag: "18/18", resilience: "9/10", multi_agent: "12/12", human_in_the_loop: "14/14", durable_state: "10/10" });
    const failed = ARENAS.flatMap((a) => frameworkOf(records.get(a)!).items.filter((i) => !i.passed).map((i) => [a, i.item_id, i.llm_calls, i.error]));
    expect(failed).toEqual([["resilience", "res-01", 1, expect.stringMatching(/^ModelError: unable to parse tool input JSON <- caused by SyntaxError: /)]]);
  });

  it("reports exactly the usage the gateway served, per item and per leg (also for the response the SDK then rejected)", () => {
    for (const arena of ARENAS) expectUsageEqualsServed(arena, frameworkOf(records.get(arena)!).items);
  });

  it("streams with include_usage and puts only the shared controls on the wire", () => {
    for (const arena of ARENAS) {
      const spec = loadArena(path.join(OUR_ARENAS, arena));
      for (const body of bodiesOf(gateways.get(arena)!)) {
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
    for (const arena of ARENAS) {
      for (const [input, bodies] of conversations(bodiesOf(gateways.get(arena)!))) {
        for (const [n, body] of bodies.entries()) {
          expectToolResultsVerbatim(arena, body);
          if (n > 0) expect(body.messages.slice(0, bodies[n - 1]!.messages.length), `${arena}: "${input}" request ${n}`).toEqual(bodies[n - 1]!.messages);
        }
      }
    }
  });

  it("reports as tool_calls the task calls the SDK handled, in order (unknown tool included, pause tools excluded)", () => {
    for (const arena of ARENAS) {
      const byInput = conversations(bodiesOf(gateways.get(arena)!));
      const inputs = new Map(loadArena(path.join(OUR_ARENAS, arena)).items.map((i) => [i.id, i.input]));
      for (const item of frameworkOf(records.get(arena)!).items) {
        if (item.item_id === "res-01") continue; // the run ended before a tool message
        const onWire = byInput.get(inputs.get(item.item_id)!)!.at(-1)!.messages.flatMap((m) => (m.tool_calls ?? []).map((c: any) => c.function.name as string));
        expect(item.tool_calls, `${arena}/${item.item_id}`).toEqual(onWire.filter((n) => !isSuspendTool(n)));
      }
    }
    expect(frameworkOf(records.get("resilience")!).items.find((i) => i.item_id === "res-02")!.tool_calls).toEqual(["slide_rule", "calculator"]);
  });

  it("pauses on human_in_the_loop through a tool interrupt: once per item, book_room only after an approval", () => {
    const decisions = new Map(loadArena(path.join(OUR_ARENAS, "human_in_the_loop")).items.map((i) => [i.id, i.resume_with || "approve"]));
    for (const item of frameworkOf(records.get("human_in_the_loop")!).items) {
      expect([item.suspends, item.tool_calls_before_suspend], item.item_id).toEqual([1, ["search_rooms"]]);
      expect(item.legs![1]!.tool_calls.includes("book_room"), item.item_id).toBe(decisions.get(item.item_id) === "approve");
      expect(item.legs![0]!.resume_state_bytes, item.item_id).toBeGreaterThan(1_500);
      expect(item.legs![0]!.resume_state_bytes, item.item_id).toBeLessThan(3_000);
    }
  });

  it("resumes durable_state in a fresh process from the JSON snapshot alone (resumed, not restarted)", () => {
    for (const item of frameworkOf(records.get("durable_state")!).items) {
      expect(item.legs!.map((l) => l.tool_calls), item.item_id).toEqual([["search", "search"], ["calculator"]]);
      expect(item.legs![0]!.resume_state_bytes, item.item_id).toBeLessThan(4_500);
    }
  });
});

describe("strands on the wire: iteration cap, a batched pause, transport", () => {
  const adapter = adapterEntry("strands");
  const loop = (tools: string[], turns: unknown[], durable = false) => ({
    tools,
    prompt: SENTINEL_PROMPT,
    ...(durable ? { durable: true } : {}),
    items: [{ id: "p-01", input: "loop forever", resume_with: "approve" }],
    script: { default: { turns } },
  });
  const calculate = { tool_calls: [{ name: "calculator", arguments: { expr: "1+1" } }] };

  it("stops at exactly max_tool_iterations LLM calls (limits.turns) and ends with the baseline's error", async () => {
    const run = await probeRun({ adapter, arena: loop(["calculator"], [calculate]), config: { maxToolIterations: 3 } });
    const item = run.framework.items[0]!;
    expect([run.bodies.length, item.llm_calls, item.error, item.tool_calls.length]).toEqual([3, 3, "max tool iterations exceeded", 3]);
  }, 60_000);

  it("gives a resumed leg the full budget across a real restart (the resumed tool cycle counts as a turn)", async () => {
    const turns = [{ tool_calls: [{ name: "calculator", arguments: { expr: "2+2" } }] }, { tool_calls: [{ name: "save_progress", arguments: { note: "4" } }] }, calculate];
    const run = await probeRun({ adapter, arena: loop(["calculator", "save_progress"], turns, true), config: { maxToolIterations: 4 } });
    const item = run.framework.items[0]!;
    expect(item.legs!.map((l) => [l.llm_calls, l.served!.llm_calls, l.suspended])).toEqual([[2, 2, true], [4, 4, false]]);
    expect(item.error).toBe("max tool iterations exceeded");
  }, 60_000);

  it("runs every call batched with the pause call before pausing (finding: the concurrent executor holds back only the interrupt)", async () => {
    const batch = { tool_calls: [{ name: "search_rooms", arguments: { capacity: 4, day: "monday" } }, { name: "request_approval", arguments: { summary: "Book R2?" } }, { name: "book_room", arguments: { room_id: "R2" } }] };
    const run = await probeRun({ adapter, arena: loop(["search_rooms", "request_approval", "book_room"], [batch, { content: "Done." }]) });
    const item = run.framework.items[0]!;
    expect([item.tool_calls_before_suspend, item.legs![1]!.tool_calls, item.passed]).toEqual([["search_rooms", "book_room"], [], true]);
  }, 60_000);

  it("lets the OpenAI client retry a 429 (maxRetries 2) and never retries a 400", async () => {
    const arena = { tools: ["search"], prompt: "Answer concisely.", items: [{ id: "x-01", input: "How tall is the Eiffel Tower?" }], script: { default: { turns: [{ content: "330 metres." }] } } };
    const limited = await probeRun({ adapter, arena, gatewayFaults: { faults: [429, 200] } });
    expect([limited.gateway.attempts.length, limited.framework.items[0]!.output_text]).toEqual([2, "330 metres."]);
    const bad = await probeRun({ adapter, arena, gatewayFaults: { faults: [400, 200] } });
    expect(bad.gateway.attempts.length).toBe(1);
    expect(bad.framework.items[0]!.error).toBe("ModelError: 400 injected 400 <- caused by BadRequestError: 400 injected 400");
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
