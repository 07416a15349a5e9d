/**
 * `holdSeconds`: every answer leaves the gateway that long after its request was read, like a
 * provider's generation time. Held requests wait side by side (a hold is not a queue), a held reply
 * is an ordinary served attempt, and a client that leaves during the hold is an abort, not a fault.
 */
import { describe, expect, it } from "vitest";
import { resolveOptions } from "../../orchestrator/gateway/options.ts";
import { dumpsPy } from "@agentic-arena/py-semantics";
import { startGateway, user } from "./helpers.ts";

const script = { scenarios: [{ match: "hello", turns: [{ content: "hi" }] }] };

describe("holdSeconds", () => {
  it("holds every answer at least the hold, all of them at once, and records them as served", async () => {
    const { gw, post } = await startGateway({ script, holdSeconds: 0.3 });
    const t0 = performance.now();
    const replies = await Promise.all(Array.from({ length: 6 }, () => post({ messages: [user("hello")] })));
    const elapsed = performance.now() - t0;
    expect(replies.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200]);
    expect(elapsed).toBeGreaterThanOrEqual(290);
    // Six held one after another would take 1.8 s; held side by side they finish together.
    expect(elapsed).toBeLessThan(6 * 300);
    expect(gw.recorder.attempts.map((a) => a.outcome)).toEqual(Array(6).fill("served"));
    expect(gw.recorder.attempts.map((a) => a.providerFault)).toEqual(Array(6).fill(null));
    for (const a of gw.recorder.attempts) expect(a.endedAt! - a.at).toBeGreaterThanOrEqual(290);
  });

  it("a client that leaves during the hold aborts its attempt, which is no provider fault and no served request", async () => {
    const { gw, base } = await startGateway({ script, holdSeconds: 5 });
    const controller = new AbortController();
    const sent = fetch(`${base}/chat/completions`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: "Bearer mock-key" },
      body: dumpsPy({ messages: [user("hello")] }),
      signal: controller.signal,
    }).catch((err: unknown) => err);
    await new Promise((r) => setTimeout(r, 200));
    controller.abort();
    await sent;
    await new Promise((r) => setTimeout(r, 100));
    const [attempt] = gw.recorder.attempts;
    expect(attempt).toMatchObject({ outcome: "aborted" });
    expect(attempt!.providerFault ?? null).toBeNull();
    expect(gw.recorder.requests).toHaveLength(0);
  });

  it("refuses a negative or non-finite hold", () => {
    expect(() => resolveOptions({ script, holdSeconds: -1 })).toThrow(/holdSeconds must be a finite number >= 0, got -1/);
    expect(() => resolveOptions({ script, holdSeconds: Number.POSITIVE_INFINITY })).toThrow(/holdSeconds/);
    expect(resolveOptions({ script, holdSeconds: 0.5 }).holdMs).toBe(500);
  });
});
