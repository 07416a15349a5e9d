import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { createGateway } from "../../orchestrator/gateway/index.ts";
import { at, CALCULATOR_SPEC, messageOf, postJson, startGateway, user } from "./helpers.ts";

const script = {
  scenarios: [
    {
      match: "17 * 23",
      turns: [{ tool_calls: [{ name: "calculator", arguments: { expr: "17 * 23 + 4" } }] }, { content: "395" }],
    },
  ],
};
const body = { messages: [user("What is 17 * 23 + 4?")], tools: [CALCULATOR_SPEC] };

describe("injected faults (gateway.md §9)", () => {
  it("answers attempt k with faults[k]: bodies, error types, Retry-After on 429/503 only", async () => {
    const { post, gw } = await startGateway({ script, faults: [429, 500, 400, 503], retryAfter: 3 });
    const r429 = await post(body);
    expect(r429.status).toBe(429);
    expect(r429.text).toBe('{"error": {"message": "injected 429", "type": "rate_limit_error"}}');
    expect(r429.headers.get("retry-after")).toBe("3");
    expect(r429.headers.get("content-type")).toBe("application/json");
    const r500 = await post(body);
    expect(r500.text).toBe('{"error": {"message": "injected 500", "type": "server_error"}}');
    expect(r500.headers.get("retry-after")).toBeNull();
    const r400 = await post(body);
    expect([r400.status, r400.text]).toEqual([400, '{"error": {"message": "injected 400", "type": "server_error"}}']);
    const r503 = await post(body);
    expect([r503.status, r503.headers.get("retry-after")]).toEqual([503, "3"]);

    // Past the list: served, and still turn 0, because a faulted attempt consumes no turn.
    const ok = await post(body);
    expect(ok.status).toBe(200);
    expect(at(messageOf(ok), "tool_calls.0.function.name")).toBe("calculator");

    const rec = gw.recorder.records();
    expect(rec.attempts.map((a) => [a.attempt, a.status, a.outcome])).toEqual([
      [0, 429, "faulted"],
      [1, 500, "faulted"],
      [2, 400, "faulted"],
      [3, 503, "faulted"],
      [4, 200, "served"],
    ]);
    expect(rec.requests).toHaveLength(1);
    expect(rec.requests[0]?.attempt).toBe(4);
    expect(rec.servedUsage.llm_calls).toBe(1);
    const times = rec.attempts.map((a) => a.at);
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    for (const a of rec.attempts) expect(a.endedAt).toBeGreaterThanOrEqual(a.at);
  });

  it("no Retry-After without retryAfter; a faulted body is discarded unparsed", async () => {
    const { post } = await startGateway({ script, faults: [429, 429] });
    const r = await post(body);
    expect(r.headers.get("retry-after")).toBeNull();
    const garbage = await post("{this is not json");
    expect(garbage.status).toBe(429);
  });

  it("numbers attempts across all clients and tags; invalid JSON is an attempt, a 404 is not", async () => {
    const { gw, post, base } = await startGateway({ script, faults: [200, 429, 200, 500] });
    const bad = await post("{nope");
    expect([bad.status, bad.text]).toEqual([400, '{"error": {"message": "invalid JSON"}}']);
    const notCompletions = await postJson(`${base}/embeddings`, body);
    expect(notCompletions.status).toBe(404);
    expect((await postJson(`${gw.baseUrlFor("a")}/chat/completions`, body)).status).toBe(429);
    expect((await postJson(`${gw.baseUrlFor("b")}/chat/completions`, body)).status).toBe(200);
    expect((await post(body)).status).toBe(500);
    const rec = gw.recorder.records();
    expect(rec.attempts.map((a) => [a.tag, a.outcome])).toEqual([
      ["", "rejected"],
      ["a", "faulted"],
      ["b", "served"],
      ["", "faulted"],
    ]);
    expect(rec.requests.map((r) => r.tag)).toEqual(["b"]);
  });
});

describe("stall (gateway.md §9)", () => {
  it("holds a non-faulted attempt before answering", async () => {
    const { post, gw } = await startGateway({ script, stallSeconds: 1, faults: [429] });
    // Faulted attempts are answered at once: the stall only holds attempts that would be served.
    const t0 = performance.now();
    expect((await post(body)).status).toBe(429);
    expect(performance.now() - t0).toBeLessThan(900);
    const t1 = performance.now();
    expect((await post(body)).status).toBe(200);
    expect(performance.now() - t1).toBeGreaterThanOrEqual(990);
    expect(gw.recorder.attempts[1]?.closedAt).toBeNull();
  });

  it("records when the client gave up, serves nothing, and stop() is prompt", async () => {
    const { gw, base } = await startGateway({ script, stallSeconds: 20 });
    const client = new AbortController();
    const t0 = performance.now();
    const request = fetch(`${base}/chat/completions`, { method: "POST", body: JSON.stringify(body), signal: client.signal });
    const rejected = expect(request).rejects.toThrow();
    while (gw.recorder.lifetimeAttempts === 0) await new Promise((r) => setTimeout(r, 5));
    await new Promise((r) => setTimeout(r, 300));
    client.abort();
    await rejected;
    expect(performance.now() - t0).toBeLessThan(5000);
    // The close reaches the gateway asynchronously.
    for (let i = 0; i < 100 && gw.recorder.attempts[0]?.closedAt == null; i++) await new Promise((r) => setTimeout(r, 10));
    const [a] = gw.recorder.attempts;
    expect(a?.outcome).toBe("aborted");
    expect(a?.status).toBeNull();
    const hold = (a?.closedAt ?? 0) - (a?.at ?? 0);
    expect(hold).toBeGreaterThanOrEqual(295);
    expect(hold).toBeLessThan(3000);
    expect(gw.recorder.requests).toHaveLength(0);

    // A second client still hangs in the stall while we stop.
    const pending = fetch(`${base}/chat/completions`, { method: "POST", body: JSON.stringify(body) }).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 50));
    const s0 = performance.now();
    await gw.stop();
    expect(performance.now() - s0).toBeLessThan(200);
    expect(await pending).toBeInstanceOf(Error);
  });

  it("stop() is prompt with idle keep-alive connections open", async () => {
    const { gw, post } = await startGateway({ script });
    await Promise.all(Array.from({ length: 8 }, () => post(body)));
    const s0 = performance.now();
    await gw.stop();
    expect(performance.now() - s0).toBeLessThan(200);
  });

  it("a stalled gateway does not keep its process alive after the client gave up", async () => {
    const child = fileURLToPath(new URL("./stall-child.ts", import.meta.url));
    const t0 = performance.now();
    const out = await new Promise<string>((resolve, reject) => {
      execFile(process.execPath, [child], { cwd: path.dirname(child), timeout: 15_000 }, (err, stdout, stderr) =>
        err ? reject(new Error(`${err.message}\n${stderr}`)) : resolve(stdout),
      );
    });
    // The gateway stalls 30 s; the child exits as soon as its client gives up and it stops the gateway.
    expect(performance.now() - t0).toBeLessThan(10_000);
    expect(JSON.parse(out)).toMatchObject({ outcome: "aborted", requests: 0 });
  });
});

describe("option checks", () => {
  it("rejects nonsense options up front", () => {
    expect(() => createGateway({ script, faults: [42] })).toThrow(/not an HTTP status/);
    expect(() => createGateway({ script, stallSeconds: -1 })).toThrow(/stallSeconds/);
    expect(() => createGateway({ script, retryAfter: 1.5 })).toThrow(/retryAfter/);
  });
});
