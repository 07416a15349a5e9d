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
import type { GatewayRecords } from "../../orchestrator/gateway/index.ts";
import type { FrameworkRecord, RunRecord } from "../../orchestrator/report/record.ts";
import { classifyAdapterError } from "../../orchestrator/run/error-class.ts";
import { dumpsPy, fromJs, toJs } from "@agentic-arena/py-semantics";
import { dispatch } from "../../contract/tools/dispatch.ts";
import { specsFor } from "../../contract/tools/registry.ts";
import { loadCorpus } from "../../contract/tools/search.ts";
import { probeRun, SENTINEL_PROMPT } from "../probes/support.ts";
import { resumedCapRun } from "../support/cap-run.ts";
import { adapterEntry, OUR_ARENAS, OUR_CORPUS, quickRun } from "../support/run.ts";

type Body = Record<string, any>;
const SEVEN = ["tool_use", "structured_output", "rag", "resilience", "multi_agent", "human_in_the_loop", "durable_state"];

function bodiesOf(gateway: GatewayRecords | undefined, label: string): Body[] {
  return (gateway?.requests ?? []).filter((r) => r.tag.startsWith(`${label}__`)).map((r) => toJs(r.body) as Body);
}

function usageMismatches(fw: FrameworkRecord): string[] {
  const bad: string[] = [];
  const figures = (u: { prompt_tokens: number; completion_tokens: number; llm_calls: number } | undefined) =>
    u ? [u.prompt_tokens, u.completion_tokens, u.llm_calls].join() : "none";
  for (const i of fw.items) {
    if (figures(i) !== figures(i.served)) bad.push(`${i.item_id}: reported ${figures(i)} served ${figures(i.served)}`);
    for (const [n, leg] of (i.legs ?? []).entries()) {
      if (figures(leg) !== figures(leg.served)) bad.push(`${i.item_id} leg ${n + 1}: reported ${figures(leg)} served ${figures(leg.served)}`);
    }
  }
  return bad;
}

const failedIds = (fw: FrameworkRecord) => fw.items.filter((i) => !i.passed).map((i) => i.item_id);
const byArena = (records: readonly RunRecord[], framework: string) =>
  new Map(records.map((r) => [r.arena, r.frameworks.find((f) => f.framework === framework)!]));
const itemBodies = (bodies: readonly Body[], input: string) =>
  bodies.filter((b) => b.messages.find((m: Body) => m.role === "user")?.content === input);

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
      const run = await resumedCapRun("mastra", cap);
      const [fresh, resumed] = run.framework.items;
      expect([fresh!.served?.llm_calls, fresh!.llm_calls, fresh!.tool_calls.length, fresh!.error]).toEqual([
        cap,
        cap,
        cap,
        "max tool iterations exceeded",
      ]);
      expect(resumed!.legs!.map((l) => [l.llm_calls, l.served?.llm_calls, l.tool_calls.length])).toEqual([
        [1, 1, 0],
        [cap, cap, cap],
      ]);
      expect(resumed!.error).toBe("max tool iterations exceeded");
    }, 180_000);
  }
});

describe("mastra: a pause call batched with sibling calls (a finding, not in any arena script)", () => {
  it("what runs before the pause and after the decision", async () => {
    const run = await probeRun({
      adapter: adapterEntry("mastra"),
      arena: {
        tools: ["search", "calculator", "request_approval"],
        prompt: SENTINEL_PROMPT,
        durable: true,
        items: [{ id: "b-01", input: "batch", resume_with: "approve" }],
        script: {
          default: {
            turns: [
              {
                tool_calls: [
                  { name: "search", arguments: { query: "Eiffel Tower" } },
                  { name: "request_approval", arguments: { summary: "ok?" } },
                  { name: "calculator", arguments: { expr: "2+2" } },
                ],
              },
              { content: "done" },
            ],
          },
        },
      },
    });
    const item = run.framework.items[0]!;
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
  let run: Awaited<ReturnType<typeof quickRun>>;
  const get = async () => {
    run ??= await quickRun({ arenaDirs: SEVEN.map((a) => path.join(OUR_ARENAS, a)), adapters: [adapterEntry("mastra")], corpusPath: OUR_CORPUS });
    return run;
  };

  it("passes every item of every arena; usage equals what was served, per item and per leg", async () => {
    const { records } = await get();
    const fws = byArena(records, "mastra");
    const observed = Object.fromEntries(SEVEN.map((a) => [a, `${fws.get(a)!.items.length - failedIds(fws.get(a)!).length}/${fws.get(a)!.items.length}`]));
    expect(observed).toEqual({
      tool_use: "18/18",
      structured_output: "16/16",
      rag: "18/18",
      resilience: "10/10",
      multi_agent: "12/12",
      human_in_the_loop: "14/14",
      durable_state: "10/10",
    });
    for (const a of SEVEN) expect(usageMismatches(fws.get(a)!), a).toEqual([]);
  }, 600_000);

  it("pauses once per item, resumes the same conversation, and books only on approval", async () => {
    const { records, gatewayRecords } = await get();
    const hitl = byArena(records, "mastra").get("human_in_the_loop")!;
    const decisionOf = new Map(loadArena(path.join(OUR_ARENAS, "human_in_the_loop")).items.map((i) => [i.id, i.resume_with]));
    for (const item of hitl.items) {
      const approved = decisionOf.get(item.item_id) === "approve";
      expect([item.suspends, item.tool_calls_before_suspend, item.legs!.map((l) => l.tool_calls)], item.item_id).toEqual([
        1,
        ["search_rooms"],
        [["search_rooms"], approved ? ["book_room"] : []],
      ]);
    }
    // The decision is the pause tool's result: the tool's own return on approval, the decline reason on deny.
    const bodies = bodiesOf(gatewayRecords.get("human_in_the_loop"), "mastra__human_in_the_loop");
    const decisions = bodies.flatMap((b) => b.messages).filter((m: Body) => m.role === "tool" && /^Decision/.test(m.content));
    expect(new Set(decisions.map((m: Body) => m.content))).toEqual(new Set(["Decision: approve.", "Decision: deny."]));
  }, 600_000);

  it("durable_state: two searches before the kill, one calculation after, a small handle", async () => {
    const { records } = await get();
    for (const item of byArena(records, "mastra").get("durable_state")!.items) {
      expect(item.legs!.map((l) => l.tool_calls), item.item_id).toEqual([["search", "search"], ["calculator"]]);
      expect(item.legs![0]!.resume_state_bytes).toBeGreaterThan(100);
      expect(item.legs![0]!.resume_state_bytes).toBeLessThan(200);
    }
  }, 600_000);

  it("sends the canonical tools plus $schema and additionalProperties: false, inside the baseline's envelope, never streaming", async () => {
    const { gatewayRecords } = await get();
    const chars: Record<string, number> = {};
    for (const arena of SEVEN) {
      const raw = (gatewayRecords.get(arena)?.requests ?? []).filter((r) => r.tag.startsWith(`mastra__${arena}__`));
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
  }, 600_000);

  it("resilience: what the model is shown after each fault", async () => {
    const { gatewayRecords } = await get();
    const bodies = bodiesOf(gatewayRecords.get("resilience"), "mastra__resilience");
    const corpus = loadCorpus(OUR_CORPUS);
    const shown: Record<string, string> = {};
    for (const item of loadArena(path.join(OUR_ARENAS, "resilience")).items) {
      const last = itemBodies(bodies, item.input).at(-1)!;
      const call = last.messages.find((m: Body) => m.role === "assistant" && m.tool_calls)!.tool_calls[0];
      const reply: string = last.messages.find((m: Body) => m.role === "tool" && m.tool_call_id === call.id)!.content;
      shown[item.id] = reply === dispatch(call.function.name, call.function.arguments, { corpus }) ? "dispatch" : reply.slice(0, 60);
    }
    expect(shown).toEqual({
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
  }, 600_000);
});

describe("mastra: transport and error classes on the wire", () => {
  const arena = {
    tools: ["search"],
    prompt: "Answer the question concisely.",
    items: [{ id: "t-01", input: "How tall is the Eiffel Tower?" }],
    script: { default: { turns: [{ content: "The Eiffel Tower is 330 metres tall." }] } },
  };

  it("no retries (Mastra's default): a 400, a 429 and a 500 each end the item after one attempt, with the right class", async () => {
    const cases = [
      { faults: [400, 200], cls: "adapter" },
      { faults: [429, 200], cls: "adapter" },
      { faults: [500, 200], cls: "infra" },
    ] as const;
    for (const c of cases) {
      const r = await probeRun({ adapter: adapterEntry("mastra"), arena, gatewayFaults: { faults: [...c.faults] } });
      const item = r.framework.items[0]!;
      expect([r.gateway.attempts.length, item.error, classifyAdapterError(item.error ?? "")], String(c.faults)).toEqual([
        1,
        `AI_APICallError: injected ${c.faults[0]} (status code ${c.faults[0]})`,
        c.cls,
      ]);
    }
  }, 120_000);

  it("the request timeout bounds the model call (Mastra's step timeout) and is a timeout-class error", async () => {
    const r = await probeRun({ adapter: adapterEntry("mastra"), arena, gatewayFaults: { stallSeconds: 20 }, config: { requestTimeoutS: 1 } });
    const held = r.gateway.attempts.map((a) => ((a.closedAt ?? 0) - a.at) / 1000);
    expect(held.length).toBe(1);
    expect(held[0]).toBeGreaterThanOrEqual(0.8);
    expect(held[0]).toBeLessThan(2);
    const error = r.framework.items[0]!.error ?? "";
    expect(error).toBe("MastraTimeoutError: Model call timed out after 1000ms (modelSettings.timeout.stepMs)");
    expect(classifyAdapterError(error)).toBe("timeout");
  }, 60_000);
});

describe("mastra-multi on multi_agent", () => {
  it("12/12 in four calls each (researcher, tool turn, writer, editor), usage = served; one budget: the research loop stops at the cap, a short budget skips the editor", async () => {
    const { records } = await quickRun({
      arenaDirs: [path.join(OUR_ARENAS, "multi_agent")],
      adapters: [{ ...adapterEntry("mastra-multi"), onlyArenas: ["multi_agent"] }],
      corpusPath: OUR_CORPUS,
    });
    const multi = records[0]!.frameworks.find((f) => f.framework === "mastra-multi")!;
    expect([multi.available, failedIds(multi), multi.items.length]).toEqual([true, [], 12]);
    expect(multi.items.every((i) => i.llm_calls === 4 && i.tool_calls.join() === "search")).toBe(true);
    expect(usageMismatches(multi)).toEqual([]);

    const loop = await probeRun({
      adapter: adapterEntry("mastra-multi"),
      config: { maxToolIterations: 4 },
      arena: {
        tools: ["search"],
        prompt: SENTINEL_PROMPT,
        items: [{ id: "m-01", input: "loop forever" }],
        script: { default: { turns: [{ tool_calls: [{ name: "search", arguments: { query: "x" } }] }] } },
      },
    });
    expect([loop.bodies.length, loop.framework.items[0]!.error]).toEqual([4, "max tool iterations exceeded"]);
    const short = await probeRun({
      adapter: adapterEntry("mastra-multi"),
      config: { maxToolIterations: 3 },
      arena: path.join(OUR_ARENAS, "multi_agent"),
      items: ["ma-01"],
    });
    // researcher (tool call), researcher (answer), writer — the editor would be a fourth call.
    expect(short.bodies.map((b) => (b.tools ? "tools" : "no-tools"))).toEqual(["tools", "tools", "no-tools"]);
    expect(short.framework.items[0]!.error).toBeNull();
  }, 300_000);
});
