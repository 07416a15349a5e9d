/**
 * The stand-in model a bundle's warm-up runs its item against (orchestrator/supervisor/warm-item.ts):
 * a calculator call first, the answer once the request carries the tool's result, as JSON or as a
 * server-sent stream; a body that is not JSON gets a 400. That the warm-up really runs the item
 * through it is tests/supervisor/code-cache.test.ts (the bundle's manifest counts the calls).
 */
import { mkdtempSync } from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WarmModel, warmRun } from "../../orchestrator/supervisor/warm-item.ts";
import { ToWorkerSchema } from "../../contract/protocol.ts";

function post(target: { port?: number; socketPath?: string }, body: string): Promise<{ status: number; type: string; text: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ ...target, host: "127.0.0.1", method: "POST", path: "/v1/chat/completions", headers: { "content-type": "application/json" } }, (res) => {
      let text = "";
      res.setEncoding("utf8");
      res.on("data", (d: string) => (text += d));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]), text }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const ask = { model: "m", messages: [{ role: "user", content: "What is 6 * 7?" }] };
const told = { model: "m", messages: [...ask.messages, { role: "assistant", content: null }, { role: "tool", tool_call_id: "call_warm_up", content: "42" }] };

describe("the warm-up's stand-in model", () => {
  let model: WarmModel;
  beforeAll(async () => {
    model = await WarmModel.listen();
  });
  afterAll(() => model.close());

  it("calls the calculator first, answers once the tool's result is in the request (JSON)", async () => {
    const first = JSON.parse((await post({ port: model.port! }, JSON.stringify(ask))).text);
    expect(first.choices[0].finish_reason).toBe("tool_calls");
    expect(first.choices[0].message.tool_calls[0].function).toEqual({ name: "calculator", arguments: '{"expression":"6 * 7"}' });
    const second = JSON.parse((await post({ port: model.port! }, JSON.stringify(told))).text);
    expect(second.choices[0]).toMatchObject({ finish_reason: "stop", message: { role: "assistant", content: "42" } });
    expect(second.usage.total_tokens).toBe(15);
  });

  it("streams the same turn as server-sent events when asked, ending with [DONE]", async () => {
    const r = await post({ port: model.port! }, JSON.stringify({ ...ask, stream: true }));
    expect(r.type).toBe("text/event-stream");
    const events = r.text.split("\n\n").filter(Boolean);
    expect(events.at(-1)).toBe("data: [DONE]");
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e.slice("data: ".length)));
    expect(chunks[0].choices[0].delta.tool_calls[0]).toMatchObject({ index: 0, id: "call_warm_up", function: { name: "calculator" } });
    expect(chunks[1].choices[0].finish_reason).toBe("tool_calls");
    expect(chunks[2]).toMatchObject({ choices: [], usage: { total_tokens: 15 } });
  });

  it("refuses a body that is not JSON, and counts every request", async () => {
    const before = model.requests;
    expect((await post({ port: model.port! }, "{not json")).status).toBe(400);
    expect(model.requests).toBe(before + 1);
  });

  it("listens on a Unix socket when given one (what a sealed warm-up's bridge reaches)", async () => {
    const socketPath = path.join(mkdtempSync(path.join(os.tmpdir(), "arena-warm-model-")), "model.sock");
    const onSocket = await WarmModel.listen(socketPath);
    try {
      expect(onSocket.port).toBeUndefined();
      expect(JSON.parse((await post({ socketPath }, JSON.stringify(told))).text).choices[0].message.content).toBe("42");
    } finally {
      await onSocket.close();
    }
  });

  it("a socket path it cannot listen on is a rejection (code-cache.ts then warms without it)", async () => {
    await expect(WarmModel.listen(path.join(os.tmpdir(), "x".repeat(200), "model.sock"))).rejects.toThrow();
  });

  it("its run message is one the protocol accepts", () => {
    expect(ToWorkerSchema.safeParse(warmRun("/tmp/x")).success).toBe(true);
  });
});
