/**
 * The live gateway: the recording proxy in front of a provider (here a fake one on loopback). What
 * the provider says reaches the worker byte for byte, what it served is recorded per tag like the
 * mock's, the real key goes upstream and nowhere else, and a worker's key is the only way in.
 */
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { DEFAULTS, type ArenaConfig } from "../../orchestrator/config/arena-config.ts";
import { redactSecrets } from "../../orchestrator/files/redact.ts";
import { createGateway, createProxy, mintWorkerKey, type Gateway, type ProxyOptions } from "../../orchestrator/gateway/index.ts";
import { startRunGateway, workerKeyFor } from "../../orchestrator/run/run-gateway.ts";
import { REPO_ROOT } from "../support/reference.ts";
import { fakeUpstream, json, type FakeUpstream } from "./fake-upstream.ts";

const REAL = "sk-real-0123456789abcdefABCDEF";
const running: Gateway[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((g) => g.stop()));
});

async function startProxy(up: FakeUpstream, extra: Partial<ProxyOptions> = {}) {
  const workerKey = mintWorkerKey();
  const gw = createProxy({ upstreamBaseUrl: up.baseUrl, apiKey: REAL, workerKey, ...extra });
  running.push(gw);
  await gw.start();
  return { gw, workerKey };
}

function post(base: string, body: string, key: string | null, init: { signal?: AbortSignal; suffix?: string } = {}) {
  return fetch(`${base}/chat/completions${init.suffix ?? ""}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...(key === null ? {} : { authorization: `Bearer ${key}` }) },
    body,
    ...(init.signal ? { signal: init.signal } : {}),
  });
}

const bytes = async (r: Response) => Buffer.from(await r.arrayBuffer());
const reply = (n: number) =>
  `{"id":"cmpl-${n}",  "object":"chat.completion","choices":[{"index":0,"message":{"role":"assistant","content":"héllo — ${n}"},"finish_reason":"stop"}],` +
  `"usage":{"prompt_tokens":${10 + n},"completion_tokens":3,"total_tokens":${13 + n}}}\n`;

describe("recording proxy (live mode)", () => {
  it("a JSON completion goes upstream with the real key and comes back byte for byte; usage is recorded per tag", async () => {
    const up = await fakeUpstream("/api/v1");
    up.handle((r, res) => json(res, 200, reply(up.received.indexOf(r)), { "x-request-id": "req-7" }));
    const { gw, workerKey } = await startProxy(up);
    const body = '{"model": "m", "temperature": 0.0, "messages": [{"role": "user", "content": "hi"}]}';

    const a = await post(gw.baseUrlFor("arena/a#0"), body, workerKey, { suffix: "?api-version=1" });
    expect(a.status).toBe(200);
    expect(a.headers.get("x-request-id")).toBe("req-7");
    expect((await bytes(a)).equals(Buffer.from(reply(0)))).toBe(true);
    for (const _ of [1, 2]) await (await post(gw.baseUrlFor("arena/b#0"), body, workerKey)).arrayBuffer();

    const first = up.received[0]!;
    expect(first.url).toBe("/api/v1/chat/completions?api-version=1");
    expect(first.body).toBe(body);
    expect(first.headers.authorization).toBe(`Bearer ${REAL}`);
    expect(first.headers["accept-encoding"]).toBe("identity");
    for (const r of up.received) expect(JSON.stringify(r.headers)).not.toContain(workerKey);

    expect(gw.recorder.servedUsageFor("arena/a#0")).toEqual({ prompt_tokens: 10, completion_tokens: 3, llm_calls: 1 });
    expect(gw.recorder.servedUsageFor("arena/b#0")).toEqual({ prompt_tokens: 23, completion_tokens: 6, llm_calls: 2 });
    const recA = gw.recorder.records("arena/a#0");
    expect(recA.requests[0]!.body.get("temperature")).toBe(0); // parsed with Python semantics: a float
    expect(recA.responseMessages[0]!.message.get("content")).toBe("héllo — 0");
    expect(recA.attempts.map((t) => [t.outcome, t.status])).toEqual([["served", 200]]);
  });

  it("an SSE stream reaches the worker as it arrives, byte for byte, and its final usage chunk is recorded", async () => {
    const events = [
      'data: {"id":"s","choices":[{"index":0,"delta":{"role":"assistant","content":"Hel"},"finish_reason":null}]}\n\n',
      'data: {"id":"s","choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":null}]}\n\n',
      'data: {"id":"s","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"call_1","type":"function","function":{"name":"search","arguments":"{\\"q\\":"}}]}}]}\n\n',
      'data: {"id":"s","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":" 1}"}}]}}]}\r\n\r\n',
      'data: {"id":"s","choices":[{"index":0,"delta":{},"finish_reason":"tool_calls"}],"usage":null}\n\n',
      'data: {"id":"s","choices":[],"usage":{"prompt_tokens":41,"completion_tokens":9,"total_tokens":50}}\n\n',
      "data: [DONE]\n\n",
    ];
    const whole = events.join("");
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const up = await fakeUpstream();
    up.handle((_r, res) => {
      res.writeHead(200, { "content-type": "text/event-stream" });
      res.write(events[0]);
      // The rest only once the worker has the first event: a proxy that buffered would hang here.
      void gate.then(() => {
        const rest = events.slice(1).join("");
        const cut = rest.indexOf('"arguments"'); // mid-event, mid-line
        res.write(rest.slice(0, cut));
        setTimeout(() => res.end(rest.slice(cut)), 20);
      });
    });
    const { gw, workerKey } = await startProxy(up);
    const tag = "arena/s#0";
    const res = await post(gw.baseUrlFor(tag), '{"stream": true, "stream_options": {"include_usage": true}}', workerKey);
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    const reader = res.body!.getReader();
    const got: Uint8Array[] = [];
    const firstRead = await reader.read();
    got.push(firstRead.value!);
    expect(Buffer.from(firstRead.value!).toString()).toBe(events[0]);
    expect(gw.recorder.servedUsageFor(tag).llm_calls).toBe(0); // served once the reply is complete
    release();
    for (let r = await reader.read(); !r.done; r = await reader.read()) got.push(r.value);

    expect(Buffer.concat(got).toString("utf8")).toBe(whole);
    expect(gw.recorder.servedUsageFor(tag)).toEqual({ prompt_tokens: 41, completion_tokens: 9, llm_calls: 1 });
    const message = gw.recorder.records(tag).responseMessages[0]!.message;
    expect(message.get("content")).toBe("Hello");
    const call = (message.get("tool_calls") as Map<string, unknown>[])[0]!;
    expect([call.get("id"), (call.get("function") as Map<string, unknown>).get("name"), (call.get("function") as Map<string, unknown>).get("arguments")]).toEqual([
      "call_1",
      "search",
      '{"q": 1}',
    ]);
  });

  it("a wrong or missing worker key gets 401 and never reaches the provider — the real key included", async () => {
    const up = await fakeUpstream();
    up.handle((_r, res) => json(res, 200, '{"object": "list", "data": [{"id": "m1"}]}'));
    const { gw, workerKey } = await startProxy(up);
    const base = gw.baseUrlFor("t");
    for (const key of [null, "wrong", REAL, `${workerKey}0`, workerKey.slice(0, -1)]) {
      const r = await post(base, "{}", key);
      expect(r.status).toBe(401);
      expect(await r.json()).toMatchObject({ error: { code: "invalid_api_key", type: "invalid_request_error" } });
    }
    expect((await fetch(`${base}/models`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect(up.received).toHaveLength(0);
    expect(gw.recorder.records("t").attempts.map((a) => [a.outcome, a.status])).toEqual(Array(5).fill(["rejected", 401]));

    // The right key reads the provider's model list, through the proxy, with the real key.
    const models = await fetch(`${base}/models`, { headers: { authorization: `Bearer ${workerKey}` } });
    expect(await models.text()).toBe('{"object": "list", "data": [{"id": "m1"}]}');
    expect(up.received.map((r) => [r.method, r.url, r.headers.authorization])).toEqual([["GET", "/v1/models", `Bearer ${REAL}`]]);
  });

  it("a provider error passes through with its status and headers: an attempt, never served; the retry is counted too", async () => {
    const up = await fakeUpstream();
    const overloaded = '{"error": {"message": "overloaded", "type": "server_error"}}';
    up.handle((r, res) => (up.received.indexOf(r) === 0 ? json(res, 503, overloaded, { "retry-after": "2" }) : json(res, 200, reply(1))));
    const { gw, workerKey } = await startProxy(up);
    const base = gw.baseUrlFor("r");
    const failed = await post(base, '{"n": 1}', workerKey);
    expect([failed.status, failed.headers.get("retry-after"), await failed.text()]).toEqual([503, "2", overloaded]);
    await (await post(base, '{"n": 2}', workerKey)).arrayBuffer();
    const rec = gw.recorder.records("r");
    expect(rec.attempts.map((a) => [a.outcome, a.status])).toEqual([["faulted", 503], ["served", 200]]);
    expect(rec.requests.map((q) => q.body.get("n"))).toEqual([2n]);
    expect(rec.servedUsage).toEqual({ prompt_tokens: 11, completion_tokens: 3, llm_calls: 1 });
  });

  it("a provider that echoes the real key: the worker gets the reply with the key scrubbed out", async () => {
    const up = await fakeUpstream();
    up.handle((_r, res) => json(res, 401, `{"error": {"message": "Incorrect API key provided: ${REAL}"}}`));
    const { gw, workerKey } = await startProxy(up);
    const r = await post(gw.baseUrlFor("k"), "{}", workerKey);
    expect([r.status, await r.text()]).toEqual([401, '{"error": {"message": "Incorrect API key provided: [REDACTED]"}}']);
  });

  it("a worker that hangs up aborts the upstream request; nothing is served", async () => {
    const up = await fakeUpstream();
    up.handle(() => {}); // a provider that never answers
    const { gw, workerKey } = await startProxy(up);
    const stop = new AbortController();
    const pending = post(gw.baseUrlFor("h"), "{}", workerKey, { signal: stop.signal }).catch((e: Error) => e.name);
    const seen = await up.next();
    stop.abort();
    expect(await pending).toBe("AbortError");
    const gaveUp = await Promise.race([seen.closed.then(() => "closed"), new Promise((r) => setTimeout(() => r("still open"), 2000))]);
    expect(gaveUp).toBe("closed");
    const [attempt] = gw.recorder.records("h").attempts;
    expect([attempt!.outcome, attempt!.closedAt !== null]).toEqual(["aborted", true]);
    expect(gw.recorder.servedUsageFor("h").llm_calls).toBe(0);
  });

  it("sets no deadline of its own on the reply (a reply slower than its request deadline is relayed); a dead provider is a 502 attempt", async () => {
    const up = await fakeUpstream();
    up.handle((_r, res) => setTimeout(() => json(res, 200, reply(0)), 700));
    const { gw, workerKey } = await startProxy(up, { headersTimeoutSeconds: 0.2, requestTimeoutSeconds: 0.2 });
    const slow = await post(gw.baseUrlFor("slow"), "{}", workerKey);
    expect([slow.status, (await bytes(slow)).equals(Buffer.from(reply(0)))]).toEqual([200, true]);
    expect(gw.recorder.servedUsageFor("slow").llm_calls).toBe(1);

    const dead = createProxy({ upstreamBaseUrl: "http://127.0.0.1:9/v1", apiKey: REAL, workerKey });
    running.push(dead);
    await dead.start();
    const r = await post(dead.baseUrlFor("d"), "{}", workerKey);
    expect(r.status).toBe(502);
    expect(await r.json()).toMatchObject({ error: { code: "upstream_unreachable", type: "server_error" } });
    expect(dead.recorder.records("d").attempts.map((a) => [a.outcome, a.status])).toEqual([["faulted", 502]]);
  });
});

describe("the run's gateway in live mode", () => {
  it("hands workers the run's own key and mock-shaped URLs, and witnesses their legs", async () => {
    const up = await fakeUpstream();
    up.handle((_r, res) => json(res, 200, reply(2)));
    const config: ArenaConfig = { ...DEFAULTS, mode: "live", baseUrl: up.baseUrl, apiKey: REAL };
    const arena = loadArena(path.join(REPO_ROOT, "arenas", "tool_use"));
    const live = await startRunGateway(arena, config);
    const mock = createGateway({ script: arena.script });
    running.push(mock);
    await mock.start();
    try {
      expect(live.apiKey).toBe(workerKeyFor(config));
      expect(live.apiKey).toMatch(/^sk-arena-[0-9a-f]{32}$/);
      expect(workerKeyFor({ ...config })).not.toBe(live.apiKey); // another run, another key
      expect(redactSecrets(`key ${live.apiKey}`, [])).toBe("key [REDACTED]"); // caught by shape even unregistered
      const shape = (url: string) => url.replace(/:\d+\//, ":<port>/").replace(/\.[0-9a-f]{32}\/v1$/, ".<token>/v1");
      expect(shape(live.baseUrlFor("tool_use/tu-01#0"))).toBe(shape(mock.baseUrlFor("tool_use/tu-01#0")));

      const watch = live.watchLeg!("w1");
      await (await post(live.baseUrlFor("w1"), '{"model": "m"}', live.apiKey)).arrayBuffer();
      // The leg's transcript: the request, the provider's reply as relayed, and the usage it billed.
      expect(watch.end()).toEqual({
        served: { prompt_tokens: 12, completion_tokens: 3, llm_calls: 1 },
        requests: [{ model: "m" }],
        exchanges: [{ request: { model: "m" }, reply: { role: "assistant", content: "héllo — 2" }, usage: { prompt_tokens: 12, completion_tokens: 3 } }],
        // Every attempt of the leg, with the provider fault the wire showed (none here) and how long it was open.
        attempts: [{ status: 200, outcome: "served", fault: null, waitedMs: expect.any(Number) }],
      });
      expect(live.servedUsage("w1")).toEqual({ prompt_tokens: 12, completion_tokens: 3, llm_calls: 1 });
      expect(live.mock).toBeUndefined();
    } finally {
      await live.stop();
    }
  });
});
