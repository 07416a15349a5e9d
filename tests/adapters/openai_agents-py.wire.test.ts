/**
 * `openai_agents-py` on the wire: the iteration cap (`max_turns`), the resumed leg's budget (the
 * SDK would take both the limit and the turn counter from the restored RunState), a pause batched
 * with task calls, retries, and what the HTTP layer sends. The scripted runs go through the real
 * orchestrator; the header case drives one leg on the Python host's loader against a loopback
 * server that records what arrives.
 */
import { execa } from "execa";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disableTelemetry } from "../../contract/telemetry.ts";
import { PYTHON_HOST_ROOT, pythonExecutable } from "../../orchestrator/supervisor/python-host.ts";
import path from "node:path";
import { probeRun, SENTINEL_PROMPT } from "../probes/support.ts";
import { REPO_ROOT } from "../support/reference.ts";
import { adapterEntry, OUR_ARENAS } from "../support/run.ts";
import { chatServer, type ChatServer } from "./support/chat-server.ts";
import { ANSWER_ONLY, batchedApprovalRun, batchedSiblingsRun, CAP_EXCEEDED, cappedRun, expectEachLegCapped, expectResumedLegFullBudget, expectStoppedAtCap, resumedBudgetRun, resumedCapRun } from "./support/probes.ts";

const toolTexts = (body: { messages?: unknown }) => (body.messages as any[]).filter((m: any) => m.role === "tool").map((m: any) => m.content as string);
const NOT_EXECUTED = "Not executed - the run paused for an approval decision.";

describe("openai_agents-py: the iteration cap (max_turns)", () => {
  for (const cap of [3, 6]) {
    it(`${cap} calls on the wire, then MaxTurnsExceeded reported as the baseline's error`, async () => {
      expectStoppedAtCap(await cappedRun("openai_agents-py", cap), cap);
    }, 120_000);
  }

  it("gives a resumed leg the full budget across a real restart (max_turns reset to the restored turn counter + the budget)", async () => {
    const run = await resumedBudgetRun("openai_agents-py");
    expectResumedLegFullBudget(run);
  }, 120_000);

  it("caps a fresh and a resumed leg alike", async () => {
    expectEachLegCapped(await resumedCapRun("openai_agents-py", 4), 4);
  }, 120_000);

  it("openai_agents-py-multi spends one budget for the whole run: a research loop stops at the cap, and a budget of 3 ends at the writer's handoff", async () => {
    const loop = await probeRun({
      adapter: adapterEntry("openai_agents-py-multi"),
      config: { maxToolIterations: 4 },
      arena: { tools: ["search"], prompt: SENTINEL_PROMPT, items: [{ id: "m-01", input: "loop forever" }], script: { default: { turns: [{ tool_calls: [{ name: "search", arguments: { query: "x" } }] }] } } },
    });
    expect([loop.bodies.length, loop.record.items[0]!.error]).toEqual([4, CAP_EXCEEDED]);
    const short = await probeRun({ adapter: adapterEntry("openai_agents-py-multi"), config: { maxToolIterations: 3 }, arena: path.join(OUR_ARENAS, "multi_agent"), items: ["ma-01"] });
    // researcher (search), researcher (transfer_to_writer), writer (transfer_to_editor): the editor
    // would be a fourth turn. Unlike a hand-written pipeline, the writer's handoff is a tool call, so
    // the item ends on the cap (the TS twin's one budget, the same way).
    expect(short.bodies.map((b) => (b.tools ?? []).map((t: any) => t.function.name).join(","))).toEqual(["search,transfer_to_writer", "search,transfer_to_writer", "transfer_to_editor"]);
    expect(short.record.items[0]!.error).toBe(CAP_EXCEEDED);
  }, 180_000);
});

describe("openai_agents-py: a pause call batched with task calls (not in any arena script)", () => {
  it("runs the earlier sibling, pauses, and answers the later sibling \"Not executed\" (the TS twin books the room before the human decides)", async () => {
    const run = await batchedApprovalRun("openai_agents-py");
    const item = run.record.items[0]!;
    expect(item.legs!.map((l) => [l.llm_calls, l.tool_calls])).toEqual([
      [1, ["search_rooms"]],
      [1, []],
    ]);
    expect(item.tool_calls_before_suspend).toEqual(["search_rooms"]);
    // Finding: the SDK writes the approved call's output after the outputs it already had, so the
    // decision's tool message comes after the sibling's, out of call order (the baseline keeps call order).
    expect(toolTexts(run.bodies.at(-1)!)).toEqual([expect.stringMatching(/^\[R2\]/), NOT_EXECUTED, "Decision: approve."]);
    expect(item.passed).toBe(true);
  }, 120_000);

  it("the same on a durable arena: the sibling's answer crosses the restart inside the RunState", async () => {
    const run = await batchedSiblingsRun("openai_agents-py");
    const item = run.record.items[0]!;
    expect(item.legs!.map((l) => [l.llm_calls, l.tool_calls])).toEqual([
      [1, ["search"]],
      [1, []],
    ]);
    expect(toolTexts(run.bodies.at(-1)!).slice(1)).toEqual([NOT_EXECUTED, "Decision: approve."]);
  }, 120_000);
});

describe("openai_agents-py: transport (AsyncOpenAI, max_retries 2)", () => {
  const adapter = adapterEntry("openai_agents-py");

  it("retries a 429 and a 5xx, never a 400; a 5xx that outlasts the retries is infra", async () => {
    const limited = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [429, 200] } });
    expect([limited.gateway.attempts.length, limited.record.items[0]!.output_text]).toEqual([2, "The Eiffel Tower is 330 metres tall."]);
    const bad = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [400, 200] } });
    expect([bad.gateway.attempts.length, bad.record.items[0]!.error_class]).toEqual([1, "adapter"]);
    expect(bad.record.items[0]!.error).toMatch(/^BadRequestError: Error code: 400/);
    const down = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [500, 500, 500, 200] } });
    expect([down.gateway.attempts.length, down.record.items[0]!.error_class]).toEqual([3, "infra"]);
  }, 120_000);
});

/** One item on the adapter through the Python host's loader, in a fresh interpreter with the worker's telemetry switches. */
async function oneItem(baseUrl: string, requestTimeoutS: number): Promise<{ result: any; seconds: number }> {
  const code = [
    "import asyncio, json, sys, time",
    "from arena_host import loader",
    "module, _ = loader.load(sys.argv[1])",
    "class Tools:\n    def dispatch(self, name, args):\n        return 'x'",
    "class Ctx:\n    tools = Tools()",
    "config = {'baseUrl': sys.argv[2], 'apiKey': 'k', 'model': 'm', 'temperature': 0, 'requestTimeoutS': float(sys.argv[3]), 'maxToolIterations': 3}",
    "arena = {'id': 't', 'tools': ['search'], 'systemPrompt': 'p', 'durable': False}",
    "started = time.perf_counter()",
    "result = asyncio.run(module.build(arena, config, Ctx()).run({'id': 'w-01', 'input': 'hi'}))",
    "result.pop('raw', None)",
    "print(json.dumps({'result': result, 'seconds': time.perf_counter() - started}))",
  ].join("\n");
  const env = disableTelemetry({ PATH: process.env.PATH, PYTHONPATH: PYTHON_HOST_ROOT });
  const out = await execa(pythonExecutable(), ["-s", "-B", "-c", code, `${REPO_ROOT}/workers/adapters/openai_agents-py/index.py`, baseUrl, String(requestTimeoutS)], { env, extendEnv: false });
  return JSON.parse(out.stdout.trim().split("\n").at(-1)!);
}

describe("openai_agents-py: what the HTTP layer sends, and the per-attempt timeout", () => {
  let server: ChatServer;
  beforeAll(async () => {
    server = await chatServer(() => ({ role: "assistant", content: "hello" }));
  });
  afterAll(() => server.close());

  it("posts only to <baseUrl>/chat/completions (no trace export), with the SDK's own User-Agent", async () => {
    server.seen.length = 0;
    const { result } = await oneItem(server.baseUrl, 5);
    expect([result.output_text, result.llm_calls, result.prompt_tokens, result.completion_tokens]).toEqual(["hello", 1, 5, 1]);
    expect(server.seen.map((s) => s.path)).toEqual(["/v1/chat/completions"]);
    // The Agents SDK overrides the openai client's User-Agent with its own name and version.
    expect(server.seen[0]!.headers["user-agent"]).toBe("Agents/Python 0.24.0");
    expect(server.seen[0]!.headers.authorization).toBe("Bearer k");
  }, 60_000);

  it("ends each attempt after request_timeout_s and retries twice: three attempts, then the leg's error", async () => {
    server.seen.length = 0;
    server.stall = true;
    try {
      const { result, seconds } = await oneItem(server.baseUrl, 1);
      expect([result.error, result.llm_calls]).toEqual(["APITimeoutError: Request timed out.", 0]);
      expect(server.seen.length).toBe(3);
      expect(seconds).toBeGreaterThan(3);
      expect(seconds).toBeLessThan(8);
    } finally {
      server.stall = false;
    }
  }, 60_000);
});

describe("openai_agents-py: why seed 000 billed 856.9 on tool_use (finding 7)", () => {
  it("the tools block is 671 characters non-strict, 736 strict on the canonical schema, 837 through @function_tool (seed 000's way)", async () => {
    const code = [
      "import json",
      "from agents import FunctionTool, function_tool",
      "from agents.models.chatcmpl_converter import Converter",
      "from arena_tools.definitions import spec",
      "def search(query: str, k: int = 3) -> str:\n    '''d\n\n    Args:\n        query: What to look up.\n        k: How many snippets.\n    '''",
      "def calculator(expr: str) -> str:\n    '''d\n\n    Args:\n        expr: Arithmetic expression.\n    '''",
      "canon = [spec('search')['function'], spec('calculator')['function']]",
      "raw = lambda strict: [FunctionTool(name=f['name'], description=f['description'], params_json_schema=f['parameters'], on_invoke_tool=None, strict_json_schema=strict) for f in canon]",
      "decorated = [function_tool(f, description_override=spec(f.__name__)['function']['description']) for f in (search, calculator)]",
      "size = lambda tools: len(json.dumps([Converter.tool_to_openai(t) for t in tools]))",
      "print(json.dumps([len(json.dumps([spec('search'), spec('calculator')])), size(raw(False)), size(raw(True)), size(decorated)]))",
    ].join("\n");
    const out = await execa(pythonExecutable(), ["-s", "-B", "-c", code], { env: disableTelemetry({ PATH: process.env.PATH, PYTHONPATH: PYTHON_HOST_ROOT }), extendEnv: false });
    // 837 − 671 = 166 characters = 41.5 billed tokens a request × 31 requests / 15 items = +85.8 an item: 771.3 → 857.1.
    expect(JSON.parse(out.stdout.trim())).toEqual([637, 671, 736, 837]);
  }, 60_000);
});
