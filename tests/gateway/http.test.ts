import net from "node:net";
import { describe, expect, it } from "vitest";
import { assistant, messageOf, postJson, startGateway, user } from "./helpers.ts";

const script = { scenarios: [{ match: "hello", turns: [{ content: "hi" }] }] };
const healthy = { messages: [user("hello")] };

/** Write raw bytes to the gateway and collect whatever comes back until it closes (or `waitMs`). */
function raw(port: number, data: string | Buffer, opts: { end?: boolean; destroyAfterWrite?: boolean; waitMs?: number } = {}): Promise<string> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    let out = "";
    const done = () => resolve(out);
    s.on("data", (d) => (out += d.toString("latin1")));
    s.on("close", done);
    s.on("error", done);
    s.on("connect", () => {
      s.write(data);
      if (opts.destroyAfterWrite) s.destroy();
      else if (opts.end) s.end();
    });
    if (opts.waitMs !== undefined) setTimeout(() => (s.destroy(), done()), opts.waitMs);
  });
}

describe("endpoints (gateway.md §2)", () => {
  it("GET …/models lists mock-model, any other GET is a health check", async () => {
    const { base, gw } = await startGateway({ script });
    const root = base.slice(0, -3);
    for (const p of [`${base}/models`, `${base}/models/`, `${root}/models`, `${root}/x/y/models?z=1`]) {
      const r = await fetch(p);
      expect([r.status, await r.text()]).toEqual([200, '{"object": "list", "data": [{"id": "mock-model", "object": "model"}]}']);
    }
    for (const p of [`${root}/`, `${base}/health`, `${base}/models/x`]) {
      const r = await fetch(p);
      expect([r.status, await r.text()]).toEqual([200, '{"status": "ok"}']);
      expect(r.headers.get("server")).toBe("AgentArenaMock/0.1");
    }
    expect(gw.recorder.attempts).toHaveLength(0);
  });

  it("any other POST is a 404 naming the path as requested (query included), not an attempt", async () => {
    const { base, gw } = await startGateway({ script, faults: [429] });
    const r = await postJson(`${base}/embeddings?api-version=1`, healthy);
    expect([r.status, r.text]).toEqual([404, '{"error": {"message": "unhandled path /v1/embeddings?api-version=1"}}']);
    expect(gw.recorder.attempts).toHaveLength(0);
    // Completions match by suffix, whatever the prefix, with a query string too.
    expect((await postJson(`${base.slice(0, -3)}/openai/deployments/x/chat/completions?api-version=1`, healthy)).status).toBe(429);
  });

  it("other methods get 501", async () => {
    const { base } = await startGateway({ script });
    const r = await fetch(`${base}/chat/completions`, { method: "PUT", body: "{}" });
    expect([r.status, await r.text()]).toEqual([501, '{"error": {"message": "unsupported method PUT"}}']);
  });
});

describe("bad input never crashes the gateway", () => {
  it("invalid JSON, non-object bodies and bad UTF-8 are 400 invalid JSON; counted as attempts, not recorded", async () => {
    const { post, gw, base } = await startGateway({ script });
    for (const body of ["{", "[]", '"x"', "1", "null", "{} {}", "   ", '{"a": 1,}', "{'a': 1}"]) {
      const r = await post(body);
      expect([body, r.status, r.text]).toEqual([body, 400, '{"error": {"message": "invalid JSON"}}']);
    }
    const badUtf8 = await fetch(`${base}/chat/completions`, { method: "POST", body: Buffer.from([0x7b, 0x22, 0xff, 0x22, 0x3a, 0x31, 0x7d]) });
    expect(badUtf8.status).toBe(400);
    expect(gw.recorder.attempts.every((a) => a.outcome === "rejected")).toBe(true);
    expect(gw.recorder.attempts).toHaveLength(10);
    expect(gw.recorder.requests).toHaveLength(0);
    expect((await post(healthy)).status).toBe(200);
  });

  it("a body whose messages or tools have the wrong shape is a 400 with a reason", async () => {
    const { post, gw } = await startGateway({ script });
    const cases: [object, string][] = [
      [{ messages: "hello" }, "invalid request: 'messages' must be an array"],
      [{ messages: { role: "user", content: "hello" } }, "invalid request: 'messages' must be an array"],
      [{ messages: [user("hello"), "hi"] }, "invalid request: 'messages[1]' must be an object"],
      [{ messages: [user("hello")], tools: { type: "function" } }, "invalid request: 'tools' must be an array"],
    ];
    for (const [body, message] of cases) {
      const r = await post(body);
      expect(r.status).toBe(400);
      expect(r.text).toBe(`{"error": {"message": "${message}"}}`);
    }
    expect(gw.recorder.requests).toHaveLength(0);
  });

  it("odd but well-formed bodies are served: non-string content, odd roles, odd tools entries, falsy tools", async () => {
    const { post } = await startGateway({ script });
    const bodies = [
      { messages: [{ role: "user", content: 42 }, { role: 7 }, assistant({ k: [1, 2] })] },
      { messages: [user("hello")], tools: [1, "x", { function: "y" }, { function: { name: 3 } }] },
      { messages: [user("hello")], tools: {} },
      { messages: [user("hello")], stop: [1, null], stream_options: "yes", stream: false, model: null },
    ];
    for (const b of bodies) expect((await post(b)).status).toBe(200);
    expect(messageOf(await post(bodies[1] as object)).get("content")).toBe("hi");
  });

  it("a body over the limit is a 413 (declared or streamed), and the gateway keeps serving", async () => {
    const { post, gw } = await startGateway({ script, maxBodyBytes: 1024 });
    const big = JSON.stringify({ messages: [user("x".repeat(5000))] });
    const r = await post(big);
    expect(r.status).toBe(413);
    expect(r.text).toBe('{"error": {"message": "request body too large (limit 1024 bytes)"}}');

    // Chunked upload without a Content-Length: cut off once it passes the limit.
    const chunk = "x".repeat(500);
    const chunked = `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n${`1f4\r\n${chunk}\r\n`.repeat(10)}0\r\n\r\n`;
    const out = await raw(gw.address.port, chunked, { waitMs: 2000 });
    expect(out).toMatch(/^HTTP\/1\.1 413 /);
    expect(out.toLowerCase()).toContain("connection: close");
    expect((await post(healthy)).status).toBe(200);
    expect(gw.recorder.attempts.map((a) => a.outcome).slice(-1)).toEqual(["served"]);
  });

  it("the default limit is 8 MiB", async () => {
    const { gw } = await startGateway({ script });
    const head = `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${8 * 1024 * 1024 + 1}\r\n\r\n{`;
    const out = await raw(gw.address.port, head, { waitMs: 2000 });
    expect(out).toMatch(/^HTTP\/1\.1 413 /);
    expect(out).toContain("limit 8388608 bytes");
  });

  it("clients that vanish mid-request or send garbage do not disturb other clients", async () => {
    const { post, gw } = await startGateway({ script });
    const port = gw.address.port;
    // Headers promise 1000 bytes, 10 arrive, then the client disappears.
    await raw(port, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{\"messages", { destroyAfterWrite: true });
    // Sends a request and leaves before the answer.
    await raw(port, `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}`, { destroyAfterWrite: true });
    // Not HTTP at all.
    const garbage = await raw(port, "\x00\x01 this is not http\r\n\r\n", { end: true });
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    // Half a request line, then close.
    await raw(port, "POS", { end: true });
    const results = await Promise.all(Array.from({ length: 5 }, () => post(healthy)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
  });
});
