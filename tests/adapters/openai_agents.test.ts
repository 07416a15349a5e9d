/**
 * `openai_agents` and `openai_agents-multi` through the real orchestrator (real worker processes,
 * the real mock gateway, a real restart at every durable pause), judged by the records and by what
 * the gateway received. Every failing cell is the SDK's own behaviour, asserted as such and
 * explained in workers/adapters/openai_agents/README.md.
 */
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { DEFAULTS } from "../../orchestrator/config/arena-config.ts";
import type { GatewayRecords } from "../../orchestrator/gateway/index.ts";
import type { FrameworkRecord, ItemRecord, RunRecord } from "../../orchestrator/report/record.ts";
import { dumpsPy, fromJs, toJs, type PyValue } from "@agentic-arena/py-semantics";
import { dispatch } from "../../contract/tools/dispatch.ts";
import { isSuspendTool, namesFor, specsFor } from "../../contract/tools/registry.ts";
import { loadCorpus } from "../../contract/tools/search.ts";
import { ROLES } from "../../workers/adapters/openai_agents/multi.ts";
import { probeRun, SENTINEL_PROMPT } from "../probes/support.ts";
import { describeWithReference, REFERENCE_ARENAS, REFERENCE_CORPUS } from "../support/reference.ts";
import { adapterEntry, OUR_ARENAS, OUR_CORPUS, quickRun } from "../support/run.ts";

const ARENAS = ["tool_use", "structured_output", "rag", "resilience", "multi_agent", "human_in_the_loop", "durable_state"];
const ENVELOPE = new Set(["model", "messages", "temperature", "stream", "tools", "tool_choice"]);
/** What the SDK sends the model when a call's arguments are not valid JSON (instead of running the tool). */
const SDK_BAD_JSON_TEXT = "An error occurred while parsing tool arguments. Please try again with valid JSON.";
/** `, "strict": false` per tool: the only thing this adapter adds to the canonical tools block. */
const STRICT_FALSE_CHARS = ', "strict": false'.length;

type Body = { model: string; messages: any[]; tools?: any[]; [k: string]: unknown };
const bodiesOf = (g: GatewayRecords): Body[] => g.requests.map((r) => toJs(r.body) as Body);
const frameworkOf = (record: RunRecord): FrameworkRecord => record.frameworks[0]!;

function passCount(fw: FrameworkRecord): string {
  return `${fw.items.filter((i) => i.passed).length}/${fw.items.length}`;
}

function usageOf(x: { prompt_tokens: number; completion_tokens: number; llm_calls: number }) {
  return [x.prompt_tokens, x.completion_tokens, x.llm_calls];
}

/** The reported usage equals what the gateway served, per item and per leg (the classic double-count). */
function expectUsageEqualsServed(arena: string, items: readonly ItemRecord[]): void {
  for (const item of items) {
    expect(item.served, `${arena}/${item.item_id}: no served usage recorded`).toBeDefined();
    expect(usageOf(item), `${arena}/${item.item_id}`).toEqual(usageOf(item.served!));
    for (const [n, leg] of (item.legs ?? []).entries()) {
      expect(leg.served, `${arena}/${item.item_id} leg ${n}`).toBeDefined();
      expect(usageOf(leg), `${arena}/${item.item_id} leg ${n}`).toEqual(usageOf(leg.served!));
    }
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

/** The canonical tools block with the SDK's `strict: false` on each tool, nothing else. */
function expectedTools(declared: readonly string[]) {
  return specsFor(declared).map((s) => ({ type: s.type, function: { ...s.function, strict: false } }));
}

const corpus = loadCorpus(OUR_CORPUS);

/**
 * Every tool message answers an assistant call: the shared dispatch's string on the model's own
 * arguments, byte for byte; the decision text for a pause tool; the SDK's own text for arguments
 * that are not JSON (the SDK parses them before the tool runs: a finding).
 */
function expectToolResultsVerbatim(arena: string, body: Body): void {
  const calls = new Map<string, { name: string; arguments: string }>();
  for (const m of body.messages) for (const c of m.tool_calls ?? []) calls.set(c.id, c.function);
  for (const m of body.messages.filter((x) => x.role === "tool")) {
    const call = calls.get(m.tool_call_id);
    expect(call, `${arena}: tool message without a call`).toBeDefined();
    const where = `${arena}: ${call!.name}(${call!.arguments})`;
    if (isSuspendTool(call!.name)) expect(m.content, where).toMatch(/^Decision: (approve|deny)\.$/);
    else if (call!.name.startsWith("transfer_to_")) expect(m.content, where).toMatch(/^\{"assistant":"\w+"\}$/);
    else {
      let parsable = true;
      try {
        JSON.parse(call!.arguments);
      } catch {
        parsable = false;
      }
      expect(m.content, where).toBe(parsable ? dispatch(call!.name, call!.arguments, { corpus }) : SDK_BAD_JSON_TEXT);
    }
  }
}

describe("openai_agents on our seven arenas", () => {
  let records: Map<string, RunRecord>;
  let gateways: ReadonlyMap<string, GatewayRecords>;

  beforeAll(async () => {
    const outcome = await quickRun({
      arenaDirs: ARENAS.map((a) => path.join(OUR_ARENAS, a)),
      adapters: [adapterEntry("openai_agents")],
      corpusPath: OUR_CORPUS,
    });
    records = new Map(outcome.records.map((r) => [r.arena, r]));
    gateways = outcome.gatewayRecords;
  }, 240_000);

  it("passes every arena except one resilience item (the SDK raises on an unknown tool)", () => {
    const counts = Object.fromEntries(ARENAS.map((a) => [a, passCount(frameworkOf(records.get(a)!))]));
    expect(counts).toEqual({
      tool_use: "18/18",
      structured_output: "16/16",
      rag: "18/18",
      // res-02: the scripted model calls `slide_rule`, a tool that does not exist. The SDK's default
      // (toolNotFoundBehavior "raise_error") throws ModelBehaviorError instead of telling the model,
      // so the item ends with an error after one call. Framework behaviour, kept as a finding.
      resilience: "9/10",
      multi_agent: "12/12",
      human_in_the_loop: "14/14",
      durable_state: "10/10",
    });
    const failed = ARENAS.flatMap((a) => frameworkOf(records.get(a)!).items.filter((i) => !i.passed).map((i) => [a, i.item_id, i.error]));
    expect(failed).toEqual([["resilience", "res-02", "ModelBehaviorError: Tool slide_rule not found in agent assistant."]]);
  });

  it("reports exactly the usage the gateway served, per item and per leg", () => {
    for (const arena of ARENAS) expectUsageEqualsServed(arena, frameworkOf(records.get(arena)!).items);
  });

  it("puts only the shared controls on the wire: the arena prompt, the model, temperature, no sampling extras", () => {
    for (const arena of ARENAS) {
      const spec = loadArena(path.join(OUR_ARENAS, arena));
      for (const body of bodiesOf(gateways.get(arena)!)) {
        expect(Object.keys(body).filter((k) => !ENVELOPE.has(k)), arena).toEqual([]);
        expect([body.model, body.temperature, body.stream], arena).toEqual([DEFAULTS.model, 0, false]);
        expect(body.messages[0], arena).toEqual({ content: spec.systemPrompt, role: "system" });
        // The SDK leaves tool_choice out (the provider default, "auto"); the baseline sends "auto".
        expect(body.tool_choice, arena).toBeUndefined();
      }
    }
  });

  it("advertises the canonical tools unmodified plus `strict: false` (full fidelity, k optional with its default)", () => {
    const chars: Record<string, number> = {};
    for (const arena of ARENAS) {
      const declared = loadArena(path.join(OUR_ARENAS, arena)).declaredTools;
      const requests = gateways.get(arena)!.requests;
      for (const r of requests) expect(toJs(r.body.get("tools") as PyValue), arena).toEqual(expectedTools(declared));
      // Billed characters of the block (Python json.dumps, as the gateway bills it).
      chars[arena] = dumpsPy(requests[0]!.body.get("tools") as PyValue).length;
      const canonical = dumpsPy(fromJs(specsFor(declared))).length;
      expect(chars[arena], arena).toBe(canonical + STRICT_FALSE_CHARS * namesFor(declared).length);
    }
    expect(chars).toEqual({
      tool_use: 671, // baseline 637
      structured_output: 376, // 359
      rag: 376,
      resilience: 671,
      multi_agent: 376,
      human_in_the_loop: 1053, // 1002
      durable_state: 1034, // 983
    });
  });

  it("replays the whole transcript on every call and returns every tool result byte for byte", () => {
    for (const arena of ARENAS) {
      for (const [input, bodies] of conversations(bodiesOf(gateways.get(arena)!))) {
        for (const [n, body] of bodies.entries()) {
          expectToolResultsVerbatim(arena, body);
          if (n === 0) continue;
          const previous = bodies[n - 1]!.messages;
          expect(body.messages.slice(0, previous.length), `${arena}: "${input}" request ${n}`).toEqual(previous);
        }
      }
    }
  });

  it("reports as tool_calls the task calls it ran, in order (pause tools excluded; a bad-JSON call included)", () => {
    for (const arena of ARENAS) {
      const byInput = conversations(bodiesOf(gateways.get(arena)!));
      const inputs = new Map(loadArena(path.join(OUR_ARENAS, arena)).items.map((i) => [i.id, i.input]));
      for (const item of frameworkOf(records.get(arena)!).items) {
        const last = byInput.get(inputs.get(item.item_id)!)!.at(-1)!;
        const onWire = last.messages
          .flatMap((m) => (m.tool_calls ?? []).map((c: any) => c.function.name as string))
          .filter((name) => !isSuspendTool(name));
        expect(item.tool_calls, `${arena}/${item.item_id}`).toEqual(onWire);
      }
    }
    const res01 = frameworkOf(records.get("resilience")!).items.find((i) => i.item_id === "res-01")!;
    expect(res01.tool_calls).toEqual(["calculator", "calculator"]);
  });

  it("pauses natively on human_in_the_loop: once per item, the pause never logged, book_room only after an approval", () => {
    const arena = loadArena(path.join(OUR_ARENAS, "human_in_the_loop"));
    const decisions = new Map(arena.items.map((i) => [i.id, i.resume_with || "approve"]));
    for (const item of frameworkOf(records.get("human_in_the_loop")!).items) {
      expect(item.suspends, item.item_id).toBe(1);
      expect(item.tool_calls, item.item_id).not.toContain("request_approval");
      expect(item.tool_calls_before_suspend, item.item_id).toEqual(["search_rooms"]);
      const booked = item.legs![1]!.tool_calls.includes("book_room");
      expect(booked, item.item_id).toBe(decisions.get(item.item_id) === "approve");
      expect(item.legs![0]!.resume_state_bytes, item.item_id).toBeGreaterThan(8_000);
      expect(item.legs![0]!.resume_state_bytes, item.item_id).toBeLessThan(10_000);
    }
  });

  it("resumes durable_state in a fresh process from the RunState JSON alone (resumed, not restarted)", () => {
    // The harness kills the worker at every durable pause and resumes on a new one (the durable
    // restart suite proves a memory cache cannot survive it); nothing is written to checkpoint_dir.
    for (const item of frameworkOf(records.get("durable_state")!).items) {
      expect(item.suspends, item.item_id).toBe(1);
      expect(item.legs!.map((l) => l.tool_calls), item.item_id).toEqual([["search", "search"], ["calculator"]]);
      expect(item.legs![0]!.resume_state_bytes, item.item_id).toBeGreaterThan(11_000);
      expect(item.legs![0]!.resume_state_bytes, item.item_id).toBeLessThan(16_000);
    }
  });
});

describe("openai_agents-multi on multi_agent (real handoffs researcher → writer → editor)", () => {
  it("passes every item with four calls, handoffs on the wire and out of tool_calls, usage as served", async () => {
    const { records, gatewayRecords } = await quickRun({
      arenaDirs: [path.join(OUR_ARENAS, "multi_agent")],
      adapters: [adapterEntry("openai_agents-multi")],
      corpusPath: OUR_CORPUS,
    });
    const fw = frameworkOf(records[0]!);
    expect(fw.variant).toBe(true);
    expect(passCount(fw)).toBe("12/12");
    expectUsageEqualsServed("multi_agent", fw.items);
    for (const item of fw.items) {
      expect(item.llm_calls, item.item_id).toBe(4);
      expect(item.tool_calls, item.item_id).toEqual(["search"]);
    }
    const prompt = loadArena(path.join(OUR_ARENAS, "multi_agent")).systemPrompt;
    for (const bodies of conversations(bodiesOf(gatewayRecords.get("multi_agent")!)).values()) {
      const stages = bodies.map((b) => [
        b.messages[0].content,
        (b.tools ?? []).map((t: any) => t.function.name).join(","),
      ]);
      expect(stages).toEqual([
        [`${prompt}\n\n${ROLES.researcher}`, "search,transfer_to_writer"],
        [`${prompt}\n\n${ROLES.researcher}`, "search,transfer_to_writer"],
        [`${prompt}\n\n${ROLES.writer}`, "transfer_to_editor"],
        [`${prompt}\n\n${ROLES.editor}`, ""],
      ]);
      for (const body of bodies) expectToolResultsVerbatim("multi_agent", body);
    }
  }, 120_000);
});

describe("openai_agents on the wire: iteration cap, transport, a batched pause", () => {
  const adapter = adapterEntry("openai_agents");
  const loop = (tools: string[], turns: unknown[], extra: { durable?: boolean; resume_with?: string } = {}) => ({
    tools,
    prompt: SENTINEL_PROMPT,
    ...(extra.durable ? { durable: true } : {}),
    items: [{ id: "p-01", input: "loop forever", resume_with: extra.resume_with ?? "approve" }],
    script: { default: { turns } },
  });
  const calculate = { tool_calls: [{ name: "calculator", arguments: { expr: "1+1" } }] };

  it("stops at exactly max_tool_iterations LLM calls (maxTurns = the budget) and ends with an error", async () => {
    // A non-default budget (the probe suite also runs 4 and 7 against every adapter).
    const run = await probeRun({ adapter, arena: loop(["calculator"], [calculate]), config: { maxToolIterations: 3 } });
    expect(run.bodies.length).toBe(3);
    const item = run.framework.items[0]!;
    expect([item.llm_calls, item.error, item.tool_calls.length]).toEqual([3, "max tool iterations exceeded", 3]);
  }, 60_000);

  it("gives a resumed leg the full budget across a real restart (the SDK counts maxTurns over the whole run)", async () => {
    const turns = [
      { tool_calls: [{ name: "calculator", arguments: { expr: "2+2" } }] },
      { tool_calls: [{ name: "save_progress", arguments: { note: "4" } }] },
      calculate,
    ];
    const run = await probeRun({ adapter, arena: loop(["calculator", "save_progress"], turns, { durable: true }), config: { maxToolIterations: 4 } });
    const item = run.framework.items[0]!;
    expect(run.bodies.length).toBe(6);
    expect(item.legs!.map((l) => [l.llm_calls, l.served!.llm_calls, l.suspended])).toEqual([
      [2, 2, true],
      [4, 4, false],
    ]);
    expect(item.error).toBe("max tool iterations exceeded");
  }, 60_000);

  it("runs a task call batched after the pause call before the pause (finding: siblings are not held back)", async () => {
    const turns = [
      {
        tool_calls: [
          { name: "search_rooms", arguments: { capacity: 4, day: "monday" } },
          { name: "request_approval", arguments: { summary: "Book R2?" } },
          { name: "book_room", arguments: { room_id: "R2" } },
        ],
      },
      { content: "Done." },
    ];
    const run = await probeRun({ adapter, arena: loop(["search_rooms", "request_approval", "book_room"], turns) });
    const item = run.framework.items[0]!;
    // The baseline runs search_rooms, pauses, and answers book_room "Not executed" on resume;
    // the SDK holds back only the tool that needs approval, so the booking happens before the human decides.
    expect(item.tool_calls_before_suspend).toEqual(["search_rooms", "book_room"]);
    expect(item.passed).toBe(true);
  }, 60_000);

  it("lets the OpenAI client retry a 429 once (maxRetries 2) and never retries a 400", async () => {
    const arena = {
      tools: ["search"],
      prompt: "Answer the question concisely.",
      items: [{ id: "x-01", input: "How tall is the Eiffel Tower?" }],
      script: { default: { turns: [{ content: "The Eiffel Tower is 330 metres tall." }] } },
    };
    const limited = await probeRun({ adapter, arena, gatewayFaults: { faults: [429, 200] } });
    expect([limited.gateway.attempts.length, limited.framework.items[0]!.output_text]).toEqual([2, "The Eiffel Tower is 330 metres tall."]);
    const bad = await probeRun({ adapter, arena, gatewayFaults: { faults: [400, 200] } });
    expect([bad.gateway.attempts.length, bad.framework.items[0]!.error]).toEqual([1, "BadRequestError: 400 injected 400"]);
  }, 60_000);
});

// golden.md §1: the baseline's Σ prompt tokens per reference arena (its per-item means are these / n).
const BASELINE_PROMPT: Record<string, [number, number]> = {
  tool_use: [11303, 15],
  structured_output: [9777, 15],
  rag: [12517, 15],
  resilience: [5308, 8],
  multi_agent: [6813, 10],
  human_in_the_loop: [21355, 12],
  durable_state: [28393, 8],
};

describeWithReference("openai_agents on the reference arenas", () => {
  it("matches the Python openai_agents pass pattern (7/8 on resilience: res-02) and bills only the strict flag", async () => {
    const arenas = Object.keys(BASELINE_PROMPT);
    const { records } = await quickRun({
      arenaDirs: arenas.map((a) => path.join(REFERENCE_ARENAS, a)),
      adapters: [adapterEntry("openai_agents")],
      corpusPath: REFERENCE_CORPUS,
    });
    const got: Record<string, [string, number, string[]]> = {};
    for (const record of records) {
      const fw = frameworkOf(record);
      expectUsageEqualsServed(record.arena, fw.items);
      const prompt = fw.items.reduce((a, i) => a + i.prompt_tokens, 0);
      got[record.arena] = [passCount(fw), prompt, fw.items.filter((i) => !i.passed).map((i) => i.item_id)];
    }
    // Σ prompt tokens; per item vs the baseline (golden.md): tool_use 771.3 vs 753.5 (1.02×; the Python
    // adapter measured 856.9, 1.14×, in strict mode), multi_agent 689.7 vs 681.3 (Python 686.7).
    expect(got).toEqual({
      tool_use: ["15/15", 11569, []],
      structured_output: ["15/15", 9903, []],
      rag: ["15/15", 12654, []],
      // res-02 calls `teleport`: ModelBehaviorError, one call, so fewer tokens than the baseline.
      resilience: ["7/8", 5078, ["res-02"]],
      multi_agent: ["10/10", 6897, []],
      human_in_the_loop: ["12/12", 21889, []],
      durable_state: ["8/8", 28908, []],
    });
    const ratio =
      arenas.reduce((a, k) => a + got[k]![1] / BASELINE_PROMPT[k]![1], 0) /
      arenas.reduce((a, k) => a + BASELINE_PROMPT[k]![0] / BASELINE_PROMPT[k]![1], 0);
    expect(ratio).toBeCloseTo(1.0139, 4);
  }, 240_000);

  it("the handoff pipeline costs what the Python one did (1896.5 prompt / 140.2 completion / 4 calls per item)", async () => {
    const { records } = await quickRun({
      arenaDirs: [path.join(REFERENCE_ARENAS, "multi_agent")],
      adapters: [adapterEntry("openai_agents-multi")],
      corpusPath: REFERENCE_CORPUS,
    });
    const fw = frameworkOf(records[0]!);
    expectUsageEqualsServed("multi_agent", fw.items);
    const sum = (k: "prompt_tokens" | "completion_tokens" | "llm_calls") => fw.items.reduce((a, i) => a + i[k], 0);
    // vanilla-multi: 17053 / 1980 / 40 (1705.3 per item). Python openai_agents_multi: 1894.8 / 140.2 / 4.00.
    expect([passCount(fw), sum("prompt_tokens"), sum("completion_tokens"), sum("llm_calls")]).toEqual(["10/10", 18965, 1402, 40]);
  }, 120_000);
});
