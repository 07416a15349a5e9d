/**
 * The sandbox bridge seen from the orchestrator's side, without bwrap: a test dials a worker's
 * Unix socket as bridge-preload.cjs does inside the sandbox. A connection for a gateway of this
 * process is handed to it (one crossing of the orchestrator, not two), one for any other port is
 * forwarded over TCP, and either way the gateway can name the worker it came from. A handed-over
 * connection is still an ordinary HTTP connection: keep-alive, streamed replies, the headers
 * deadline, and in live mode a worker's hang-up aborting the provider's request.
 */
import http from "node:http";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { dumpsPy } from "@agentic-arena/py-semantics";
import { createGateway, createProxy, mintWorkerKey, type Gateway } from "../../orchestrator/gateway/index.ts";
import { inProcessGateway, registerInProcess } from "../../orchestrator/gateway/in-process.ts";
import { acquireRoutes, bridgedSender, releaseRoutes, type Bridge } from "../../orchestrator/supervisor/sandbox/bridge.ts";
import { fakeUpstream } from "../gateway/fake-upstream.ts";

const script = { scenarios: [{ match: "hello", turns: [{ content: "hi there" }] }] };
const SENDER = "vanilla/w7";

const cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const f of cleanup.splice(0).reverse()) await f();
});

function bridgeFor(port: number): Bridge {
  const bridge = acquireRoutes([port], SENDER);
  cleanup.push(() => releaseRoutes(bridge));
  return bridge;
}

async function started(g: Gateway): Promise<Gateway> {
  cleanup.push(() => g.stop());
  await g.start();
  return g;
}

function listening(server: net.Server): Promise<number> {
  cleanup.push(() => new Promise((r) => server.close(r)));
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as net.AddressInfo).port)));
}

interface Answer {
  readonly status: number;
  readonly body: string;
  readonly socket: net.Socket;
}

/** One HTTP request through the worker's bridge socket, with the gateway's own Host header, as a sealed worker sends it. */
function request(bridge: Bridge, path: string, body: unknown, agent?: http.Agent): Promise<Answer> {
  const route = bridge.routes[0]!;
  const text = dumpsPy(body as never);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        socketPath: route.socket,
        path,
        method: "POST",
        headers: { host: `127.0.0.1:${route.port}`, "content-type": "application/json", authorization: "Bearer k" },
        ...(agent ? { agent } : {}),
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8"), socket: req.socket as net.Socket }));
      },
    );
    req.on("error", reject);
    req.end(text);
  });
}

const pathOf = (baseUrl: string) => `${new URL(baseUrl).pathname}/chat/completions`;

describe("the sandbox bridge, orchestrator side", () => {
  it("hands a connection for a gateway of this process to it, and dials no TCP connection", async () => {
    let tcpConnections = 0;
    const plain = net.createServer((s) => {
      tcpConnections += 1;
      s.destroy();
    });
    const port = await listening(plain);
    const adopted: net.Socket[] = [];
    cleanup.push(registerInProcess(port, { adopt: (s) => adopted.push(s) }));
    const bridge = bridgeFor(port);
    const client = net.connect(bridge.routes[0]!.socket);
    cleanup.push(() => client.destroy());
    await new Promise((r) => client.once("connect", r));
    await new Promise((r) => setTimeout(r, 50));
    expect(adopted).toHaveLength(1);
    expect(tcpConnections).toBe(0);
    expect(bridgedSender(adopted[0]!)).toBe(SENDER);
  });

  it("names the sender of a refused request by the handed-over socket itself", async () => {
    const gw = await started(createGateway({ script, identity: { required: true, senderOf: bridgedSender } }));
    expect(inProcessGateway(gw.address.port)).toBeDefined();
    const bridge = bridgeFor(gw.address.port);
    const r = await request(bridge, "/v1/chat/completions", { messages: [{ role: "user", content: "hello" }] });
    expect(r.status).toBe(403);
    expect(gw.refused).toEqual([{ claimed: "", reason: "no identity", sender: SENDER }]);
    // Nothing was recorded for a refused request; the tag's holder is served through the same bridge.
    const served = await request(bridge, pathOf(gw.baseUrlFor("vanilla__w7")), { messages: [{ role: "user", content: "hello" }] });
    expect(served.status).toBe(200);
    expect(gw.recorder.servedUsageFor("vanilla__w7").llm_calls).toBe(1);
  });

  it("forwards a connection for a port no gateway of this process holds, and names its sender by the forwarded connection's port", async () => {
    const seen: (string | undefined)[] = [];
    const other = http.createServer((req, res) => {
      seen.push(bridgedSender(req.socket));
      req.resume();
      req.on("end", () => res.end("from another process"));
    });
    const port = await listening(other);
    expect(inProcessGateway(port)).toBeUndefined();
    const r = await request(bridgeFor(port), "/v1/models", {});
    expect([r.status, r.body]).toEqual([200, "from another process"]);
    expect(seen).toEqual([SENDER]);
  });

  it("a handed-over connection stays alive between requests and carries a streamed reply", async () => {
    const gw = await started(createGateway({ script }));
    const bridge = bridgeFor(gw.address.port);
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    cleanup.push(() => agent.destroy());
    const path = pathOf(gw.baseUrlFor("t"));
    const first = await request(bridge, path, { messages: [{ role: "user", content: "hello" }] }, agent);
    const second = await request(bridge, path, { messages: [{ role: "user", content: "hello" }], stream: true }, agent);
    expect([first.status, second.status]).toEqual([200, 200]);
    expect(second.socket).toBe(first.socket);
    expect(second.body).toContain("hi there");
    expect(second.body.trimEnd().endsWith("data: [DONE]")).toBe(true);
    expect(gw.recorder.records("t").attempts.map((a) => a.outcome)).toEqual(["served", "served"]);
  });

  it("a handed-over connection that stalls in its headers gets the gateway's 408 and is closed", async () => {
    const gw = await started(createGateway({ script, headersTimeoutSeconds: 0.2 }));
    const client = net.connect(bridgeFor(gw.address.port).routes[0]!.socket);
    cleanup.push(() => client.destroy());
    client.write("POST /v1/chat/completions HTTP/1.1\r\nHost: 127.0.0.1\r\n");
    let got = "";
    client.on("data", (c: Buffer) => (got += c.toString("utf8")));
    await new Promise((r) => client.once("close", r));
    expect(got.startsWith("HTTP/1.1 408")).toBe(true);
  });

  it("live: a worker hanging up on a handed-over connection aborts the provider's request", async () => {
    const up = await fakeUpstream();
    up.handle(() => {}); // a provider that never answers
    const workerKey = mintWorkerKey();
    const proxy = await started(createProxy({ upstreamBaseUrl: up.baseUrl, apiKey: "sk-real-0123456789abcdefABCDEF", workerKey }));
    const route = bridgeFor(proxy.address.port).routes[0]!;
    const req = http.request({
      socketPath: route.socket,
      path: pathOf(proxy.baseUrlFor("h")),
      method: "POST",
      headers: { host: `127.0.0.1:${route.port}`, "content-type": "application/json", authorization: `Bearer ${workerKey}` },
    });
    req.on("error", () => {});
    req.end("{}");
    const seen = await up.next();
    req.destroy();
    const gaveUp = await Promise.race([seen.closed.then(() => "closed"), new Promise((r) => setTimeout(() => r("still open"), 2000))]);
    expect(gaveUp).toBe("closed");
    const [attempt] = proxy.recorder.records("h").attempts;
    expect([attempt!.outcome, attempt!.closedAt !== null]).toEqual(["aborted", true]);
  });

  it("a stopped gateway is handed nothing more: the bridge dials its closed port and the worker's connection is closed", async () => {
    const gw = createGateway({ script });
    await gw.start();
    const port = gw.address.port;
    await gw.stop();
    expect(inProcessGateway(port)).toBeUndefined();
    const client = net.connect(bridgeFor(port).routes[0]!.socket);
    client.on("error", () => {});
    await new Promise((r) => client.once("close", r));
    expect(client.bytesRead).toBe(0);
  });
});
