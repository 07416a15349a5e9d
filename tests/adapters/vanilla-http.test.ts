/**
 * The baseline's transport is node:http (workers/adapters/vanilla/http.ts), and everything the
 * orchestrator or a record can see of it is what `fetch` gave: the body bytes, the request
 * timeout's error, and a network failure's text and cause chain — which classify the same way
 * (orchestrator/run/error-class.ts reads the endpoint and code the causes name). Each case runs
 * the same request both ways: the default transport, and the loop handed the platform's fetch.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { classifyAdapterError } from "../../orchestrator/run/error-class.ts";
import { causeChain } from "../../workers/cause-chain.ts";
import { chatCompletion, requestBody, type FetchLike } from "../../workers/adapters/vanilla/index.ts";
import { closedBaseUrl } from "../support/closed-port.ts";

const REPLY = { choices: [{ index: 0, message: { role: "assistant", content: "ok" } }], usage: { prompt_tokens: 5, completion_tokens: 1 } };
const servers: http.Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

type Seen = { body: Buffer; headers: http.IncomingHttpHeaders };

/** A loopback server whose handler decides per request; resolves its base URL. */
async function serve(handler: (req: http.IncomingMessage, res: http.ServerResponse, body: Buffer) => void, seen: Seen[] = []): Promise<string> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      seen.push({ body, headers: req.headers });
      handler(req, res, body);
    });
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

const config = (baseUrl: string, requestTimeoutS = 5) => ({ model: "m", baseUrl, apiKey: "sk-test", temperature: 0, requestTimeoutS, maxToolIterations: 4 });
const body = requestBody(config(""), [{ role: "user", content: "héllo ☃ \u2028" }], [{ type: "function", function: { name: "f", description: "d", parameters: { type: "object", properties: {} } } }] as never);
const WAYS: readonly [string, FetchLike | undefined][] = [
  ["node:http", undefined],
  ["fetch", fetch],
];

/** The same failure through node:http and through fetch. */
async function bothWays(baseUrl: string, timeoutS = 5) {
  const [viaHttp, viaFetch] = await Promise.all([failure(baseUrl, undefined, timeoutS), failure(baseUrl, fetch, timeoutS)]);
  return { viaHttp, viaFetch };
}

/** What a record and the orchestrator see of a failed call: its text, and how its causes classify against the gateway. */
async function failure(baseUrl: string, fetchImpl: FetchLike | undefined, timeoutS = 5) {
  const err = await chatCompletion(config(baseUrl, timeoutS), body, fetchImpl).then(
    () => undefined,
    (e: unknown) => e as Error,
  );
  expect(err).toBeInstanceOf(Error);
  const causes = causeChain(err);
  return { text: `${err!.name}: ${err!.message}`, causes, cls: classifyAdapterError(`${err!.name}: ${err!.message}`, causes, [baseUrl]) };
}

describe("vanilla over node:http: the wire and the failures fetch gave", () => {
  it.each(WAYS)("%s: the body goes byte for byte as JSON.stringify gives it, with its length, type and key", async (_, fetchImpl) => {
    const seen: Seen[] = [];
    const url = await serve((_req, res) => res.end(JSON.stringify(REPLY)), seen);
    const reply = await chatCompletion(config(url), body, fetchImpl);
    expect(reply).toMatchObject({ content: "ok", promptTokens: 5, completionTokens: 1 });
    expect(seen[0]!.body.equals(Buffer.from(JSON.stringify(body), "utf8"))).toBe(true);
    expect(seen[0]!.headers).toMatchObject({ "content-type": "application/json", authorization: "Bearer sk-test", "content-length": String(seen[0]!.body.length) });
  });

  it("node:http asks for no compression (a reply is read as sent) and reuses its connection", async () => {
    const seen: Seen[] = [];
    const ports: number[] = [];
    const url = await serve((req, res) => {
      ports.push(req.socket.remotePort!);
      res.end(JSON.stringify(REPLY));
    }, seen);
    await chatCompletion(config(url), body);
    await chatCompletion(config(url), body);
    expect(seen[0]!.headers["accept-encoding"]).toBeUndefined();
    expect(ports[1]).toBe(ports[0]);
  });

  it("a non-2xx reply is the same LlmHttpError both ways", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(503);
      res.end("busy");
    });
    const { viaHttp, viaFetch } = await bothWays(url);
    expect(viaHttp.text).toBe("LlmHttpError: LLM HTTP 503: busy");
    expect(viaHttp).toEqual(viaFetch);
  });

  it("a reply that never comes ends at the request timeout with fetch's TimeoutError, classified a timeout", async () => {
    const url = await serve(() => {});
    const started = performance.now();
    const { viaHttp, viaFetch } = await bothWays(url, 0.3);
    expect(performance.now() - started).toBeLessThan(3000);
    expect(viaHttp.text).toBe("TimeoutError: The operation was aborted due to timeout");
    expect(viaHttp).toEqual(viaFetch);
    expect(viaHttp.cls).toBe("timeout");
  });

  it("the timeout covers the reply's body too", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-length": "1000" });
      res.write("{");
    });
    const { viaHttp, viaFetch } = await bothWays(url, 0.3);
    expect(viaHttp.text).toBe("TimeoutError: The operation was aborted due to timeout");
    expect(viaHttp.text).toBe(viaFetch.text);
  });

  it("a refused connection is `fetch failed` caused by the socket's error naming the gateway: infra both ways", async () => {
    const url = await closedBaseUrl();
    const { viaHttp, viaFetch } = await bothWays(url);
    expect(viaHttp.text).toBe("TypeError: fetch failed");
    expect(viaHttp.causes[1]).toMatchObject({ code: "ECONNREFUSED", address: "127.0.0.1", port: 2 });
    expect(viaHttp).toEqual(viaFetch);
    expect(viaHttp.cls).toBe("infra");
  });

  it("a gateway that hangs up mid-reply is `fetch failed` naming the gateway's port: infra both ways", async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { "content-length": "1000" });
      res.write("{", () => res.socket?.destroy());
    });
    const port = Number(new URL(url).port);
    const { viaHttp, viaFetch } = await bothWays(url);
    expect(viaHttp.text).toBe("TypeError: fetch failed");
    expect(viaHttp.causes[1]).toMatchObject({ address: "127.0.0.1", port });
    expect([viaHttp.cls, viaFetch.cls]).toEqual(["infra", "infra"]);
  });
});
