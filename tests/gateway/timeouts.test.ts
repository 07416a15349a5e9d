/**
 * Slow clients time out (README "Bad input"): a client that stops sending its headers or its body
 * gets a 408 and its connection closed, while deliberate stalls and idle keep-alive connections
 * are left alone. Deadlines are tenths of a second here so the suite stays fast.
 */
import net from "node:net";
import { describe, expect, it } from "vitest";
import { resolveOptions } from "../../orchestrator/gateway/options.ts";
import { dumpsPy } from "@agentic-arena/py-semantics";
import { startGateway, user } from "./helpers.ts";

const script = { scenarios: [{ match: "hello", turns: [{ content: "hi" }] }] };
const fast = { script, headersTimeoutSeconds: 0.1, requestTimeoutSeconds: 0.2 };

/** Connect, write `data`, and collect what comes back until the gateway closes (or `waitMs`). */
function until(port: number, data: string, waitMs = 3000): Promise<{ out: string; closedAfterMs: number | null }> {
  return new Promise((resolve) => {
    const s = net.connect(port, "127.0.0.1");
    const t0 = performance.now();
    let out = "";
    let settled = false;
    const done = (closed: boolean) => {
      if (settled) return;
      settled = true;
      resolve({ out, closedAfterMs: closed ? performance.now() - t0 : null });
    };
    s.on("data", (d) => (out += d.toString("latin1")));
    s.on("close", () => done(true));
    s.on("error", () => done(true));
    s.on("connect", () => s.write(data));
    setTimeout(() => (done(false), s.destroy()), waitMs);
  });
}

describe("slow clients (headersTimeoutSeconds, requestTimeoutSeconds)", () => {
  it("a client that sends headers and then stalls the body gets 408 and is closed; the attempt is rejected", async () => {
    const { gw, post } = await startGateway(fast);
    const { out, closedAfterMs } = await until(gw.address.port, 'POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n{"messages');
    expect(out).toMatch(/^HTTP\/1\.1 408 /);
    expect(out).toContain('{"error": {"message": "request timeout"}}');
    expect(out.toLowerCase()).toContain("connection: close");
    expect(closedAfterMs).not.toBeNull();
    expect(closedAfterMs).toBeGreaterThanOrEqual(190);
    expect(closedAfterMs).toBeLessThan(1500);
    const [a] = gw.recorder.attempts;
    expect(a).toMatchObject({ outcome: "rejected", status: 408, closedAt: null });
    expect(gw.recorder.requests).toHaveLength(0);
    // Everyone else is still served.
    expect((await post({ messages: [user("hello")] })).status).toBe(200);
  });

  it("a client that stalls in its headers gets 408 and is closed, and is no attempt", async () => {
    const { gw } = await startGateway(fast);
    const { out, closedAfterMs } = await until(gw.address.port, "POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\n");
    expect(out).toMatch(/^HTTP\/1\.1 408 /);
    expect(closedAfterMs).toBeLessThan(1500);
    // A connection that never sends a byte is closed too.
    const silent = await until(gw.address.port, "");
    expect(silent.closedAfterMs).not.toBeNull();
    expect(silent.closedAfterMs).toBeLessThan(1500);
    expect(gw.recorder.lifetimeAttempts).toBe(0);
  });

  it("a deliberate stall holding a large body unread is not cut by the request deadline", async () => {
    // 4 MB fills the socket buffers, so the body is still arriving when the stall ends.
    const { gw, post } = await startGateway({ ...fast, requestTimeoutSeconds: 0.5, stallSeconds: 1 });
    const big = dumpsPy({ messages: [user(`hello ${"x".repeat(4_000_000)}`)] });
    expect((await post(big)).status).toBe(200);
    expect(gw.recorder.attempts.map((a) => a.outcome)).toEqual(["served"]);
  });

  it("an idle keep-alive connection outlives the headers deadline and serves its next request", async () => {
    const { gw } = await startGateway(fast);
    const body = dumpsPy({ messages: [user("hello")] });
    const request = `POST /v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\n\r\n${body}`;
    const s = net.connect(gw.address.port, "127.0.0.1");
    let out = "";
    s.on("data", (d) => (out += d.toString("latin1")));
    await new Promise((r) => s.once("connect", r));
    s.write(request);
    while (!out.includes('"hi"')) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 500));
    s.write(request);
    while ((out.match(/HTTP\/1\.1 200 /g) ?? []).length < 2 && !s.destroyed) await new Promise((r) => setTimeout(r, 5));
    s.destroy();
    expect(out.match(/HTTP\/1\.1 \d+ /g)).toEqual(["HTTP/1.1 200 ", "HTTP/1.1 200 "]);
  });

  it("defaults to 30 s for headers and 120 s for the request, plus any stall", () => {
    expect(resolveOptions({ script })).toMatchObject({ headersTimeoutMs: 30_000, requestTimeoutMs: 120_000 });
    expect(resolveOptions({ script, stallSeconds: 5 })).toMatchObject({ requestTimeoutMs: 125_000 });
    expect(resolveOptions({ script, requestTimeoutSeconds: 0, stallSeconds: 5 })).toMatchObject({ requestTimeoutMs: 0 });
    expect(() => resolveOptions({ script, headersTimeoutSeconds: 10, requestTimeoutSeconds: 5 })).toThrow(/must not exceed/);
    expect(() => resolveOptions({ script, requestTimeoutSeconds: -1 })).toThrow(/requestTimeoutSeconds/);
  });
});
