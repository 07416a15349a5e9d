import net from "node:net";
import { describe, expect, it } from "vitest";
import { fetchRecords, type GatewayRecords } from "../../orchestrator/gateway/index.ts";
import { dumpsPy, type PyValue } from "@agentic-arena/py-semantics";
import { assistant, at, CALCULATOR_SPEC, messageOf, postJson, startGateway, user } from "./helpers.ts";

const script = {
  scenarios: [
    { match: "17 * 23", turns: [{ tool_calls: [{ name: "calculator", arguments: { expr: "17 * 23 + 4" } }] }, { content: "395" }] },
    { match: "hello", turns: [{ content: "hi" }] },
  ],
};

/** Records in a comparable plain form (PyValues through their Python JSON text). */
function comparable(r: GatewayRecords): unknown {
  const py = (v: PyValue) => dumpsPy(v);
  return {
    requests: r.requests.map((x) => [x.attempt, x.tag, py(x.body)]),
    attempts: r.attempts.map((a) => ({ ...a })),
    served: r.served,
    servedUsage: r.servedUsage,
    responseMessages: r.responseMessages.map((x) => [x.attempt, x.tag, py(x.message)]),
  };
}

function filterByTag(r: GatewayRecords, tag: string): GatewayRecords {
  const served = r.served.filter((x) => x.tag === tag);
  return {
    requests: r.requests.filter((x) => x.tag === tag),
    attempts: r.attempts.filter((x) => x.tag === tag),
    served,
    servedUsage: {
      prompt_tokens: served.reduce((n, x) => n + x.prompt_tokens, 0),
      completion_tokens: served.reduce((n, x) => n + x.completion_tokens, 0),
      llm_calls: served.length,
    },
    responseMessages: r.responseMessages.filter((x) => x.tag === tag),
  };
}

describe("recorder (gateway.md §10)", () => {
  it("records served bodies as parsed (int vs float, key order), usage per request and summed, messages as sent", async () => {
    const { post, gw } = await startGateway({ script, faults: [200, 503] });
    const raw = `{"model": "m", "temperature": 0.0, "seed": 7, "messages": [{"role": "user", "content": "What is 17 * 23 + 4?"}], "tools": [${dumpsPy(CALCULATOR_SPEC)}]}`;
    const r1 = await post(raw);
    expect((await post(raw)).status).toBe(503);
    const r2 = await post({ messages: [user("What is 17 * 23 + 4?"), assistant()] });

    const rec = gw.recorder.records();
    expect(rec.requests.map((r) => r.attempt)).toEqual([0, 2]);
    expect(dumpsPy(rec.requests[0]?.body as PyValue)).toBe(raw);
    const billed = (r: typeof r1) => [Number(at(r.json, "usage.prompt_tokens")), Number(at(r.json, "usage.completion_tokens"))];
    expect(rec.served.map((s) => [s.prompt_tokens, s.completion_tokens])).toEqual([billed(r1), billed(r2)]);
    expect(rec.servedUsage).toEqual({
      prompt_tokens: rec.served.reduce((a, s) => a + s.prompt_tokens, 0),
      completion_tokens: rec.served.reduce((a, s) => a + s.completion_tokens, 0),
      llm_calls: 2,
    });
    expect(rec.responseMessages.map((m) => dumpsPy(m.message))).toEqual([dumpsPy(messageOf(r1)), dumpsPy(messageOf(r2))]);
    expect(rec.attempts.map((a) => a.outcome)).toEqual(["served", "faulted", "served"]);
  });

  it("tags requests by base-URL prefix; filters and sums per tag", async () => {
    const { gw, post } = await startGateway({ script });
    const a = gw.baseUrlFor("item a/1");
    expect(a).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/t\/item%20a%2F1\.[0-9a-f]{32}\/v1$/);
    await postJson(`${a}/chat/completions`, { messages: [user("hello")] });
    await postJson(`${a}/chat/completions`, { messages: [user("hello"), assistant("hi")] });
    await postJson(`${gw.baseUrlFor("b")}/chat/completions`, { messages: [user("17 * 23")] });
    await post({ messages: [user("hello")] });
    // Models and health checks work under a tagged base URL too.
    expect((await (await fetch(`${a}/models`)).json()) as unknown).toEqual({ object: "list", data: [{ id: "mock-model", object: "model" }] });

    const all = gw.recorder.records();
    expect(all.requests.map((r) => r.tag)).toEqual(["item a/1", "item a/1", "b", ""]);
    const onlyA = gw.recorder.records("item a/1");
    expect(onlyA.servedUsage.llm_calls).toBe(2);
    expect(onlyA.attempts.every((x) => x.tag === "item a/1")).toBe(true);
    expect(onlyA.responseMessages).toHaveLength(2);
    expect(gw.recorder.records("").requests).toHaveLength(1);
    expect(gw.recorder.records("nobody").servedUsage).toEqual({ prompt_tokens: 0, completion_tokens: 0, llm_calls: 0 });
    // The running per-tag sum the harness reads around every leg agrees with the filtered record.
    for (const tag of ["item a/1", "b", "", "nobody"]) {
      expect(gw.recorder.servedUsageFor(tag)).toEqual(gw.recorder.records(tag).servedUsage);
    }
    // The per-tag index agrees with a filter of everything recorded, and a leg's mark picks up only what came after it.
    for (const tag of ["item a/1", "b", "", "nobody"]) {
      expect(comparable(gw.recorder.records(tag))).toEqual(comparable(filterByTag(all, tag)));
    }
    const mark = gw.recorder.servedCount("item a/1");
    expect(mark).toBe(2);
    await postJson(`${gw.baseUrlFor("b")}/chat/completions`, { messages: [user("17 * 23"), assistant()] });
    await postJson(`${a}/chat/completions`, { messages: [user("17 * 23")] });
    const since = gw.recorder.servedFrom("item a/1", mark);
    expect([since.requests, since.served, since.responseMessages].map((xs) => xs.map((x) => [x.attempt, x.tag]))).toEqual([
      [[5, "item a/1"]],
      [[5, "item a/1"]],
      [[5, "item a/1"]],
    ]);
    gw.recorder.clear();
    expect(gw.recorder.servedUsageFor("item a/1")).toEqual({ prompt_tokens: 0, completion_tokens: 0, llm_calls: 0 });
    expect([gw.recorder.servedCount("item a/1"), gw.recorder.records("item a/1").attempts.length]).toEqual([0, 0]);
  });

  it("serves the same records over the loopback endpoint, which is secret and never an attempt", async () => {
    const { gw, post } = await startGateway({ script, faults: [429] });
    await post({ messages: [user("hello")] });
    await post(`{"messages": [{"role": "user", "content": "hello", "n": [1, 1.0, 1e16]}]}`);
    await postJson(`${gw.baseUrlFor("x")}/chat/completions`, { messages: [user("17 * 23")] });
    const { recordsUrl } = gw.address;
    expect(recordsUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/__arena\/[0-9a-f]{32}\/records$/);

    const before = gw.recorder.attempts.length;
    const remote = await fetchRecords(recordsUrl);
    expect(comparable(remote)).toEqual(comparable(gw.recorder.records()));
    expect(dumpsPy(remote.requests[0]?.body as PyValue)).toContain('"n": [1, 1.0, 1e+16]');
    expect(comparable(await fetchRecords(recordsUrl, "x"))).toEqual(comparable(gw.recorder.records("x")));
    expect(gw.recorder.attempts.length).toBe(before);

    // Without the secret it is an ordinary GET; an adapter cannot reach the numbers it is checked against.
    const guess = await fetch(recordsUrl.replace(/[0-9a-f]{32}/, "0".repeat(32)));
    expect(await guess.text()).toBe('{"status": "ok"}');
    const viaTag = await fetch(`${gw.baseUrlFor("x")}${new URL(recordsUrl).pathname}`);
    expect(await viaTag.text()).toBe('{"status": "ok"}');
  });

  it("keeps records in arrival order when a slow upload is served after a later request", async () => {
    const { gw, post } = await startGateway({ script });
    const slowBody = JSON.stringify({ messages: [user("hello"), assistant("slow")] });
    const sock = net.connect(gw.address.port, "127.0.0.1");
    await new Promise((r) => sock.once("connect", r));
    sock.write(`POST /t/slow/v1/chat/completions HTTP/1.1\r\nHost: x\r\nContent-Length: ${slowBody.length}\r\n\r\n${slowBody.slice(0, 5)}`);
    await new Promise((r) => setTimeout(r, 50));
    await post({ messages: [user("hello")] });
    const answered = new Promise((r) => sock.once("data", r));
    sock.write(slowBody.slice(5));
    await answered;
    sock.destroy();
    const rec = gw.recorder.records();
    expect(rec.attempts.map((a) => a.tag)).toEqual(["slow", ""]);
    expect(rec.requests.map((r) => r.tag)).toEqual(["slow", ""]);
    expect(rec.served.map((r) => r.attempt)).toEqual([0, 1]);
    expect(rec.responseMessages.map((r) => r.attempt)).toEqual([0, 1]);
  });

  it("clear() forgets records but not the attempt numbering", async () => {
    const { gw, post } = await startGateway({ script, faults: [200, 429] });
    await post({ messages: [user("hello")] });
    gw.recorder.clear();
    expect(gw.recorder.records().attempts).toHaveLength(0);
    expect((await post({ messages: [user("hello")] })).status).toBe(429);
    expect(gw.recorder.attempts.map((a) => a.attempt)).toEqual([1]);
    expect(gw.recorder.lifetimeAttempts).toBe(2);
  });
});
