/**
 * Who a request is from (gateway/identity.ts): a tagged URL carries the token the gateway issued
 * with it, and only that token makes a request the tag's. A run's gateway refuses every other
 * request before it is recorded, so forged traffic moves no worker's figures; a standalone
 * gateway refuses only a wrong token for a tag it issued.
 */
import { afterEach, describe, expect, it } from "vitest";
import { createGateway, type Gateway, type IdentityPolicy } from "../../orchestrator/gateway/index.ts";
import { routeOf } from "../../orchestrator/gateway/route.ts";

const script = { scenarios: [{ match: "hello", turns: [{ content: "hi" }] }] };
const running: Gateway[] = [];
afterEach(async () => {
  for (const g of running.splice(0)) await g.stop();
});

async function gateway(identity?: IdentityPolicy): Promise<Gateway> {
  const gw = createGateway({ script, ...(identity ? { identity } : {}) });
  running.push(gw);
  await gw.start();
  return gw;
}

const ask = (base: string) =>
  fetch(`${base}/chat/completions`, { method: "POST", body: JSON.stringify({ model: "m", messages: [{ role: "user", content: "hello" }] }) });

describe("request identity", () => {
  it("a tagged URL carries 128 random bits, the same for the tag every time, different per tag and per gateway", async () => {
    const one = await gateway();
    const two = await gateway();
    const token = (url: string) => routeOf(new URL(url).pathname).token;
    expect(token(one.baseUrlFor("a"))).toMatch(/^[0-9a-f]{32}$/);
    expect(one.baseUrlFor("a")).toBe(one.baseUrlFor("a"));
    expect(token(one.baseUrlFor("a"))).not.toBe(token(one.baseUrlFor("b")));
    expect(token(one.baseUrlFor("a"))).not.toBe(token(two.baseUrlFor("a")));
    // A dot in the tag cannot be mistaken for the token's.
    expect(routeOf(new URL(one.baseUrlFor("x.y")).pathname).tag).toBe("x.y");
  });

  it("a run's gateway: the issued URL is served; a guessed token, an unknown tag and no tag are refused, recorded nowhere", async () => {
    const gw = await gateway({ required: true });
    const base = gw.baseUrlFor("vanilla__tool_use__w0");
    expect((await ask(base)).status).toBe(200);
    const port = gw.address.port;
    const forged = await ask(`http://127.0.0.1:${port}/t/vanilla__tool_use__w0.${"0".repeat(32)}/v1`);
    expect(forged.status).toBe(403);
    expect(((await forged.json()) as { error: { code: string } }).error.code).toBe("identity_refused");
    expect((await ask(`http://127.0.0.1:${port}/t/vanilla__tool_use__w0/v1`)).status).toBe(403);
    expect((await ask(`http://127.0.0.1:${port}/t/nobody__tool_use__w9.${"1".repeat(32)}/v1`)).status).toBe(403);
    expect((await ask(`http://127.0.0.1:${port}/v1`)).status).toBe(403);
    // The victim's figures are the one request it sent.
    expect(gw.recorder.servedUsageFor("vanilla__tool_use__w0").llm_calls).toBe(1);
    expect(gw.recorder.records().attempts).toHaveLength(1);
    expect(gw.refused.map((r) => [r.claimed, r.reason])).toEqual([
      ["vanilla__tool_use__w0", "wrong token"],
      ["vanilla__tool_use__w0", "wrong token"],
      ["nobody__tool_use__w9", "unknown identity"],
      ["", "no identity"],
    ]);
  });

  it("names the holder of a token sent with another tag: only it has that token", async () => {
    const gw = await gateway({ required: true });
    const own = new URL(gw.baseUrlFor("forger__tool_use__w1"));
    gw.baseUrlFor("vanilla__tool_use__w0");
    const forged = own.href.replace("forger__tool_use__w1.", "vanilla__tool_use__w0.");
    expect((await ask(forged)).status).toBe(403);
    expect(gw.refused.map((r) => [r.claimed, r.reason, r.heldBy])).toEqual([["vanilla__tool_use__w0", "wrong token", "forger__tool_use__w1"]]);
  });

  it("names the sender of a refused request when the transport knows it", async () => {
    const gw = await gateway({ required: true, senderOf: (socket) => `sender on ${socket.remotePort === undefined ? "?" : "a port"}` });
    expect((await ask(`http://127.0.0.1:${gw.address.port}/v1`)).status).toBe(403);
    expect(gw.refused[0]!.sender).toBe("sender on a port");
  });

  it("a standalone gateway still takes untagged requests and tags it never issued, but not a wrong token", async () => {
    const gw = await gateway();
    const port = gw.address.port;
    expect((await ask(`http://127.0.0.1:${port}/v1`)).status).toBe(200);
    expect((await ask(`http://127.0.0.1:${port}/t/free/v1`)).status).toBe(200);
    gw.baseUrlFor("issued");
    expect((await ask(`http://127.0.0.1:${port}/t/issued.${"2".repeat(32)}/v1`)).status).toBe(403);
    expect(gw.recorder.records().requests.map((r) => r.tag)).toEqual(["", "free"]);
  });
});
