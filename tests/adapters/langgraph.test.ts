/**
 * The `langgraph` and `langgraph-multi` adapters through the real orchestrator (real worker
 * processes, real mock gateway, a real SIGKILL at every durable pause), judged on the wire:
 * pass counts per arena (each failing cell explained), reported usage against what the gateway
 * served (per item and per leg), the tools block against the baseline's, the iteration cap on a
 * fresh and on a resumed leg, what the model sees after each resilience fault, transport, the
 * message-id gotcha, and the durable restart across two OS processes. The same figures are the
 * findings in workers/adapters/langgraph/README.md.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import type { GatewayRecords } from "../../orchestrator/gateway/index.ts";
import type { FrameworkRecord, RunRecord } from "../../orchestrator/report/record.ts";
import adapter from "../../workers/adapters/langgraph/index.ts";
import { dumpsPy, fromJs, toJs } from "@agentic-arena/py-semantics";
import { dispatch } from "../../contract/tools/dispatch.ts";
import { specsFor } from "../../contract/tools/registry.ts";
import { loadCorpus } from "../../contract/tools/search.ts";
import { probeRun, SENTINEL_PROMPT } from "../probes/support.ts";
import { describeWithReference, REFERENCE_ARENAS, REFERENCE_CORPUS } from "../support/reference.ts";
import { resumedCapRun } from "../support/cap-run.ts";
import { adapterEntry, OUR_ARENAS, OUR_CORPUS, quickRun } from "../support/run.ts";

type Body = Record<string, any>;
const ENVELOPE = new Set(["model", "messages", "temperature", "stream", "tools", "tool_choice"]);
const SEVEN = ["tool_use", "structured_output", "rag", "resilience", "multi_agent", "human_in_the_loop", "durable_state"];

/** The text LangGraph's ToolNode (handleToolErrors) puts in the tool message instead of running the tool. */
const SCHEMA_REJECTED = "Error: Received tool input did not match expected schema\n Please fix your mistakes.";
const NOT_FOUND = (name: string) => `Error: Tool "${name}" not found.\n Please fix your mistakes.`;

function bodiesOf(gateway: GatewayRecords | undefined, label: string): Body[] {
  return (gateway?.requests ?? []).filter((r) => r.tag.startsWith(`${label}__`)).map((r) => toJs(r.body) as Body);
}

function usageMismatches(fw: FrameworkRecord): string[] {
  const bad: string[] = [];
  for (const i of fw.items) {
    const mine = [i.prompt_tokens, i.completion_tokens, i.llm_calls];
    const served = i.served ? [i.served.prompt_tokens, i.served.completion_tokens, i.served.llm_calls] : null;
    if (JSON.stringify(mine) !== JSON.stringify(served)) bad.push(`${i.item_id}: reported ${mine} served ${served}`);
    for (const [n, leg] of (i.legs ?? []).entries()) {
      const l = [leg.prompt_tokens, leg.completion_tokens, leg.llm_calls];
      const s = leg.served ? [leg.served.prompt_tokens, leg.served.completion_tokens, leg.served.llm_calls] : null;
      if (JSON.stringify(l) !== JSON.stringify(s)) bad.push(`${i.item_id} leg ${n + 1}: reported ${l} served ${s}`);
    }
  }
  return bad;
}

/** The pipeline variant, scoped to its arena as `--framework all` would. */
const MULTI = { ...adapterEntry("langgraph-multi"), onlyArenas: ["multi_agent"] };

function failedIds(fw: FrameworkRecord): string[] {
  return fw.items.filter((i) => !i.passed).map((i) => i.item_id);
}

function meanPrompt(fw: FrameworkRecord): number {
  return Math.round((fw.items.reduce((a, i) => a + i.prompt_tokens, 0) / fw.items.length) * 10) / 10;
}

function byArena(records: readonly RunRecord[], framework: string): Map<string, FrameworkRecord> {
  return new Map(records.map((r) => [r.arena, r.frameworks.find((f) => f.framework === framework)!]));
}

/** Requests of one item (the gateway picks scenarios by the first user message, so do we). */
function itemBodies(bodies: readonly Body[], input: string): Body[] {
  return bodies.filter((b) => b.messages.find((m: Body) => m.role === "user")?.content === input);
}

describe("langgraph on our seven arenas", () => {
  let run: Awaited<ReturnType<typeof quickRun>>;
  const get = async () => {
    run ??= await quickRun({
      arenaDirs: SEVEN.map((a) => path.join(OUR_ARENAS, a)),
      adapters: [adapterEntry("langgraph"), MULTI],
      corpusPath: OUR_CORPUS,
    });
    return run;
  };

  it("passes every arena but one resilience item (and the pipeline variant 12/12); usage equals what was served, per item and per leg", async () => {
    const { records } = await get();
    const fws = byArena(records, "langgraph");
    const observed = Object.fromEntries(
      SEVEN.map((a) => {
        const fw = fws.get(a)!;
        expect(fw.available, `${a}: ${fw.reason}`).toBe(true);
        return [a, `${fw.items.length - failedIds(fw).length}/${fw.items.length}`];
      }),
    );
    expect(observed).toEqual({
      tool_use: "18/18",
      structured_output: "16/16",
      rag: "18/18",
      // res-01 (malformed JSON arguments): ChatOpenAI files the call under `invalid_tool_calls`,
      // the AIMessage has no `tool_calls`, so `toolsCondition` routes to END after one model call:
      // the run ends "successfully" with an empty answer and no error. A framework finding (the
      // Python original failed the same item the same way); the check is not loosened.
      resilience: "9/10",
      multi_agent: "12/12",
      human_in_the_loop: "14/14",
      durable_state: "10/10",
    });
    expect(failedIds(fws.get("resilience")!)).toEqual(["res-01"]);
    // The pipeline variant, in the same run: 12/12, researcher + tool + writer + editor = 4 calls.
    const multi = records.find((r) => r.arena === "multi_agent")!.frameworks.find((f) => f.framework === "langgraph-multi")!;
    expect(multi.available, multi.reason).toBe(true);
    expect([failedIds(multi), multi.items.length]).toEqual([[], 12]);
    expect(multi.items.every((i) => i.llm_calls === 4 && i.tool_calls.join() === "search")).toBe(true);
    expect(usageMismatches(multi)).toEqual([]);
    const res01 = fws.get("resilience")!.items.find((i) => i.item_id === "res-01")!;
    expect([res01.output_text, res01.error, res01.llm_calls, res01.tool_calls]).toEqual(["", null, 1, []]);
    for (const a of SEVEN) expect(usageMismatches(fws.get(a)!), a).toEqual([]);
  }, 300_000);

  it("pauses once per item, resumes the same conversation, and books only on approval", async () => {
    const { records, gatewayRecords } = await get();
    const hitl = byArena(records, "langgraph").get("human_in_the_loop")!;
    const bodies = bodiesOf(gatewayRecords.get("human_in_the_loop"), "langgraph__human_in_the_loop");
    const decisionOf = new Map(loadArena(path.join(OUR_ARENAS, "human_in_the_loop")).items.map((i) => [i.id, i.resume_with]));
    for (const item of hitl.items) {
      expect(item.suspends, item.item_id).toBe(1);
      expect(item.tool_calls).not.toContain("request_approval");
      expect(item.tool_calls_before_suspend).toEqual(["search_rooms"]);
      const approved = decisionOf.get(item.item_id) === "approve";
      expect(item.tool_calls).toEqual(approved ? ["search_rooms", "book_room"] : ["search_rooms"]);
      expect(item.legs!.map((l) => l.tool_calls)).toEqual([["search_rooms"], approved ? ["book_room"] : []]);
    }
    // The decision reaches the model as the suspend tool's result, in the same transcript.
    const decisions = bodies
      .flatMap((b) => b.messages)
      .filter((m: Body) => m.role === "tool" && m.name === "request_approval")
      .map((m: Body) => m.content);
    expect(new Set(decisions)).toEqual(new Set(["Decision: approve.", "Decision: deny."]));
  }, 300_000);

  it("durable_state: two searches before the kill, one calculation after, a ~200-byte handle, one SQLite file per run", async () => {
    const { records } = await get();
    const dur = byArena(records, "langgraph").get("durable_state")!;
    for (const item of dur.items) {
      expect(item.legs!.map((l) => l.tool_calls), item.item_id).toEqual([["search", "search"], ["calculator"]]);
      expect(item.legs![0]!.resume_state_bytes).toBeGreaterThan(150);
      expect(item.legs![0]!.resume_state_bytes).toBeLessThan(250);
    }
  }, 300_000);

  it("sends the canonical tools block unmodified and stays inside the baseline's envelope", async () => {
    const { gatewayRecords } = await get();
    const chars: Record<string, number> = {};
    for (const arena of SEVEN) {
      const raw = (gatewayRecords.get(arena)?.requests ?? []).filter((r) => r.tag.startsWith(`langgraph__${arena}__`));
      expect(raw.length, arena).toBeGreaterThan(0);
      const canonical = dumpsPy(fromJs(specsFor(loadArena(path.join(OUR_ARENAS, arena)).declaredTools)));
      for (const r of raw) {
        const body = toJs(r.body) as Body;
        expect(Object.keys(body).filter((k) => !ENVELOPE.has(k)), arena).toEqual([]);
        expect(body.stream, arena).toBe(false);
        expect(dumpsPy(r.body.get("tools") as never), arena).toBe(canonical);
      }
      chars[arena] = canonical.length;
    }
    expect([chars.tool_use, chars.human_in_the_loop, chars.durable_state]).toEqual([637, 1002, 983]);
  }, 300_000);

  it("resilience: what the model is shown after each fault", async () => {
    const { gatewayRecords } = await get();
    const bodies = bodiesOf(gatewayRecords.get("resilience"), "langgraph__resilience");
    const corpus = loadCorpus(OUR_CORPUS);
    const inputs: Record<string, string> = {
      "res-01": "What is 19 * 21 + 6?",
      "res-02": "What is 864 / 16 + 11?",
      "res-03": "What is 2 to the power of 12?",
      "res-04": "What is 35 percent of 880?",
      "res-05": "What is 2048 minus 1999?",
      "res-06": "What is 6 times 7 times 11?",
      "res-07": "How high is Denali, in metres?",
      "res-08": "What is the square root of 1764?",
      "res-09": "In what year was Mont Blanc first climbed?",
      "res-10": "What is 1000 divided by 8?",
    };
    const shown: Record<string, string> = {};
    for (const [id, input] of Object.entries(inputs)) {
      const mine = itemBodies(bodies, input);
      const last = mine.at(-1)!;
      const faultCall = last.messages.find((m: Body) => m.role === "assistant" && m.tool_calls)?.tool_calls?.[0];
      if (!faultCall) {
        shown[id] = `(${mine.length} request, no tool call replayed)`;
        continue;
      }
      const reply = last.messages.find((m: Body) => m.role === "tool" && m.tool_call_id === faultCall.id)!.content;
      const canonical = dispatch(faultCall.function.name, faultCall.function.arguments, { corpus });
      shown[id] = reply === canonical ? "dispatch" : reply;
    }
    expect(shown).toEqual({
      "res-01": "(1 request, no tool call replayed)",
      "res-02": NOT_FOUND("slide_rule"),
      "res-03": "dispatch",
      "res-04": SCHEMA_REJECTED,
      "res-05": "dispatch",
      "res-06": SCHEMA_REJECTED,
      "res-07": "dispatch",
      "res-08": "dispatch",
      "res-09": SCHEMA_REJECTED,
      "res-10": SCHEMA_REJECTED,
    });
  }, 300_000);
});

describe("langgraph-multi on multi_agent", () => {
  it("one budget for the whole pipeline: the research loop stops at the cap; a short budget skips the editor", async () => {
    const loop = await probeRun({
      adapter: adapterEntry("langgraph-multi"),
      config: { maxToolIterations: 4 },
      arena: {
        tools: ["search"],
        prompt: SENTINEL_PROMPT,
        items: [{ id: "m-01", input: "loop forever" }],
        script: { default: { turns: [{ tool_calls: [{ name: "search", arguments: { query: "x" } }] }] } },
      },
    });
    expect(loop.bodies.length).toBe(4);
    expect(loop.framework.items[0]!.error).toBe("max tool iterations exceeded");
    const short = await probeRun({
      adapter: adapterEntry("langgraph-multi"),
      config: { maxToolIterations: 3 },
      arena: path.join(OUR_ARENAS, "multi_agent"),
      items: ["ma-01"],
    });
    // researcher (tool call), researcher (answer), writer — the editor would be a fourth call.
    expect(short.bodies.map((b) => (b.tools ? "tools" : "no-tools"))).toEqual(["tools", "tools", "no-tools"]);
    expect(short.framework.items[0]!.error).toBeNull();
  }, 120_000);
});

describe("langgraph: the iteration cap on a fresh and on a resumed leg", () => {
  for (const cap of [4, 7]) {
    it(`exactly ${cap} LLM calls per leg against a gateway that always asks for a tool`, async () => {
      // c-01 loops from the first call; c-02 pauses on its first call, then loops after the
      // restart: the resumed leg gets its own full budget, and no more.
      const run = await resumedCapRun("langgraph", cap);
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
      expect(itemBodies(run.bodies, "loop forever").length + itemBodies(run.bodies, "pause, then loop").length).toBe(2 * cap + 1);
    }, 120_000);
  }
});

describe("langgraph: a suspend call batched with sibling calls (a finding, not in any arena script)", () => {
  it("the ToolNode runs every sibling, the interrupt discards the step, and the resume runs them all again", async () => {
    const run = await probeRun({
      adapter: adapterEntry("langgraph"),
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
    // The baseline runs `search`, pauses, and answers `calculator` with "Not executed" on resume:
    // legs [["search"], []]. LangGraph executes both siblings in each leg (the leg-1 results are
    // thrown away with the interrupted step), so each really ran twice; the log says so.
    expect(item.legs!.map((l) => l.tool_calls)).toEqual([
      ["search", "calculator"],
      ["search", "calculator"],
    ]);
    const last = run.bodies.at(-1)!.messages.filter((m: Body) => m.role === "tool").map((m: Body) => m.name);
    expect(last).toEqual(["search", "request_approval", "calculator"]);
    expect(item.passed).toBe(true);
  }, 120_000);
});

describe("langgraph: shared controls and transport on the wire", () => {
  const arena = {
    tools: ["search"],
    prompt: "Answer the question concisely.",
    items: [{ id: "t-01", input: "How tall is the Eiffel Tower?" }],
    script: { default: { turns: [{ content: "The Eiffel Tower is 330 metres tall." }] } },
  };

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
        arena,
        gatewayFaults: { faults: [...c.faults] },
        config: { model: "arena-canary-model-7", temperature: 0.7 },
      });
      const item = run.framework.items[0]!;
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
      arena,
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
    expect(run.framework.items[0]!.error).toMatch(/TimeoutError/);
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
      const corpus = loadCorpus(OUR_CORPUS);
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
        { tools: { dispatch: (name, args) => dispatch(name, args, { corpus }) } },
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

describe("langgraph: durable across two OS processes (only a JSON file and the checkpoint directory cross)", () => {
  it("leg 1 pauses with a small handle and one SQLite file; leg 2 in a fresh process finishes; nothing is written elsewhere", () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "lg-durable-"));
    const ckpt = path.join(root, "ckpt");
    const cwd = path.join(root, "cwd");
    const home = path.join(root, "home");
    const tmp = path.join(root, "tmp");
    for (const d of [ckpt, cwd, home, tmp]) mkdirSync(d);
    const child = fileURLToPath(new URL("./langgraph-leg-child.ts", import.meta.url));
    const node = process.execPath;
    const leg = (mode: "run" | "resume") =>
      JSON.parse(
        execFileSync(
          node,
          [child, mode, path.join(OUR_ARENAS, "durable_state"), OUR_CORPUS, "dur-01", ckpt, path.join(root, "state.json")],
          { cwd, env: { ...process.env, HOME: home, TMPDIR: tmp }, encoding: "utf8", timeout: 60_000 },
        ),
      );
    const one = leg("run");
    expect(one.result.suspended).toBe(true);
    expect(one.result.tool_calls.map((c: Body) => c.name)).toEqual(["search", "search"]);
    expect([one.result.prompt_tokens, one.result.completion_tokens, one.result.llm_calls]).toEqual([
      one.served.prompt_tokens,
      one.served.completion_tokens,
      one.served.llm_calls,
    ]);
    expect(Object.keys(one.result.resume_state).sort()).toEqual(["checkpoint_file", "checkpoint_id", "thread_id"]);
    expect(one.stateBytes).toBeLessThan(250);
    const files = Object.keys(one.files);
    expect(files).toEqual([one.result.resume_state.checkpoint_file]); // no -wal / -shm beside it
    expect(one.files[files[0]!]).toBeGreaterThan(0);

    const two = leg("resume");
    expect(two.result.error ?? null).toBeNull();
    expect(two.result.suspended ?? false).toBe(false);
    expect(two.result.tool_calls.map((c: Body) => c.name)).toEqual(["calculator"]);
    expect(two.result.output_text).toContain("322");
    expect([two.result.prompt_tokens, two.result.completion_tokens, two.result.llm_calls]).toEqual([
      two.served.prompt_tokens,
      two.served.completion_tokens,
      two.served.llm_calls,
    ]);
    expect(Object.keys(two.files)).toEqual(files);
    for (const d of [cwd, home, tmp]) expect(readdirSync(d), d).toEqual([]);
  }, 120_000);
});

describeWithReference("langgraph on the reference arenas (golden.md §4)", () => {
  it("pass counts, usage equal to served, and prompt tokens per item against the baseline (single and pipeline)", async () => {
    const { records } = await quickRun({
      arenaDirs: SEVEN.map((a) => path.join(REFERENCE_ARENAS, a)),
      adapters: [
        adapterEntry("vanilla"),
        adapterEntry("langgraph"),
        { ...adapterEntry("vanilla-multi"), onlyArenas: ["multi_agent"] },
        MULTI,
      ],
      corpusPath: REFERENCE_CORPUS,
    });
    const lg = byArena(records, "langgraph");
    const base = byArena(records, "vanilla");
    const table = Object.fromEntries(
      SEVEN.map((a) => {
        const fw = lg.get(a)!;
        expect(fw.available, `${a}: ${fw.reason}`).toBe(true);
        expect(usageMismatches(fw), a).toEqual([]);
        return [a, `${fw.items.length - failedIds(fw).length}/${fw.items.length} ${meanPrompt(fw)} vs ${meanPrompt(base.get(a)!)}`];
      }),
    );
    // Prompt tokens per item, langgraph vs vanilla. The Python original tied on tool_use (753.5);
    // LangChain.js's replay differs: each tool message carries `"name": "<tool>"`, a tool-call turn
    // has `"content": ""` instead of null, and arguments are re-serialised compactly.
    expect(table).toEqual({
      tool_use: "15/15 758.3 vs 753.5",
      structured_output: "15/15 655.5 vs 651.8",
      rag: "15/15 839.8 vs 834.5",
      // res-01: malformed JSON arguments end the run silently (see our resilience arena).
      resilience: "7/8 623.6 vs 663.5",
      multi_agent: "10/10 684.9 vs 681.3",
      human_in_the_loop: "12/12 1803.3 vs 1779.6",
      durable_state: "8/8 3591.5 vs 3549.1",
    });
    expect(failedIds(lg.get("resilience")!)).toEqual(["res-01"]);

    const ma = records.find((r) => r.arena === "multi_agent")!.frameworks;
    const multi = ma.find((f) => f.framework === "langgraph-multi")!;
    const baseMulti = ma.find((f) => f.framework === "vanilla-multi")!;
    expect(failedIds(multi)).toEqual([]);
    expect(usageMismatches(multi)).toEqual([]);
    expect([multi.items.length, meanPrompt(multi), meanPrompt(baseMulti)]).toEqual([10, 1716.5, 1705.3]);
  }, 400_000);
});
