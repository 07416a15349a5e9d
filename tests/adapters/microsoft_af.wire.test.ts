/**
 * `microsoft_af` on the wire: the iteration cap (the tool loop's extra `tool_choice: "none"` call
 * kept off the wire), the resumed leg's budget, a pause batched with task calls, retries, the
 * per-attempt timeout, and what the HTTP headers say (telemetry off). The scripted runs go through
 * the real orchestrator; the header and timeout cases drive one leg on the Python host's loader
 * against a loopback server that records what arrives.
 */
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disableTelemetry } from "../../contract/telemetry.ts";
import { PYTHON_HOST_ROOT, pythonExecutable } from "../../orchestrator/supervisor/python-host.ts";
import { probeRun } from "../probes/support.ts";
import { REPO_ROOT } from "../support/reference.ts";
import { adapterEntry } from "../support/run.ts";
import { chatServer, type ChatServer } from "./support/chat-server.ts";
import { ANSWER_ONLY, batchedApprovalRun, batchedSiblingsRun, cappedRun, expectEachLegCapped, expectOneBudgetForPipeline, expectResumedLegFullBudget, expectStoppedAtCap, resumedBudgetRun, resumedCapRun } from "./support/probes.ts";

const toolTexts = (body: { messages?: unknown }) => (body.messages as any[]).filter((m: any) => m.role === "tool").map((m: any) => m.content as string);

describe("microsoft_af: the iteration cap", () => {
  for (const cap of [3, 6]) {
    it(`${cap} calls on the wire, every one with the tools and tool_choice auto, then the baseline's error (max_iterations = ${cap}, the extra no-tools call answered off the wire)`, async () => {
      const run = await cappedRun("microsoft_af", cap);
      expectStoppedAtCap(run, cap);
      expect(run.bodies.map((b) => b.tool_choice)).toEqual(Array(cap).fill("auto"));
    }, 120_000);
  }

  it("gives a resumed leg the full budget across a real restart (the framework keeps no iteration count in the session)", async () => {
    expectResumedLegFullBudget(await resumedBudgetRun("microsoft_af"));
  }, 120_000);

  it("caps a fresh and a resumed leg alike", async () => {
    expectEachLegCapped(await resumedCapRun("microsoft_af", 4), 4);
  }, 120_000);

  it("microsoft_af-multi spends one budget for the whole pipeline", async () => {
    await expectOneBudgetForPipeline("microsoft_af-multi");
  }, 180_000);
});

describe("microsoft_af: a pause call batched with task calls (a finding, not in any arena script)", () => {
  it("answers the earlier sibling, the decision, and the later sibling \"Not executed\" as the baseline does", async () => {
    const run = await batchedApprovalRun("microsoft_af");
    const item = run.record.items[0]!;
    // Served view (the record's legs are the served calls): one call per leg, search_rooms in the
    // first response. Where it actually runs is the next suite's case: after the decision.
    expect(item.legs!.map((l) => [l.llm_calls, l.tool_calls])).toEqual([
      [1, ["search_rooms"]],
      [1, []],
    ]);
    expect(toolTexts(run.bodies.at(-1)!).slice(1)).toEqual(["Decision: approve.", "Not executed - the run paused for an approval decision."]);
    expect(item.passed).toBe(true);
  }, 120_000);

  it("the same on a durable arena: the held-back sibling crosses the restart in the session snapshot", async () => {
    const run = await batchedSiblingsRun("microsoft_af");
    const item = run.record.items[0]!;
    expect(item.legs!.map((l) => [l.llm_calls, l.tool_calls])).toEqual([
      [1, ["search"]],
      [1, []],
    ]);
    expect(toolTexts(run.bodies.at(-1)!).slice(1)).toEqual(["Decision: approve.", "Not executed - the run paused for an approval decision."]);
  }, 120_000);
});

describe("microsoft_af: transport (AsyncOpenAI, max_retries 2)", () => {
  const adapter = adapterEntry("microsoft_af");

  it("retries a 429 and a 5xx, never a 400; a 5xx that outlasts the retries is infra", async () => {
    const limited = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [429, 200] } });
    expect([limited.gateway.attempts.length, limited.record.items[0]!.output_text]).toEqual([2, "The Eiffel Tower is 330 metres tall."]);
    const bad = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [400, 200] } });
    expect([bad.gateway.attempts.length, bad.record.items[0]!.error_class]).toEqual([1, "adapter"]);
    expect(bad.record.items[0]!.error).toMatch(/^ChatClientException: .*service failed to complete the prompt: Error code: 400 - injected 400/);
    const down = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [500, 500, 500, 200] } });
    expect([down.gateway.attempts.length, down.record.items[0]!.error_class]).toEqual([3, "infra"]);
  }, 120_000);
});

/**
 * One item on the adapter through the Python host's loader, in a fresh interpreter with the
 * worker's telemetry switches: `run`, and `resume` (approve) on a fresh runner from the JSON state
 * when it pauses. `dispatched` lists each call the shared dispatch ran, with the leg it ran in.
 */
async function oneItem(baseUrl: string, requestTimeoutS: number, tools = ["search"]): Promise<{ result: any; resumed?: any; dispatched: string[]; seconds: number }> {
  const code = [
    "import asyncio, json, sys, time",
    "from arena_host import loader",
    "module, _ = loader.load(sys.argv[1])",
    "dispatched, leg = [], [1]",
    "class Tools:\n    def dispatch(self, name, args):\n        dispatched.append(f'{name}@{leg[0]}')\n        return 'x'",
    "class Ctx:\n    tools = Tools()",
    "config = {'baseUrl': sys.argv[2], 'apiKey': 'k', 'model': 'm', 'temperature': 0, 'requestTimeoutS': float(sys.argv[3]), 'maxToolIterations': 3}",
    "arena = {'id': 't', 'tools': json.loads(sys.argv[4]), 'systemPrompt': 'p', 'durable': False}",
    "started, out = time.perf_counter(), {}",
    "try:\n    out['result'] = asyncio.run(module.build(arena, config, Ctx()).run({'id': 'w-01', 'input': 'hi'}))\nexcept Exception as err:\n    out['result'] = {'raised': type(err).__name__, 'cause': type(err.__cause__).__name__}",
    "if out['result'].get('suspended'):\n    leg[0] = 2\n    state = json.loads(json.dumps(out['result']['resume_state']))\n    out['resumed'] = asyncio.run(module.build(arena, config, Ctx()).resume({'id': 'w-01', 'input': 'hi'}, state, 'approve'))",
    "print(json.dumps({**out, 'dispatched': dispatched, 'seconds': time.perf_counter() - started}))",
  ].join("\n");
  const env = disableTelemetry({ PATH: process.env.PATH, PYTHONPATH: PYTHON_HOST_ROOT });
  const out = await execa(pythonExecutable(), ["-s", "-B", "-c", code, `${REPO_ROOT}/workers/adapters/microsoft_af/index.py`, baseUrl, String(requestTimeoutS), JSON.stringify(tools)], { env, extendEnv: false });
  return JSON.parse(out.stdout.trim().split("\n").at(-1)!);
}

describe("microsoft_af: what the HTTP layer sends, and the per-attempt timeout", () => {
  let server: ChatServer;
  /** A first reply batching search_rooms, the pause and book_room; "Done." after it. */
  let batch = false;
  beforeAll(async () => {
    server = await chatServer((body) => {
      const first = !body.messages.some((m: any) => m.role === "assistant");
      const call = (id: string, name: string, args: unknown) => ({ id, type: "function", function: { name, arguments: JSON.stringify(args) } });
      const calls = [call("c_a", "search_rooms", { capacity: 4, day: "monday" }), call("c_b", "request_approval", { summary: "Book R2?" }), call("c_c", "book_room", { room_id: "R2" })];
      return batch && first ? { role: "assistant", content: null, tool_calls: calls } : { role: "assistant", content: batch ? "Done." : "hello" };
    });
  });
  afterAll(() => server.close());

  it("posts to <baseUrl>/chat/completions with the openai SDK's own User-Agent: no agent-framework name, version or feature token", async () => {
    server.seen.length = 0;
    const { result } = await oneItem(server.baseUrl, 5);
    expect([result.output_text, result.llm_calls, result.prompt_tokens, result.completion_tokens]).toEqual(["hello", 1, 5, 1]);
    expect(server.seen.map((s) => s.path)).toEqual(["/v1/chat/completions"]);
    const headers = server.seen[0]!.headers;
    expect(headers["user-agent"]).toMatch(/^AsyncOpenAI\/Python \d+\.\d+\.\d+$/);
    expect(Object.keys(headers).filter((k) => /agent-framework|feat/i.test(k) || /agent-framework|feat=/i.test(String(headers[k])))).toEqual([]);
    expect(headers.authorization).toBe("Bearer k");
  }, 60_000);

  it("ends each attempt after request_timeout_s and retries twice: three attempts, then a timeout error", async () => {
    server.seen.length = 0;
    server.stall = true;
    try {
      const { result, seconds } = await oneItem(server.baseUrl, 1);
      expect(result).toEqual({ raised: "ChatClientException", cause: "APITimeoutError" });
      expect(server.seen.length).toBe(3);
      // 3 × 1 s plus the SDK's backoff (≈0.5 s, ≈1 s, jittered).
      expect(seconds).toBeGreaterThan(3);
      expect(seconds).toBeLessThan(8);
    } finally {
      server.stall = false;
    }
  }, 60_000);

  it("a batched sibling before the pause call runs only after the decision, in the resuming process (the baseline runs it before pausing)", async () => {
    batch = true;
    try {
      const { result, resumed, dispatched } = await oneItem(server.baseUrl, 5, ["search_rooms", "request_approval", "book_room"]);
      expect([result.suspended, result.suspend_request, result.tool_calls]).toEqual([true, "Book R2?", []]);
      expect(result.resume_state.paused_siblings).toEqual(["c_c"]);
      expect([resumed.output_text, resumed.tool_calls.map((c: any) => c.name)]).toEqual(["Done.", ["search_rooms"]]);
      expect(dispatched).toEqual(["search_rooms@2"]);
    } finally {
      batch = false;
    }
  }, 60_000);
});

describe("microsoft_af: why the seed billed 802.0 on tool_use (finding 7)", () => {
  it("tools declared from Python signatures (the framework's other way) add 103 characters of titles per request to tool_use's two tools", async () => {
    const code = [
      "import json, sys",
      "from typing import Annotated",
      "from pydantic import Field",
      "from agent_framework import tool",
      "from arena_tools.definitions import spec",
      "def search(query: Annotated[str, Field(description='What to look up.')], k: Annotated[int, Field(description='How many snippets.')] = 3) -> str: ...",
      "def calculator(expr: Annotated[str, Field(description='Arithmetic expression.')]) -> str: ...",
      "made = [tool(f, description=spec(f.__name__)['function']['description']).to_json_schema_spec() for f in (search, calculator)]",
      "print(len(json.dumps(made)) - len(json.dumps([spec('search'), spec('calculator')])))",
    ].join("\n");
    const out = await execa(pythonExecutable(), ["-s", "-B", "-c", code], { env: disableTelemetry({ PATH: process.env.PATH, PYTHONPATH: PYTHON_HOST_ROOT }), extendEnv: false });
    // 103 / 4 = 25.75 billed tokens a request, × 31 requests / 15 items = +53.2 a item: 748.7 → 801.9.
    expect(Number(out.stdout.trim())).toBe(103);
  }, 60_000);
});
