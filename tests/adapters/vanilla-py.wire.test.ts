/**
 * `vanilla-py` held to its TS twin where the arenas do not reach: the cap, a resumed leg's budget
 * across a real restart, a batched pause, the pipeline's one budget, and transport — every fault
 * reads as vanilla's text and gets vanilla's error class, through the real orchestrator and against
 * loopback servers that reset, refuse or trickle. Plus the resume state's refusals, run in Python.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AdapterConfig } from "../../contract/protocol.ts";
import { PAUSED_SIBLING_TEXT } from "../../contract/texts.ts";
import { classifyAdapterError } from "../../orchestrator/run/error-class.ts";
import { chatCompletion, requestBody } from "../../workers/adapters/vanilla/index.ts";
import { causeChain } from "../../workers/cause-chain.ts";
import { probeRun } from "../probes/support.ts";
import { REPO_ROOT } from "../support/reference.ts";
import { adapterEntry } from "../support/run.ts";
import { ANSWER_ONLY, batchedApprovalRun, cappedRun, expectEachLegCapped, expectOneBudgetForPipeline, expectResumedLegFullBudget, expectStoppedAtCap, resumedBudgetRun, resumedCapRun } from "./support/probes.ts";

const run = promisify(execFile);
const PYTHON = existsSync(path.join(REPO_ROOT, ".venv/bin/python")) ? path.join(REPO_ROOT, ".venv/bin/python") : "python3";
const MODULE = path.join(REPO_ROOT, "workers/adapters/vanilla-py/index.py");

/** Runs one job on the adapter's own modules in a Python process, loaded as the worker host loads them. */
const DRIVER = `
import json, sys
from arena_host import loader
from arena_host.causes import cause_chain
loader.load(sys.argv[1])
model, runner = sys.modules["arena_adapter.model"], sys.modules["arena_adapter.runner"]
job = json.loads(sys.argv[2])
if job["kind"] == "resume":
    out = [runner.resume_messages(state, "deny") for state in job["states"]]
else:
    try:
        out = {"reply": model.chat_completion(job["config"], model.request_body(job["config"], [{"role": "user", "content": "hi"}]))}
    except Exception as err:
        out = {"error": loader.describe(err), "causes": cause_chain(err)}
print(json.dumps(out))
`;

async function python(job: unknown): Promise<any> {
  const { stdout } = await run(PYTHON, ["-s", "-B", "-c", DRIVER, MODULE, JSON.stringify(job)], { env: { PATH: process.env.PATH, PYTHONPATH: path.join(REPO_ROOT, "workers/python") } });
  return JSON.parse(stdout);
}

/** One call by each baseline to `baseUrl`: the error text as each worker host would report it, its class, and the seconds it took. */
async function bothCall(baseUrl: string, requestTimeoutS = 5) {
  const config: AdapterConfig = { model: "m", baseUrl, apiKey: "k", temperature: 0, requestTimeoutS, maxToolIterations: 3 };
  const timed = async (f: () => Promise<{ error: string; causes: any[] }>) => {
    const started = performance.now();
    const { error, causes } = await f();
    return { error, kind: classifyAdapterError(error, causes, [baseUrl]), seconds: (performance.now() - started) / 1000 };
  };
  const ts = await timed(async () => {
    try {
      await chatCompletion(config, requestBody(config, [{ role: "user", content: "hi" }]));
      return { error: "(answered)", causes: [] };
    } catch (err: any) {
      return { error: `${err.name}: ${err.message}`, causes: causeChain(err) };
    }
  });
  const py = await timed(() => python({ kind: "call", config }));
  return { ts, py };
}

describe("vanilla-py on the wire: the cap, the restart, a batched pause, the pipeline's budget", () => {
  it("stops at exactly max_tool_iterations LLM calls and ends with the baseline's error", async () => {
    expectStoppedAtCap(await cappedRun("vanilla-py", 3), 3);
  }, 60_000);

  it("gives a resumed leg the full budget across a real restart, and caps each leg on its own", async () => {
    expectResumedLegFullBudget(await resumedBudgetRun("vanilla-py"));
    expectEachLegCapped(await resumedCapRun("vanilla-py", 3), 3);
  }, 120_000);

  it("handles a pause batched between two task calls as vanilla does: the call before runs, the one after is declined", async () => {
    const seen = async (name: string) => {
      const r = await batchedApprovalRun(name);
      const item = r.record.items[0]!;
      const tools = r.bodies.at(-1)!.messages.filter((m: any) => m.role === "tool").map((m: any) => m.content);
      return [item.tool_calls_before_suspend, item.legs!.map((l) => l.tool_calls), item.passed, tools];
    };
    const py = await seen("vanilla-py");
    expect(py).toEqual(await seen("vanilla"));
    expect(py[3]).toEqual([expect.any(String), "Decision: approve.", PAUSED_SIBLING_TEXT]);
  }, 120_000);

  it("vanilla-py-multi spends one budget for the whole pipeline", async () => {
    await expectOneBudgetForPipeline("vanilla-py-multi");
  }, 120_000);
});

describe("vanilla-py transport: no retries, and every fault reads as vanilla's", () => {
  const both = (faults: Parameters<typeof probeRun>[0]["gatewayFaults"], config = {}) =>
    Promise.all(["vanilla", "vanilla-py"].map((name) => probeRun({ adapter: adapterEntry(name), arena: ANSWER_ONLY, gatewayFaults: faults!, config })));
  const outcome = (r: Awaited<ReturnType<typeof probeRun>>) => [r.gateway.attempts.length, r.record.items[0]!.error, r.record.items[0]!.error_class];

  it("a 400, a 429 and a 500 are one attempt each, with vanilla's text and class", async () => {
    for (const status of [400, 429, 500]) {
      const [ts, py] = await both({ faults: [status, 200] });
      expect(outcome(py!), String(status)).toEqual(outcome(ts!));
      expect(outcome(py!)[1]).toMatch(new RegExp(`^LlmHttpError: LLM HTTP ${status}: \\{"error": \\{"message": "injected ${status}"`));
    }
  }, 180_000);

  it("a stalled gateway: one attempt of one request timeout, TimeoutError as AbortSignal.timeout words it", async () => {
    const [ts, py] = await both({ faults: [], stallSeconds: 20 }, { requestTimeoutS: 1 });
    expect(outcome(py!)).toEqual(outcome(ts!));
    expect(outcome(py!)).toEqual([1, "TimeoutError: The operation was aborted due to timeout", "infra"]);
    expect(classifyAdapterError(py!.record.items[0]!.error!)).toBe("timeout");
  }, 120_000);

  describe("against loopback servers", () => {
    const servers: http.Server[] = [];
    const headers: http.IncomingHttpHeaders[] = [];
    const serve = async (handler: http.RequestListener) => {
      const server = http.createServer(handler);
      servers.push(server);
      await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    };
    let reset = "";
    let trickle = "";
    let answer = "";
    beforeAll(async () => {
      reset = await serve((req) => req.socket.destroy());
      // Headers at once, then a byte every 200 ms: each read is quick, the whole request is not.
      trickle = await serve((_req, res) => {
        res.writeHead(200, { "content-type": "application/json" });
        const timer = setInterval(() => res.write(" "), 200);
        res.on("close", () => clearInterval(timer));
      });
      answer = await serve((req, res) => {
        headers.push(req.headers);
        req.resume();
        req.on("end", () => res.end(JSON.stringify({ choices: [{ message: { content: "hi" } }], usage: { prompt_tokens: 3, completion_tokens: 1 } })));
      });
    });
    afterAll(() => {
      for (const s of servers) {
        s.closeAllConnections();
        s.close();
      }
    });

    it("a connection reset is `TypeError: fetch failed`, infra, for both", async () => {
      const { ts, py } = await bothCall(reset);
      expect([py.error, py.kind]).toEqual([ts.error, ts.kind]);
      expect([py.error, py.kind]).toEqual(["TypeError: fetch failed", "infra"]);
    }, 30_000);

    it("a refused connection is infra for both (ECONNREFUSED on the cause)", async () => {
      const closed = await serve(() => {});
      servers.at(-1)!.close();
      const { ts, py } = await bothCall(closed);
      expect([py.error, py.kind]).toEqual(["TypeError: fetch failed", "infra"]);
      expect(py.kind).toBe(ts.kind);
    }, 30_000);

    it("a reply trickling past the timeout ends at the timeout: the budget bounds the whole request, not each read", async () => {
      const { ts, py } = await bothCall(trickle, 1);
      expect([py.error, py.kind]).toEqual([ts.error, ts.kind]);
      expect(py.error).toBe("TimeoutError: The operation was aborted due to timeout");
      expect(py.seconds).toBeGreaterThan(0.9);
      expect(py.seconds).toBeLessThan(3);
    }, 30_000);

    it("sends the same two headers of its own; the rest are each client's defaults (finding)", async () => {
      const config = { model: "m", baseUrl: answer, apiKey: "k", temperature: 0, requestTimeoutS: 5, maxToolIterations: 3 };
      expect((await python({ kind: "call", config })).reply).toEqual({ content: "hi", tool_calls: [], prompt_tokens: 3, completion_tokens: 1 });
      await chatCompletion(config, requestBody(config, [{ role: "user", content: "hi" }]));
      const [py, ts] = headers;
      for (const h of [py!, ts!]) expect([h["content-type"], h.authorization]).toEqual(["application/json", "Bearer k"]);
      expect([py!["user-agent"], py!["accept-encoding"], py!.connection]).toEqual([expect.stringMatching(/^Python-urllib\/3\.\d+$/), "identity", "close"]);
      // vanilla's node:http client adds nothing of its own (no user-agent, no compression asked for).
      expect([ts!["user-agent"], ts!["accept-encoding"], ts!.connection]).toEqual([undefined, undefined, "keep-alive"]);
    }, 30_000);
  });
});

describe("vanilla-py resume state (run in Python)", () => {
  it("refuses a state it cannot continue from by its Python type name, and answers the pause and its later siblings", async () => {
    const states = [null, [1], 3, 2.5, "x", true, { approval_id: "c1" }, { messages: [{ role: "user", content: "hi" }], approval_id: "c1", pending_ids: ["c2"] }];
    const out = await python({ kind: "resume", states });
    expect(out.slice(0, 7)).toEqual(["NoneType", "list", "int", "float", "str", "bool", "dict"].map((t) => `cannot resume: unusable state ${t}`));
    expect(out[7]).toEqual([
      { role: "user", content: "hi" },
      { role: "tool", tool_call_id: "c1", content: "Decision: deny." },
      { role: "tool", tool_call_id: "c2", content: PAUSED_SIBLING_TEXT },
    ]);
  }, 30_000);
});
