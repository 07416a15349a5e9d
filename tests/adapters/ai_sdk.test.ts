/**
 * `ai_sdk` and `ai_sdk-multi` through the real orchestrator (real worker processes, the real mock
 * gateway, a real restart at every durable pause), judged by the records and by what the gateway
 * received; plus one in-process run that watches the SDK's telemetry hooks and every fetch.
 * Every deviation from the baseline is the SDK's own behaviour, asserted as such and explained in
 * workers/adapters/ai_sdk/README.md.
 */
import { tracingChannel } from "node:diagnostics_channel";
import path from "node:path";
import { registerTelemetry } from "ai";
import { beforeAll, describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { DEFAULTS } from "../../orchestrator/config/arena-config.ts";
import { createGateway, type GatewayRecords } from "../../orchestrator/gateway/index.ts";
import type { FrameworkRecord, ItemRecord, RunRecord } from "../../orchestrator/report/record.ts";
import { dumpsPy, fromJs, toJs, type PyValue } from "@agentic-arena/py-semantics";
import { disableTelemetry } from "../../contract/telemetry.ts";
import { dispatch } from "../../contract/tools/dispatch.ts";
import { isSuspendTool, namesFor, specsFor } from "../../contract/tools/registry.ts";
import { loadCorpus } from "../../contract/tools/search.ts";
import { PIPELINE_ROLES } from "../../contract/texts.ts";
import aiSdk from "../../workers/adapters/ai_sdk/index.ts";
import { LEAD_ROLE } from "../../workers/adapters/ai_sdk/multi.ts";
import { probeRun, SENTINEL_PROMPT } from "../probes/support.ts";
import { adapterEntry, OUR_ARENAS, OUR_CORPUS, quickRun } from "../support/run.ts";

const ARENAS = ["tool_use", "structured_output", "rag", "resilience", "multi_agent", "human_in_the_loop", "durable_state"];
/** What the SDK puts in a body: the baseline's envelope minus `stream` (absent when not streaming). */
const BODY_KEYS = ["messages", "model", "temperature", "tool_choice", "tools"];
/** The SDK's own texts for a call it will not run (resilience res-01, res-02): a finding. */
const SDK_BAD_JSON = /^AI_InvalidToolInputError: Invalid input for tool calculator: AI_JSONParseError: JSON parsing failed: /;
const SDK_NO_TOOL = /^AI_NoSuchToolError: Model tried to call unavailable tool 'slide_rule'\. Available tools: search, calculator\.$/;

type Body = { model: string; messages: any[]; tools?: any[]; [k: string]: unknown };
const bodiesOf = (g: GatewayRecords): Body[] => g.requests.map((r) => toJs(r.body) as Body);
const frameworkOf = (record: RunRecord): FrameworkRecord => record.frameworks[0]!;
const passCount = (fw: FrameworkRecord) => `${fw.items.filter((i) => i.passed).length}/${fw.items.length}`;
const usageOf = (x: { prompt_tokens: number; completion_tokens: number; llm_calls: number }) => [x.prompt_tokens, x.completion_tokens, x.llm_calls];

function expectUsageEqualsServed(arena: string, items: readonly ItemRecord[]): void {
  for (const item of items) {
    expect(item.served, `${arena}/${item.item_id}: no served usage`).toBeDefined();
    expect(usageOf(item), `${arena}/${item.item_id}`).toEqual(usageOf(item.served!));
    for (const [n, leg] of (item.legs ?? []).entries()) expect(usageOf(leg), `${arena}/${item.item_id} leg ${n}`).toEqual(usageOf(leg.served!));
  }
}

/** Requests grouped by their first user message (the item input), in arrival order. */
function conversations(bodies: readonly Body[]): Map<string, Body[]> {
  const out = new Map<string, Body[]>();
  for (const body of bodies) {
    const input = body.messages.find((m) => m.role === "user")?.content as string;
    out.set(input, [...(out.get(input) ?? []), body]);
  }
  return out;
}

const corpus = loadCorpus(OUR_CORPUS);

/** Every tool message is dispatch's string on the replayed arguments, the decision text, or the SDK's own text for res-01/res-02. */
function expectToolResultsVerbatim(where: string, body: Body, delegates: readonly string[] = []): void {
  const calls = new Map<string, { name: string; arguments: string }>();
  for (const m of body.messages) for (const c of m.tool_calls ?? []) calls.set(c.id, c.function);
  for (const m of body.messages.filter((x) => x.role === "tool")) {
    const call = calls.get(m.tool_call_id);
    expect(call, `${where}: tool message without a call`).toBeDefined();
    const what = `${where}: ${call!.name}(${call!.arguments})`;
    if (isSuspendTool(call!.name)) expect(m.content, what).toMatch(/^Decision: (approve|deny)\.$/);
    else if (delegates.includes(call!.name)) expect(typeof m.content, what).toBe("string");
    else if (call!.name === "slide_rule") expect(m.content, what).toMatch(SDK_NO_TOOL);
    else if (SDK_BAD_JSON.test(m.content)) expect(call!.arguments, `${what}: the broken arguments are replayed as {}`).toBe("{}");
    else expect(m.content, what).toBe(dispatch(call!.name, call!.arguments, { corpus }));
  }
}

describe("ai_sdk on our seven arenas", () => {
  let records: Map<string, RunRecord>;
  let gateways: ReadonlyMap<string, GatewayRecords>;

  beforeAll(async () => {
    const outcome = await quickRun({ arenaDirs: ARENAS.map((a) => path.join(OUR_ARENAS, a)), adapters: [adapterEntry("ai_sdk")], corpusPath: OUR_CORPUS });
    records = new Map(outcome.records.map((r) => [r.arena, r]));
    gateways = outcome.gatewayRecords;
  }, 240_000);

  it("passes every item; the witness sees only the SDK's own answers to a broken and an unknown tool call", () => {
    const counts = Object.fromEntries(ARENAS.map((a) => [a, passCount(frameworkOf(records.get(a)!))]));
    expect(counts).toEqual({
      tool_use: "18/18",
      structured_output: "16/16",
      rag: "18/18",
      resilience: "10/10",
      multi_agent: "12/12",
      human_in_the_loop: "14/14",
      durable_state: "10/10",
    });
    const violations = ARENAS.flatMap((a) => frameworkOf(records.get(a)!).items.flatMap((i) => (i.violations ?? []).map((v) => `${a}/${i.item_id} ${v.rule}`)));
    // Requests 2 and 3 of each item carry the SDK's text (arenas/expectations.toml, rule tool-output).
    expect(violations).toEqual(["resilience/res-01 tool-output", "resilience/res-01 tool-output", "resilience/res-02 tool-output", "resilience/res-02 tool-output"]);
  });

  it("reports exactly the usage the gateway served, per item and per leg (totalUsage, not the last step's usage)", () => {
    for (const arena of ARENAS) expectUsageEqualsServed(arena, frameworkOf(records.get(arena)!).items);
  });

  it("puts only the shared controls on the wire: the model, temperature, the arena prompt, tool_choice auto, no stream key", () => {
    for (const arena of ARENAS) {
      const spec = loadArena(path.join(OUR_ARENAS, arena));
      for (const body of bodiesOf(gateways.get(arena)!)) {
        expect(Object.keys(body).sort(), arena).toEqual(BODY_KEYS);
        expect([body.model, body.temperature, body.tool_choice], arena).toEqual([DEFAULTS.model, 0, "auto"]);
        expect(body.messages[0], arena).toEqual({ role: "system", content: spec.systemPrompt });
      }
    }
  });

  it("advertises the canonical tools block byte for byte (the baseline's billed characters)", () => {
    for (const arena of ARENAS) {
      const declared = loadArena(path.join(OUR_ARENAS, arena)).declaredTools;
      const requests = gateways.get(arena)!.requests;
      for (const r of requests) expect(dumpsPy(r.body.get("tools") as PyValue), arena).toBe(dumpsPy(fromJs(specsFor(declared))));
    }
  });

  it("replays the whole transcript on every call; tool results are dispatch's strings byte for byte", () => {
    for (const arena of ARENAS) {
      for (const [input, bodies] of conversations(bodiesOf(gateways.get(arena)!))) {
        for (const [n, body] of bodies.entries()) {
          expectToolResultsVerbatim(`${arena} "${input}"`, body);
          if (n > 0) expect(body.messages.slice(0, bodies[n - 1]!.messages.length), `${arena}: "${input}" request ${n}`).toEqual(bodies[n - 1]!.messages);
        }
      }
    }
  });

  it("reports as tool_calls every task call in order, the broken and the unknown one included, never a pause tool", () => {
    for (const arena of ARENAS) {
      const byInput = conversations(bodiesOf(gateways.get(arena)!));
      const inputs = new Map(loadArena(path.join(OUR_ARENAS, arena)).items.map((i) => [i.id, i.input]));
      for (const item of frameworkOf(records.get(arena)!).items) {
        const last = byInput.get(inputs.get(item.item_id)!)!.at(-1)!;
        const onWire = last.messages.flatMap((m) => (m.tool_calls ?? []).map((c: any) => c.function.name as string)).filter((n) => !isSuspendTool(n));
        expect(item.tool_calls, `${arena}/${item.item_id}`).toEqual(onWire);
      }
    }
    const res02 = frameworkOf(records.get("resilience")!).items.find((i) => i.item_id === "res-02")!;
    expect(res02.tool_calls).toEqual(["slide_rule", "calculator"]);
  });

  it("pauses on human_in_the_loop via a tool-approval request: once per item, book_room only after an approval", () => {
    const arena = loadArena(path.join(OUR_ARENAS, "human_in_the_loop"));
    const decisions = new Map(arena.items.map((i) => [i.id, i.resume_with || "approve"]));
    for (const item of frameworkOf(records.get("human_in_the_loop")!).items) {
      expect(item.suspends, item.item_id).toBe(1);
      expect(item.tool_calls_before_suspend, item.item_id).toEqual(["search_rooms"]);
      expect(item.legs![1]!.tool_calls.includes("book_room"), item.item_id).toBe(decisions.get(item.item_id) === "approve");
      // The message list without the system prompt (the SDK keeps instructions outside it).
      expect(item.legs![0]!.resume_state_bytes, item.item_id).toBeGreaterThan(600);
      expect(item.legs![0]!.resume_state_bytes, item.item_id).toBeLessThan(1_000);
    }
  });

  it("resumes durable_state in a fresh process from the message list alone (resumed, not restarted)", () => {
    for (const item of frameworkOf(records.get("durable_state")!).items) {
      expect(item.suspends, item.item_id).toBe(1);
      expect(item.legs!.map((l) => l.tool_calls), item.item_id).toEqual([["search", "search"], ["calculator"]]);
      expect(item.legs![0]!.resume_state_bytes, item.item_id).toBeGreaterThan(1_500);
      expect(item.legs![0]!.resume_state_bytes, item.item_id).toBeLessThan(2_700);
    }
  });
});

describe("ai_sdk-multi on multi_agent (sub-agents as tools: researcher leads, writer and editor delegates)", () => {
  it("passes every item in six calls, delegates on the wire and out of tool_calls, usage as served", async () => {
    const { records, gatewayRecords } = await quickRun({ arenaDirs: [path.join(OUR_ARENAS, "multi_agent")], adapters: [adapterEntry("ai_sdk-multi")], corpusPath: OUR_CORPUS });
    const fw = frameworkOf(records[0]!);
    expect([fw.variant, passCount(fw)]).toEqual([true, "12/12"]);
    expectUsageEqualsServed("multi_agent", fw.items);
    for (const item of fw.items) expect([item.llm_calls, item.tool_calls, item.violations], item.item_id).toEqual([6, ["search"], undefined]);
    const prompt = loadArena(path.join(OUR_ARENAS, "multi_agent")).systemPrompt;
    const lead = [`${prompt}\n\n${LEAD_ROLE}`, "search,writer,editor"];
    for (const bodies of conversations(bodiesOf(gatewayRecords.get("multi_agent")!)).values()) {
      const stages = bodies.map((b) => [b.messages[0].content, (b.tools ?? []).map((t: any) => t.function.name).join(",")]);
      expect(stages).toEqual([lead, lead, [`${prompt}\n\n${PIPELINE_ROLES.writer}`, ""], lead, [`${prompt}\n\n${PIPELINE_ROLES.editor}`, ""], lead]);
      // Each delegate reads the lead's conversation so far, then its task.
      expect(bodies[2]!.messages.slice(1, -1)).toEqual(bodies[1]!.messages.slice(1));
      expect(bodies[4]!.messages.slice(1, -1)).toEqual(bodies[3]!.messages.slice(1));
      for (const body of bodies) expectToolResultsVerbatim("multi_agent", body, ["writer", "editor"]);
    }
  }, 120_000);
});

describe("ai_sdk on the wire: the cap, a batched pause, transport", () => {
  const adapter = adapterEntry("ai_sdk");
  const loop = (tools: string[], turns: unknown[], extra: { durable?: boolean } = {}) => ({
    tools,
    prompt: SENTINEL_PROMPT,
    ...(extra.durable ? { durable: true } : {}),
    items: [{ id: "p-01", input: "loop forever", resume_with: "approve" }],
    script: { default: { turns } },
  });
  const calculate = { tool_calls: [{ name: "calculator", arguments: { expr: "1+1" } }] };

  it("stops at exactly max_tool_iterations LLM calls (isStepCount) and ends with the baseline's error", async () => {
    const run = await probeRun({ adapter, arena: loop(["calculator"], [calculate]), config: { maxToolIterations: 3 } });
    const item = run.framework.items[0]!;
    expect([run.bodies.length, item.llm_calls, item.error, item.tool_calls.length]).toEqual([3, 3, "max tool iterations exceeded", 3]);
  }, 60_000);

  it("gives a resumed leg the full budget across a real restart (the step count starts again per call)", async () => {
    const turns = [{ tool_calls: [{ name: "calculator", arguments: { expr: "2+2" } }] }, { tool_calls: [{ name: "save_progress", arguments: { note: "4" } }] }, calculate];
    const run = await probeRun({ adapter, arena: loop(["calculator", "save_progress"], turns, { durable: true }), config: { maxToolIterations: 4 } });
    const item = run.framework.items[0]!;
    expect(item.legs!.map((l) => [l.llm_calls, l.served!.llm_calls, l.suspended])).toEqual([[2, 2, true], [4, 4, false]]);
    expect([run.bodies.length, item.error]).toEqual([6, "max tool iterations exceeded"]);
  }, 60_000);

  it("runs a task call batched after the pause call before the pause (finding: only the approval-bound call is held)", async () => {
    const turns = [
      { tool_calls: [{ name: "search_rooms", arguments: { capacity: 4, day: "monday" } }, { name: "request_approval", arguments: { summary: "Book R2?" } }, { name: "book_room", arguments: { room_id: "R2" } }] },
      { content: "Done." },
    ];
    const run = await probeRun({ adapter, arena: loop(["search_rooms", "request_approval", "book_room"], turns) });
    const item = run.framework.items[0]!;
    expect([item.tool_calls_before_suspend, item.passed]).toEqual([["search_rooms", "book_room"], true]);
  }, 60_000);

  const answerOnly = {
    tools: ["search"],
    prompt: "Answer the question concisely.",
    items: [{ id: "x-01", input: "How tall is the Eiffel Tower?" }],
    script: { default: { turns: [{ content: "The Eiffel Tower is 330 metres tall." }] } },
  };

  it("retries a 429 once after the SDK's 2 s backoff, never a 400 (the status kept in the error)", async () => {
    const limited = await probeRun({ adapter, arena: answerOnly, gatewayFaults: { faults: [429, 200] } });
    expect([limited.gateway.attempts.length, limited.framework.items[0]!.output_text]).toEqual([2, "The Eiffel Tower is 330 metres tall."]);
    const bad = await probeRun({ adapter, arena: answerOnly, gatewayFaults: { faults: [400, 200] } });
    expect([bad.gateway.attempts.length, bad.framework.items[0]!.error]).toEqual([1, "AI_APICallError: injected 400 (status code 400)"]);
  }, 60_000);

  it("bounds one attempt by request_timeout_s and never retries it: one attempt, a timeout-class error", async () => {
    const run = await probeRun({ adapter, arena: answerOnly, config: { requestTimeoutS: 1 }, gatewayFaults: { faults: [], stallSeconds: 10 } });
    const item = run.framework.items[0]!;
    expect([run.gateway.attempts.length, item.error, item.error_class]).toEqual([1, "TimeoutError: The operation was aborted due to timeout", "timeout"]);
    expect(item.latency_s).toBeLessThan(5);
  }, 60_000);
});

describe("ai_sdk in-process: telemetry off, nothing leaves the gateway", () => {
  it("a registered telemetry integration and the ai:telemetry tracing channel see nothing; every fetch goes to the gateway", async () => {
    const arena = loadArena(path.join(OUR_ARENAS, "human_in_the_loop"));
    const gateway = createGateway({ script: arena.script, arenaTools: namesFor(arena.declaredTools) });
    const { baseUrl } = await gateway.start();
    const events: string[] = [];
    registerTelemetry({ onStart: () => void events.push("onStart"), onStepStart: () => void events.push("onStepStart") });
    const channel = tracingChannel("ai:telemetry");
    const traced = { start: () => void events.push("trace") };
    channel.subscribe(traced as any);
    const urls: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = ((input: any, init?: any) => {
      urls.push(String(input instanceof Request ? input.url : input));
      return realFetch(input, init);
    }) as typeof fetch;
    try {
      const runner = await aiSdk.build(
        { id: arena.id, tools: [...arena.declaredTools], systemPrompt: arena.systemPrompt, durable: arena.durable },
        { model: "mock-model", baseUrl, apiKey: "mock-key", temperature: 0, requestTimeoutS: 30, maxToolIterations: 6 },
        { tools: { dispatch: (name, args) => dispatch(name, args, { corpus }) } },
      );
      const spec = arena.items[0]!;
      const work = { id: spec.id, input: spec.input, resume_with: spec.resume_with, checkpointDir: "" };
      const first = await runner.run(work);
      expect(first.suspended).toBe(true);
      const second = await runner.resume!(work, JSON.parse(JSON.stringify(first.resume_state)), "approve");
      expect(second.error ?? null).toBeNull();
    } finally {
      globalThis.fetch = realFetch;
      channel.unsubscribe(traced as any);
      await gateway.stop();
    }
    expect(events).toEqual([]);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url.startsWith(`${baseUrl}/`), url).toBe(true);
  }, 60_000);

  it("workers lose the Vercel AI Gateway credentials a bare string model id would use", () => {
    const env = disableTelemetry({ AI_GATEWAY_API_KEY: "k", VERCEL_OIDC_TOKEN: "t", PATH: "/bin" });
    expect(env).toEqual(expect.objectContaining({ PATH: "/bin" }));
    expect(["AI_GATEWAY_API_KEY", "VERCEL_OIDC_TOKEN"].filter((k) => k in env)).toEqual([]);
  });
});
