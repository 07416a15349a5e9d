/**
 * Every attempt records the provider's fault as the wire showed it (issue 20): the proxy names a
 * 429, a 5xx, a reset, an unreachable host, a cut-off reply, a worker that gave up waiting and a
 * 2xx that is not JSON; the mock's injected faults are recorded the same way. Never read off an
 * error text: each case here is driven by what a fake provider on loopback does to the socket.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createProxy, mintWorkerKey, type Gateway } from "../../orchestrator/gateway/index.ts";
import { closedBaseUrl } from "../support/closed-port.ts";
import { fakeUpstream, json, type FakeUpstream } from "./fake-upstream.ts";
import { startGateway, user } from "./helpers.ts";

const REAL = "sk-real-0123456789abcdefABCDEF";
const running: Gateway[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((g) => g.stop()));
});

const OK = '{"choices":[{"index":0,"message":{"role":"assistant","content":"hi"},"finish_reason":"stop"}],"usage":{"prompt_tokens":5,"completion_tokens":1}}';

async function proxyTo(baseUrl: string) {
  const workerKey = mintWorkerKey();
  const gw = createProxy({ upstreamBaseUrl: baseUrl, apiKey: REAL, workerKey });
  running.push(gw);
  await gw.start();
  const post = (signal?: AbortSignal) =>
    fetch(`${gw.baseUrlFor("t")}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${workerKey}` },
      body: "{}",
      ...(signal ? { signal } : {}),
    }).then(
      async (r) => ({ status: r.status, text: await r.text().catch(() => "(cut off)") }),
      (e: Error) => ({ status: 0, text: e.name }),
    );
  return { gw, post };
}

/** The attempts once none is pending (a close travels to the gateway on its own schedule). */
async function settled(gw: Gateway) {
  while (gw.recorder.pendingAttempts > 0) await new Promise((r) => setTimeout(r, 5));
  return gw.recorder.records("t").attempts.map((a) => [a.outcome, a.status, a.providerFault]);
}

async function oneAttempt(handle: Parameters<FakeUpstream["handle"]>[0]) {
  const up = await fakeUpstream();
  up.handle(handle);
  const { gw, post } = await proxyTo(up.baseUrl);
  const reply = await post();
  return { reply, attempts: await settled(gw), gw };
}

describe("provider faults as the proxy saw them", () => {
  it("a 429 is rate_limited and a 503 server_error; a 400 is an answer, not a fault; a 200 is served with none", async () => {
    const up = await fakeUpstream();
    const statuses = [429, 503, 400, 200];
    up.handle((r, res) => {
      const status = statuses[up.received.indexOf(r)]!;
      json(res, status, status === 200 ? OK : `{"error": {"message": "status ${status}"}}`);
    });
    const { gw, post } = await proxyTo(up.baseUrl);
    for (const _ of statuses) await post();
    expect(await settled(gw)).toEqual([
      ["faulted", 429, "rate_limited"],
      ["faulted", 503, "server_error"],
      ["faulted", 400, null],
      ["served", 200, null],
    ]);
  });

  it("a 200 whose body is not JSON is malformed: relayed unchanged, never served", async () => {
    const { reply, attempts, gw } = await oneAttempt((_r, res) => json(res, 200, "<html>upstream error page</html>"));
    expect(reply).toEqual({ status: 200, text: "<html>upstream error page</html>" });
    expect(attempts).toEqual([["faulted", 200, "malformed"]]);
    expect(gw.recorder.servedUsageFor("t").llm_calls).toBe(0);
  });

  it("a connection reset before any reply is reset", async () => {
    const { reply, attempts } = await oneAttempt((_r, res) => res.socket?.destroy());
    expect(reply.status).toBe(502);
    expect(attempts).toEqual([["faulted", 502, "reset"]]);
  });

  it("a body cut off before its end is incomplete, and so is a stream cut off mid-way", async () => {
    const cut = await oneAttempt((_r, res) => {
      res.writeHead(200, { "content-type": "application/json", "content-length": "500" });
      res.write('{"choices": [');
      setImmediate(() => res.socket?.destroy());
    });
    expect(cut.attempts).toEqual([["faulted", 502, "incomplete"]]);
    const stream = await oneAttempt((_r, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write('data: {"choices":[{"index":0,"delta":{"content":"he"}}]}\n\n');
      setTimeout(() => res.socket?.destroy(), 20);
    });
    expect(stream.attempts).toEqual([["faulted", 502, "incomplete"]]);
  });

  it("a host nothing listens on is unreachable", async () => {
    const { gw, post } = await proxyTo(await closedBaseUrl());
    expect((await post()).status).toBe(502);
    expect(await settled(gw)).toEqual([["faulted", 502, "unreachable"]]);
  });

  it("a worker that gives up on a provider that never answers records a timeout", async () => {
    const up = await fakeUpstream();
    up.handle(() => {});
    const { gw, post } = await proxyTo(up.baseUrl);
    const stop = new AbortController();
    const pending = post(stop.signal);
    await up.next();
    stop.abort();
    expect((await pending).text).toBe("AbortError");
    expect(await settled(gw)).toEqual([["aborted", null, "timeout"]]);
  });
});

describe("the mock's injected faults are recorded the same way", () => {
  const script = { scenarios: [{ match: "hello", turns: [{ content: "hi" }] }] };
  const body = { messages: [user("hello")] };

  it("an injected 429 and 500 are rate_limited and server_error; a 400 no fault; the served attempt none", async () => {
    const { gw, post } = await startGateway({ script, faults: [429, 500, 400] });
    for (let i = 0; i < 4; i++) await post(body);
    expect(gw.recorder.records().attempts.map((a) => [a.outcome, a.status, a.providerFault])).toEqual([
      ["faulted", 429, "rate_limited"],
      ["faulted", 500, "server_error"],
      ["faulted", 400, null],
      ["served", 200, null],
    ]);
  });

  it("a client that gives up on a stalled request records a timeout", async () => {
    const { gw, base } = await startGateway({ script, stallSeconds: 30 });
    const stop = new AbortController();
    const pending = fetch(`${base}/chat/completions`, { method: "POST", body: JSON.stringify(body), signal: stop.signal }).catch((e: Error) => e.name);
    while (gw.recorder.lifetimeAttempts === 0) await new Promise((r) => setTimeout(r, 5));
    stop.abort();
    expect(await pending).toBe("AbortError");
    while (gw.recorder.pendingAttempts > 0) await new Promise((r) => setTimeout(r, 5));
    expect(gw.recorder.records().attempts.map((a) => [a.outcome, a.providerFault])).toEqual([["aborted", "timeout"]]);
  });
});
