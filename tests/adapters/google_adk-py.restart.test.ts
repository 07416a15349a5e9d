/**
 * `google_adk-py`'s durable restart across two Python interpreters sharing nothing but a JSON file
 * and the checkpoint directory, each with its own empty cwd, HOME and TMPDIR: leg 1 pauses with a
 * small handle and one session file, leg 2 in a fresh interpreter finishes with the decision as the
 * pause call's result, neither writes anywhere else, and every socket either opens goes to the
 * loopback server (telemetry off; CPython's audit hooks see every connect and name lookup).
 */
import { execa } from "execa";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, statSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { disableTelemetry } from "../../contract/telemetry.ts";
import { PYTHON_HOST_ROOT, pythonExecutable } from "../../orchestrator/supervisor/python-host.ts";
import { REPO_ROOT } from "../support/reference.ts";

const LEG = [
  "import asyncio, json, socket, sys",
  "connections, lookups = [], []",
  "def audit(event, args):\n    if event == 'socket.connect':\n        connections.append(str(args[1]))\n    elif event == 'socket.getaddrinfo':\n        lookups.append(str(args[0]))",
  "sys.addaudithook(audit)",
  "from arena_host import loader",
  "module, _ = loader.load(sys.argv[1])",
  "mode, base_url, ckpt, state_file = sys.argv[2:6]",
  "class Tools:\n    def dispatch(self, name, args):\n        return f'{name} ran on {args}'",
  "class Ctx:\n    tools = Tools()",
  "config = {'baseUrl': base_url, 'apiKey': 'k', 'model': 'm', 'temperature': 0, 'requestTimeoutS': 10, 'maxToolIterations': 8}",
  "arena = {'id': 'd', 'tools': ['search', 'calculator', 'save_progress'], 'systemPrompt': 'p', 'durable': True}",
  "item = {'id': 'dur-01', 'input': 'research, save, then calculate', 'resume_with': 'approve', 'checkpointDir': ckpt}",
  "runner = module.build(arena, config, Ctx())",
  "if mode == 'run':\n    result = asyncio.run(runner.run(item))\n    open(state_file, 'w').write(json.dumps(result.get('resume_state')))",
  "else:\n    result = asyncio.run(runner.resume(item, json.load(open(state_file)), 'approve'))",
  "print(json.dumps({'result': result, 'connections': connections, 'lookups': lookups}))",
].join("\n");

describe("google_adk-py: durable across two Python processes, and no connection but the gateway", () => {
  let server: http.Server;
  let baseUrl = "";
  let port = 0;
  const bodies: any[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let text = "";
      req.on("data", (chunk) => (text += chunk));
      req.on("end", () => {
        const body = JSON.parse(text);
        bodies.push(body);
        const tools = body.messages.filter((m: any) => m.role === "tool").length;
        const call = (name: string, args: string) => ({ role: "assistant", content: null, tool_calls: [{ id: `c${tools}`, type: "function", function: { name, arguments: args } }] });
        // search, save_progress (the pause), then an answer once the pause call is answered.
        const message = tools === 0 ? call("search", '{"query":"Eiffel"}') : tools === 1 ? call("save_progress", '{"note":"found it"}') : { role: "assistant", content: "done" };
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ id: "x", object: "chat.completion", created: 1, model: "m", choices: [{ index: 0, message, finish_reason: "stop" }], usage: { prompt_tokens: 10 + tools, completion_tokens: 2, total_tokens: 12 + tools } }));
      });
    });
    await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
    port = (server.address() as AddressInfo).port;
    baseUrl = `http://127.0.0.1:${port}/v1`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  it("leg 1 pauses with a ~200-byte handle and one session file; leg 2 in a fresh interpreter reads the decision as the pause call's result", async () => {
    const root = mkdtempSync(path.join(os.tmpdir(), "google_adk-py-restart-"));
    const [ckpt, cwd, home, tmp] = ["ckpt", "cwd", "home", "tmp"].map((d) => path.join(root, d)) as [string, string, string, string];
    for (const d of [ckpt, cwd, home, tmp]) mkdirSync(d);
    const stateFile = path.join(root, "state.json");
    const env = disableTelemetry({ PATH: process.env.PATH, PYTHONPATH: PYTHON_HOST_ROOT, HOME: home, TMPDIR: tmp });
    const leg = async (mode: string) => {
      const out = await execa(pythonExecutable(), ["-s", "-B", "-c", LEG, `${REPO_ROOT}/workers/adapters/google_adk-py/index.py`, mode, baseUrl, ckpt, stateFile], { env, extendEnv: false, cwd });
      return JSON.parse(out.stdout.trim().split("\n").at(-1)!);
    };
    const one = await leg("run");
    expect([one.result.suspended, one.result.suspend_request, one.result.tool_calls, one.result.llm_calls, one.result.prompt_tokens]).toEqual([true, "found it", [{ name: "search", arguments: '{"query":"Eiffel"}' }], 2, 21]);
    expect(Object.keys(one.result.resume_state)).toEqual(["session_id", "session_file", "confirmation_ids", "events"]);
    expect(readFileSync(stateFile, "utf8").length).toBeLessThan(300);
    const files = readdirSync(ckpt);
    expect(files).toEqual([one.result.resume_state.session_file]);
    expect(statSync(path.join(ckpt, files[0]!)).size).toBeGreaterThan(1_000);
    const two = await leg("resume");
    expect([two.result.error ?? null, two.result.suspended ?? false, two.result.output_text, two.result.llm_calls, two.result.prompt_tokens]).toEqual([null, false, "done", 1, 12]);
    // The resumed request replays the served arguments and answers the pause call with the decision text.
    const last = bodies.at(-1)!.messages;
    expect(last.filter((m: any) => m.role === "tool").map((m: any) => m.content)).toEqual(['search ran on {"query":"Eiffel"}', "Decision: approve."]);
    expect(last.flatMap((m: any) => (m.tool_calls ?? []).map((c: any) => c.function.arguments))).toEqual(['{"query":"Eiffel"}', '{"note":"found it"}']);
    for (const l of [one, two]) {
      expect(l.connections.length).toBeGreaterThan(0);
      expect(l.connections.every((c: string) => c === `('127.0.0.1', ${port})`), l.connections.join(", ")).toBe(true);
      expect(l.lookups.filter((h: string) => h !== "127.0.0.1")).toEqual([]);
    }
    for (const d of [cwd, home, tmp]) expect(readdirSync(d), d).toEqual([]);
  }, 120_000);
});
