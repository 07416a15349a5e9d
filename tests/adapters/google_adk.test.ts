/**
 * `google_adk` and `google_adk-multi`: the Chat Completions model class on its own (what it puts
 * on the wire and what it hands ADK back), then both adapters through the real orchestrator (real
 * worker processes, the real mock gateway, a real restart at every durable pause), judged by the
 * records and by what the gateway received. Every figure and finding here is the one in
 * workers/adapters/google_adk/README.md.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { FunctionTool, InMemoryRunner, LlmAgent, SequentialAgent } from "@google/adk";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { DEFAULTS } from "../../orchestrator/config/arena-config.ts";
import { createGateway, type GatewayRecords } from "../../orchestrator/gateway/index.ts";
import type { FrameworkRecord, ItemRecord, RunRecord } from "../../orchestrator/report/record.ts";
import { classifyAdapterError } from "../../orchestrator/run/error-class.ts";
import { dumpsPy, fromJs, toJs } from "@agentic-arena/py-semantics";
import { dispatch } from "../../contract/tools/dispatch.ts";
import { isSuspendTool, specsFor } from "../../contract/tools/registry.ts";
import { loadCorpus } from "../../contract/tools/search.ts";
import { PIPELINE_ROLES } from "../../contract/texts.ts";
import { ChatCompletionsLlm, RAW_ARGUMENTS, requestBody, responseOf, UnsupportedRequestError } from "../../workers/adapters/google_adk/model.ts";
import { probeRun, SENTINEL_PROMPT } from "../probes/support.ts";
import { describeWithReference, REFERENCE_ARENAS, REFERENCE_CORPUS } from "../support/reference.ts";
import { adapterEntry, OUR_ARENAS, OUR_CORPUS, quickRun } from "../support/run.ts";

type Body = { model: string; messages: any[]; tools?: any[]; [k: string]: unknown };
const ARENAS = ["tool_use", "structured_output", "rag", "resilience", "multi_agent", "human_in_the_loop", "durable_state"];
/** What ADK's FunctionTool answers a rejected confirmation with (the baseline's text is `Decision: deny.`). */
const ADK_REJECTED = '{"error":"This tool call is rejected."}';

const bodiesOf = (g: GatewayRecords): Body[] => g.requests.map((r) => toJs(r.body) as Body);
const frameworkOf = (record: RunRecord): FrameworkRecord => record.frameworks[0]!;
const passCount = (fw: FrameworkRecord) => `${fw.items.filter((i) => i.passed).length}/${fw.items.length}`;
const usageOf = (x: { prompt_tokens: number; completion_tokens: number; llm_calls: number }) => [x.prompt_tokens, x.completion_tokens, x.llm_calls];
const corpus = loadCorpus(OUR_CORPUS);
const lastLine = (out: string) => out.trimEnd().split("\n").at(-1)!;

function expectUsageEqualsServed(arena: string, items: readonly ItemRecord[]): void {
  for (const item of items) {
    expect(usageOf(item), `${arena}/${item.item_id}`).toEqual(usageOf(item.served!));
    for (const [n, leg] of (item.legs ?? []).entries()) expect(usageOf(leg), `${arena}/${item.item_id} leg ${n}`).toEqual(usageOf(leg.served!));
  }
}

/** Requests grouped into conversations by their first user message (the item input), in arrival order. */
function conversations(bodies: readonly Body[]): Map<string, Body[]> {
  const out = new Map<string, Body[]>();
  for (const body of bodies) {
    const input = body.messages.find((m) => m.role === "user")?.content as string;
    out.set(input, [...(out.get(input) ?? []), body]);
  }
  return out;
}

/** Every tool message is dispatch's string on the call's own arguments, byte for byte; a pause tool's, the decision. */
function expectToolResultsVerbatim(arena: string, body: Body): void {
  const calls = new Map<string, { name: string; arguments: string }>();
  for (const m of body.messages) for (const c of m.tool_calls ?? []) calls.set(c.id, c.function);
  for (const m of body.messages.filter((x) => x.role === "tool")) {
    const call = calls.get(m.tool_call_id);
    expect(call, `${arena}: tool message without a call`).toBeDefined();
    const where = `${arena}: ${call!.name}(${call!.arguments})`;
    if (isSuspendTool(call!.name)) expect([ADK_REJECTED, "Decision: approve."], where).toContain(m.content);
    else expect(m.content, where).toBe(dispatch(call!.name, call!.arguments, { corpus }));
  }
}

describe("the model class (model.ts): ADK's Gemini-shaped request as Chat Completions, and back", () => {
  const call = (id: string, name: string, raw: string) => ({ functionCall: { id, name, args: {} }, partMetadata: { [RAW_ARGUMENTS]: raw } });

  it("maps system instruction, contents, tool results and temperature in the baseline's key order", () => {
    const body = requestBody(
      {
        model: "m",
        contents: [
          { role: "user", parts: [{ text: "q" }] },
          { role: "model", parts: [{ text: "thinking", thought: true }, call("c1", "calculator", '{"expr": "1 +1"}')] },
          { role: "user", parts: [{ functionResponse: { id: "c1", name: "calculator", response: { result: "2" } } }] },
          { role: "model", parts: [{ text: "It is 2." }] },
          { role: "user", parts: [{ text: "For context:" }, { text: "[a] said: hi" }] },
        ],
        config: { systemInstruction: "Be brief.", temperature: 0.3, labels: { adk_agent_name: "assistant" } },
        toolsDict: {},
        liveConnectConfig: {},
      },
      "fallback",
    );
    expect(Object.keys(body)).toEqual(["model", "messages", "temperature", "stream"]);
    expect(body).toEqual({
      model: "m",
      messages: [
        { role: "system", content: "Be brief." },
        { role: "user", content: "q" },
        // The raw argument string as the model sent it (spacing kept), not a re-serialisation of args.
        { role: "assistant", content: null, tool_calls: [{ id: "c1", type: "function", function: { name: "calculator", arguments: '{"expr": "1 +1"}' } }] },
        { role: "tool", tool_call_id: "c1", content: "2" },
        { role: "assistant", content: "It is 2." },
        { role: "user", content: [{ type: "text", text: "For context:" }, { type: "text", text: "[a] said: hi" }] },
      ],
      temperature: 0.3,
      stream: false,
    });
  });

  it("converts Gemini schemas (ADK's own zod-derived tools) to JSON Schema and sends a raw JSON Schema as is", () => {
    const body = requestBody(
      {
        contents: [],
        config: {
          tools: [
            {
              functionDeclarations: [
                { name: "a", description: "A.", parameters: { type: "OBJECT" as any, properties: { n: { type: "INTEGER" as any, nullable: true, minItems: "1" } }, required: ["n"] } },
                { name: "b", parametersJsonSchema: { type: "object", properties: {} } },
              ],
            },
          ],
        },
        toolsDict: {},
        liveConnectConfig: {},
      },
      "m",
    );
    expect(body.tools).toEqual([
      { type: "function", function: { name: "a", description: "A.", parameters: { type: "object", properties: { n: { type: ["integer", "null"], minItems: 1 } }, required: ["n"] } } },
      { type: "function", function: { name: "b", parameters: { type: "object", properties: {} } } },
    ]);
  });

  it("refuses a generation setting it has no mapping for instead of dropping it", () => {
    for (const config of [{ topP: 0.5 }, { toolConfig: { functionCallingConfig: {} } }, { maxOutputTokens: 10 }]) {
      const request = { contents: [], config, toolsDict: {}, liveConnectConfig: {} };
      expect(() => requestBody(request, "m")).toThrow(UnsupportedRequestError);
      expect(() => requestBody(request, "m")).toThrow(`generateContentConfig.${Object.keys(config)[0]} has no Chat Completions mapping`);
    }
  });

  it("turns the reply into Gemini content: usage as usageMetadata, the raw arguments kept, a non-object argument string as {}", () => {
    const reply = responseOf({
      choices: [{ message: { content: null, tool_calls: [{ id: "x", function: { name: "calculator", arguments: '{"expr": "2+' } }, { function: { name: "s", arguments: "[1]" } }] } }],
      usage: { prompt_tokens: 10, completion_tokens: 3 },
    });
    expect(reply).toEqual({
      content: {
        role: "model",
        parts: [
          { functionCall: { id: "x", name: "calculator", args: {} }, partMetadata: { [RAW_ARGUMENTS]: '{"expr": "2+' } },
          { functionCall: { id: "call_1", name: "s", args: {} }, partMetadata: { [RAW_ARGUMENTS]: "[1]" } },
        ],
      },
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 3, totalTokenCount: 13 },
    });
    // An empty reply still carries its usage (ADK then records a usage-only event).
    expect(responseOf({ choices: [{ message: { content: "" } }], usage: { prompt_tokens: 4, completion_tokens: 0 } })).toEqual({
      usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 0, totalTokenCount: 4 },
    });
  });

  it("structured output through ADK: outputSchema becomes response_format json_schema, the reply lands parsed in state", async () => {
    const record = { name: "Eiffel Tower", height_m: 330 };
    const gateway = createGateway({ script: { default: { turns: [{ content: JSON.stringify(record) }] } } });
    const { baseUrl } = await gateway.start();
    try {
      const agent = new LlmAgent({
        name: "extractor",
        model: new ChatCompletionsLlm({ model: "mock-model", baseUrl, apiKey: "k", timeoutMs: 10_000 }),
        instruction: () => "Extract.",
        disallowTransferToParent: true,
        disallowTransferToPeers: true,
        generateContentConfig: { temperature: 0 },
        outputSchema: z.object({ name: z.string(), height_m: z.number() }),
        outputKey: "record",
      });
      const runner = new InMemoryRunner({ agent, appName: "t" });
      const session = await runner.sessionService.createSession({ appName: "t", userId: "u" });
      for await (const _ of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "Eiffel Tower" }] } }));
      const state = (await runner.sessionService.getSession({ appName: "t", userId: "u", sessionId: session.id }))!.state;
      expect(state.record).toEqual(record);
      const body = toJs(gateway.recorder.records().requests[0]!.body) as Body;
      expect(body.response_format).toEqual({
        type: "json_schema",
        json_schema: {
          name: "response",
          schema: { type: "object", properties: { name: { type: "string" }, height_m: { type: "number" } }, required: ["name", "height_m"] },
        },
      });
    } finally {
      await gateway.stop();
    }
  }, 60_000);
});

describe("ADK on its own, every event consumed: what the adapter's stop at the first error event cuts off", () => {
  const agentOn = (baseUrl: string, tools: FunctionTool[], name = "solo") =>
    new LlmAgent({
      name,
      model: new ChatCompletionsLlm({ model: "mock-model", baseUrl, apiKey: "k", timeoutMs: 10_000 }),
      instruction: () => "Answer.",
      disallowTransferToParent: true,
      disallowTransferToPeers: true,
      generateContentConfig: { temperature: 0 },
      tools,
    });
  async function drain(root: LlmAgent | SequentialAgent) {
    const runner = new InMemoryRunner({ agent: root, appName: "t" });
    const session = await runner.sessionService.createSession({ appName: "t", userId: "u" });
    const events = [];
    for await (const e of runner.runAsync({ userId: "u", sessionId: session.id, newMessage: { role: "user", parts: [{ text: "q" }] } })) events.push(e);
    return events;
  }

  it("after an unknown tool's error event ADK calls the model again, the call left without a tool message", async () => {
    const calculator = new FunctionTool({ name: "calculator", description: "Calculate.", execute: () => "2" });
    const turns = [{ tool_calls: [{ name: "slide_rule", arguments: { x: 1 } }] }, { content: "2." }];
    const gateway = createGateway({ script: { default: { turns } } });
    const { baseUrl } = await gateway.start();
    try {
      const events = await drain(agentOn(baseUrl, [calculator]));
      expect(events.find((e) => e.errorMessage)?.errorMessage).toBe("Function slide_rule is not found in the toolsDict.");
      const bodies = gateway.recorder.records().requests.map((r) => toJs(r.body) as Body);
      expect(bodies.length).toBe(2);
      expect(bodies[1]!.messages.map((m) => m.role)).toEqual(["system", "user", "assistant"]);
    } finally {
      await gateway.stop();
    }
  }, 60_000);

  it("after a stage's error event a SequentialAgent runs the next stages: a 400 on the first is followed by two more calls", async () => {
    const gateway = createGateway({ script: { default: { turns: [{ content: "brief" }] } }, faults: [400] });
    const { baseUrl } = await gateway.start();
    try {
      const stages = ["a", "b", "c"].map((name) => agentOn(baseUrl, [], name));
      const events = await drain(new SequentialAgent({ name: "p", subAgents: stages }));
      expect(gateway.recorder.records().attempts.length).toBe(3);
      expect(events.filter((e) => e.errorMessage).map((e) => e.author)).toEqual(["a"]);
    } finally {
      await gateway.stop();
    }
  }, 60_000);
});

describe("google_adk on our seven arenas", () => {
  let records: Map<string, RunRecord>;
  let gateways: ReadonlyMap<string, GatewayRecords>;
  const run = async () => {
    if (records) return;
    const outcome = await quickRun({ arenaDirs: ARENAS.map((a) => path.join(OUR_ARENAS, a)), adapters: [adapterEntry("google_adk")], corpusPath: OUR_CORPUS });
    records = new Map(outcome.records.map((r) => [r.arena, r]));
    gateways = outcome.gatewayRecords;
  };

  it("passes every arena but res-02 (an unknown tool: ADK's error event ends the leg), no rule broken, usage as served per item and leg", async () => {
    await run();
    const counts = Object.fromEntries(ARENAS.map((a) => [a, passCount(frameworkOf(records.get(a)!))]));
    expect(counts).toEqual({ tool_use: "18/18", structured_output: "16/16", rag: "18/18", resilience: "9/10", multi_agent: "12/12", human_in_the_loop: "14/14", durable_state: "10/10" });
    const failed = ARENAS.flatMap((a) => frameworkOf(records.get(a)!).items.filter((i) => !i.passed).map((i) => [a, i.item_id, i.error, i.error_class, i.tool_calls, i.llm_calls]));
    expect(failed).toEqual([["resilience", "res-02", "Error: Function slide_rule is not found in the toolsDict.", "adapter", ["slide_rule"], 1]]);
    for (const arena of ARENAS) {
      const items = frameworkOf(records.get(arena)!).items;
      expectUsageEqualsServed(arena, items);
      expect(items.flatMap((i) => i.violations ?? []), arena).toEqual([]);
    }
  }, 300_000);

  it("sends the arena prompt verbatim, the canonical tools block unmodified, and only the baseline's keys", async () => {
    await run();
    for (const arena of ARENAS) {
      const spec = loadArena(path.join(OUR_ARENAS, arena));
      for (const body of bodiesOf(gateways.get(arena)!)) {
        expect(Object.keys(body), arena).toEqual(["model", "messages", "temperature", "stream", "tools"]);
        expect([body.model, body.temperature, body.stream], arena).toEqual([DEFAULTS.model, 0, false]);
        expect(body.messages[0], arena).toEqual({ role: "system", content: spec.systemPrompt });
        expect(body.tools, arena).toEqual(specsFor(spec.declaredTools));
      }
      // Byte-identical to the baseline's block as billed (Python json.dumps).
      const first = gateways.get(arena)!.requests[0]!.body.get("tools");
      expect(dumpsPy(first as never), arena).toBe(dumpsPy(fromJs(specsFor(spec.declaredTools))));
    }
  }, 300_000);

  it("replays the whole transcript on every call and returns every tool result byte for byte", async () => {
    await run();
    for (const arena of ARENAS) {
      for (const [input, bodies] of conversations(bodiesOf(gateways.get(arena)!))) {
        for (const [n, body] of bodies.entries()) {
          expectToolResultsVerbatim(arena, body);
          if (n > 0) expect(body.messages.slice(0, bodies[n - 1]!.messages.length), `${arena}: "${input}" request ${n}`).toEqual(bodies[n - 1]!.messages);
        }
      }
    }
  }, 300_000);

  it("pauses natively on human_in_the_loop; a denial reaches the model as ADK's rejection, not the decision text", async () => {
    await run();
    const arena = loadArena(path.join(OUR_ARENAS, "human_in_the_loop"));
    const decisions = new Map(arena.items.map((i) => [i.id, i.resume_with || "approve"]));
    for (const item of frameworkOf(records.get("human_in_the_loop")!).items) {
      expect([item.suspends, item.tool_calls_before_suspend], item.item_id).toEqual([1, ["search_rooms"]]);
      expect(item.legs![1]!.tool_calls.includes("book_room"), item.item_id).toBe(decisions.get(item.item_id) === "approve");
      expect(item.legs![0]!.resume_state_bytes, item.item_id).toBeLessThan(300);
    }
    for (const [input, bodies] of conversations(bodiesOf(gateways.get("human_in_the_loop")!))) {
      const denied = arena.items.find((i) => i.input === input)!.resume_with === "deny";
      const last = bodies.at(-1)!.messages;
      const pauseIds = new Set(last.flatMap((m) => (m.tool_calls ?? []).filter((c: any) => c.function.name === "request_approval").map((c: any) => c.id)));
      const answers = last.filter((m) => m.role === "tool" && pauseIds.has(m.tool_call_id)).map((m) => m.content);
      expect(answers, input).toEqual([denied ? ADK_REJECTED : "Decision: approve."]);
    }
  }, 300_000);

  it("durable_state: two searches before the restart, one calculation after, a handle of under 300 bytes", async () => {
    await run();
    for (const item of frameworkOf(records.get("durable_state")!).items) {
      expect(item.legs!.map((l) => l.tool_calls), item.item_id).toEqual([["search", "search"], ["calculator"]]);
      expect(item.legs![0]!.resume_state_bytes, item.item_id).toBeLessThan(300);
    }
  }, 300_000);
});

describe("google_adk-multi on multi_agent (a SequentialAgent of three sub-agents)", () => {
  it("passes every item with four calls; the later stages see the researcher's work as ADK's 'For context' prose", async () => {
    const { records, gatewayRecords } = await quickRun({ arenaDirs: [path.join(OUR_ARENAS, "multi_agent")], adapters: [adapterEntry("google_adk-multi")], corpusPath: OUR_CORPUS });
    const fw = frameworkOf(records[0]!);
    expect([fw.variant, passCount(fw)]).toEqual([true, "12/12"]);
    expectUsageEqualsServed("multi_agent", fw.items);
    for (const item of fw.items) expect([item.llm_calls, item.tool_calls, item.violations ?? []], item.item_id).toEqual([4, ["search"], []]);
    const prompt = loadArena(path.join(OUR_ARENAS, "multi_agent")).systemPrompt;
    for (const bodies of conversations(bodiesOf(gatewayRecords.get("multi_agent")!)).values()) {
      expect(bodies.map((b) => [b.messages[0].content, (b.tools ?? []).map((t: any) => t.function.name).join(",")])).toEqual([
        [`${prompt}\n\n${PIPELINE_ROLES.researcher}`, "search"],
        [`${prompt}\n\n${PIPELINE_ROLES.researcher}`, "search"],
        [`${prompt}\n\n${PIPELINE_ROLES.writer}`, ""],
        [`${prompt}\n\n${PIPELINE_ROLES.editor}`, ""],
      ]);
      // The writer gets no assistant turn and no tool message: the researcher's call, its result
      // (JSON-encoded) and its reply come as user text parts.
      const writer = bodies[2]!.messages;
      expect(writer.map((m) => m.role)).toEqual(["system", "user", "user", "user", "user"]);
      const parts = writer.slice(2).map((m) => m.content.map((p: any) => p.text));
      expect(parts.map((p) => p[0])).toEqual(["For context:", "For context:", "For context:"]);
      expect(parts[0][1]).toMatch(/^\[researcher\] called tool `search` with parameters: \{"query":/);
      expect(parts[1][1]).toMatch(/^\[researcher\] tool `search` returned result: \{"result":"/);
      expect(parts[2][1]).toMatch(/^\[researcher\] said: /);
    }
  }, 120_000);
});

describe("google_adk-multi: one budget for the whole pipeline", () => {
  it("a budget of 3 runs out at the editor: three calls, then ADK's cap error ends the item with the writer's draft", async () => {
    const run = await probeRun({ adapter: adapterEntry("google_adk-multi"), arena: path.join(OUR_ARENAS, "multi_agent"), items: ["ma-01"], config: { maxToolIterations: 3 } });
    const item = run.framework.items[0]!;
    expect([run.bodies.length, item.llm_calls, item.error, item.tool_calls]).toEqual([3, 3, "max tool iterations exceeded", ["search"]]);
    expect(run.bodies.map((b) => (b.messages as any[])[0].content.endsWith(PIPELINE_ROLES.writer))).toEqual([false, false, true]);
    expect(item.output_text).toBe(run.gateway.responseMessages.at(-1)!.message.get("content"));
  }, 60_000);
});

describe("google_adk on the wire: the cap, a restart, a batched pause, transport", () => {
  const adapter = adapterEntry("google_adk");
  const loop = (tools: string[], turns: unknown[], extra: { durable?: boolean } = {}) => ({
    tools,
    prompt: SENTINEL_PROMPT,
    ...(extra.durable ? { durable: true } : {}),
    items: [{ id: "p-01", input: "loop forever", resume_with: "approve" }],
    script: { default: { turns } },
  });
  const calculate = { tool_calls: [{ name: "calculator", arguments: { expr: "1+1" } }] };

  it("maxLlmCalls stops at exactly max_tool_iterations calls; ADK's error event becomes the baseline's error", async () => {
    const run = await probeRun({ adapter, arena: loop(["calculator"], [calculate]), config: { maxToolIterations: 3 } });
    const item = run.framework.items[0]!;
    expect([run.bodies.length, item.llm_calls, item.error, item.tool_calls.length, item.error_class]).toEqual([3, 3, "max tool iterations exceeded", 3, "adapter"]);
  }, 60_000);

  it("gives a resumed leg the full budget across a real restart (one ADK invocation per leg)", async () => {
    const turns = [{ tool_calls: [{ name: "calculator", arguments: { expr: "2+2" } }] }, { tool_calls: [{ name: "save_progress", arguments: { note: "4" } }] }, calculate];
    const run = await probeRun({ adapter, arena: loop(["calculator", "save_progress"], turns, { durable: true }), config: { maxToolIterations: 4 } });
    const item = run.framework.items[0]!;
    expect(run.bodies.length).toBe(6);
    expect(item.legs!.map((l) => [l.llm_calls, l.served!.llm_calls, l.suspended])).toEqual([[2, 2, true], [4, 4, false]]);
    expect(item.error).toBe("max tool iterations exceeded");
  }, 60_000);

  it("a task call batched with the pause runs before the pause, and its result is lost from the resumed transcript", async () => {
    const turns = [
      { tool_calls: [{ name: "search_rooms", arguments: { capacity: 4, day: "monday" } }, { name: "request_approval", arguments: { summary: "Book R2?" } }, { name: "book_room", arguments: { room_id: "R2" } }] },
      { content: "Done." },
    ];
    const run = await probeRun({ adapter, arena: loop(["search_rooms", "request_approval", "book_room"], turns) });
    const item = run.framework.items[0]!;
    expect(item.tool_calls_before_suspend).toEqual(["search_rooms", "book_room"]);
    const resumed = run.bodies.at(-1)!.messages as any[];
    const ids = resumed.find((m) => m.tool_calls)!.tool_calls.map((c: any) => c.function.name);
    expect(ids).toEqual(["search_rooms", "request_approval", "book_room"]);
    // Only the pause tool's answer comes back; a real provider rejects calls left unanswered.
    expect(resumed.filter((m) => m.role === "tool").map((m) => m.content)).toEqual(["Decision: approve."]);
  }, 60_000);

  it("no retries: a 400 and a 429 are one attempt each; a stalled gateway is a timeout-class error after one attempt", async () => {
    const arena = {
      tools: ["search"],
      prompt: "Answer the question concisely.",
      items: [{ id: "x-01", input: "How tall is the Eiffel Tower?" }],
      script: { default: { turns: [{ content: "The Eiffel Tower is 330 metres tall." }] } },
    };
    const bad = await probeRun({ adapter, arena, gatewayFaults: { faults: [400, 200] } });
    expect([bad.gateway.attempts.length, bad.framework.items[0]!.error]).toEqual([1, `ChatCompletionsHttpError: LLM HTTP 400: {"error": {"message": "injected 400", "type": "server_error"}}`]);
    const limited = await probeRun({ adapter, arena, gatewayFaults: { faults: [429, 200] } });
    expect(limited.gateway.attempts.length).toBe(1);
    const down = await probeRun({ adapter, arena, gatewayFaults: { faults: [500] } });
    expect([down.gateway.attempts.length, down.framework.items[0]!.error_class]).toEqual([1, "infra"]);
    const hung = await probeRun({ adapter, arena, config: { requestTimeoutS: 1 }, gatewayFaults: { faults: [], stallSeconds: 20 } });
    const item = hung.framework.items[0]!;
    expect([hung.gateway.attempts.length, item.error, item.error_class]).toEqual([1, "TimeoutError: The operation was aborted due to timeout", "timeout"]);
    expect(classifyAdapterError(item.error!)).toBe("timeout");
  }, 120_000);
});

describe("google_adk: durable across two OS processes, and no connection but the gateway", () => {
  it("leg 1 pauses with a ~200-byte handle and one session file; leg 2 in a fresh process finishes; every socket went to the gateway", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "adk-restart-"));
    const [ckpt, cwd, home, tmp] = ["ckpt", "cwd", "home", "tmp"].map((d) => path.join(root, d));
    for (const d of [ckpt!, cwd!, home!, tmp!]) mkdirSync(d);
    const child = fileURLToPath(new URL("./google_adk-leg-child.ts", import.meta.url));
    const leg = (mode: "run" | "resume") =>
      JSON.parse(
        lastLine(execFileSync(process.execPath, [child, mode, path.join(OUR_ARENAS, "durable_state"), OUR_CORPUS, "dur-01", ckpt!, path.join(root, "state.json")], {
          cwd,
          env: { ...process.env, HOME: home, TMPDIR: tmp },
          encoding: "utf8",
          timeout: 120_000,
        })),
      );
    const one = leg("run");
    expect([one.result.suspended, one.result.tool_calls.map((c: any) => c.name)]).toEqual([true, ["search", "search"]]);
    expect(usageOf(one.result)).toEqual(usageOf(one.served));
    expect(Object.keys(one.result.resume_state)).toEqual(["session_id", "session_file", "confirmation_ids", "events"]);
    expect(one.stateBytes).toBeLessThan(300);
    expect(Object.keys(one.files)).toEqual([one.result.resume_state.session_file]);
    const two = leg("resume");
    expect([two.result.error ?? null, two.result.suspended ?? false, two.result.tool_calls.map((c: any) => c.name)]).toEqual([null, false, ["calculator"]]);
    expect(usageOf(two.result)).toEqual(usageOf(two.served));
    for (const leg of [one, two]) {
      expect(leg.connections.length).toBeGreaterThan(0);
      expect(leg.connections.every((c: string) => c === `127.0.0.1:${leg.port}`), leg.connections.join(", ")).toBe(true);
      expect(leg.lookups.filter((h: string) => h !== "127.0.0.1")).toEqual([]);
    }
    expect([readdirSync(cwd!), readdirSync(home!), readdirSync(tmp!)]).toEqual([[], [], []]);
  }, 300_000);
});

// golden.md §1: the baseline's Σ prompt tokens per reference arena.
const BASELINE_PROMPT: Record<string, number> = {
  tool_use: 11303,
  structured_output: 9777,
  rag: 12517,
  resilience: 5308,
  multi_agent: 6813,
  human_in_the_loop: 21355,
  durable_state: 28393,
};

describeWithReference("google_adk on the reference arenas", () => {
  it("passes all but res-02 and bills exactly what the baseline bills, but for res-02 and the denial text", async () => {
    const arenas = Object.keys(BASELINE_PROMPT);
    const { records } = await quickRun({ arenaDirs: arenas.map((a) => path.join(REFERENCE_ARENAS, a)), adapters: [adapterEntry("google_adk")], corpusPath: REFERENCE_CORPUS });
    const got: Record<string, [string, number]> = {};
    for (const record of records) {
      const fw = frameworkOf(record);
      expectUsageEqualsServed(record.arena, fw.items);
      got[record.arena] = [passCount(fw), fw.items.reduce((a, i) => a + i.prompt_tokens, 0)];
    }
    expect(got).toEqual({
      tool_use: ["15/15", BASELINE_PROMPT.tool_use],
      structured_output: ["15/15", BASELINE_PROMPT.structured_output],
      rag: ["15/15", BASELINE_PROMPT.rag],
      // res-02 calls `teleport`: ADK's error event ends the leg after one call.
      resilience: ["7/8", 4946],
      multi_agent: ["10/10", BASELINE_PROMPT.multi_agent],
      // Denied items carry {"error":"This tool call is rejected."} where the baseline has `Decision: deny.`
      human_in_the_loop: ["12/12", 21397],
      durable_state: ["8/8", BASELINE_PROMPT.durable_state],
    });
  }, 300_000);

  it("the sub-agent pipeline: 10/10, four calls an item, 1.067× vanilla-multi's prompt (17053 Σ) for the 'For context' rewrite", async () => {
    const { records } = await quickRun({ arenaDirs: [path.join(REFERENCE_ARENAS, "multi_agent")], adapters: [adapterEntry("google_adk-multi")], corpusPath: REFERENCE_CORPUS });
    const fw = frameworkOf(records[0]!);
    expectUsageEqualsServed("multi_agent", fw.items);
    const sum = (k: "prompt_tokens" | "completion_tokens" | "llm_calls") => fw.items.reduce((a, i) => a + i[k], 0);
    expect([passCount(fw), sum("prompt_tokens"), sum("completion_tokens"), sum("llm_calls")]).toEqual(["10/10", 18190, 1980, 40]);
  }, 120_000);
});
