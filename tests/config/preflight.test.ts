/**
 * The live preflight against real loopback servers: one GET /models (or, where a server lacks
 * it, one POST /chat/completions) classifies the provider before any item runs, and the reason
 * never carries the key — not even when the provider echoes it back.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { DEFAULTS, type ArenaConfig } from "../../orchestrator/config/arena-config.ts";
import { PreflightError, preflightLive, type PreflightKind } from "../../orchestrator/config/preflight.ts";
import { closedBaseUrl } from "../support/closed-port.ts";

const KEY = "sk-live-0123456789abcdefghijklmn";

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly authorization: string | undefined;
  readonly body: string;
}
type Reply = { status: number; body?: unknown } | "hang" | "reset";

const servers: http.Server[] = [];
afterEach(async () => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    await new Promise((resolve) => s.close(resolve));
  }
});

/** A loopback server answering each path from `routes`; everything else 404. */
async function provider(routes: Record<string, Reply>): Promise<{ base: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      seen.push({ method: req.method ?? "", url: req.url ?? "", authorization: req.headers.authorization, body });
      const reply = routes[`${req.method} ${req.url}`] ?? { status: 404, body: { error: { message: "Not Found" } } };
      if (reply === "hang") return;
      if (reply === "reset") return void req.socket.destroy();
      res.writeHead(reply.status, { "content-type": typeof reply.body === "string" ? "text/html" : "application/json" });
      res.end(typeof reply.body === "string" ? reply.body : JSON.stringify(reply.body ?? {}));
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, seen };
}

const configFor = (baseUrl: string, model = "gpt-4.1-mini"): ArenaConfig => ({ ...DEFAULTS, mode: "live", apiKey: KEY, baseUrl, model });
const models = (...ids: string[]) => ({ status: 200, body: { object: "list", data: ids.map((id) => ({ id, object: "model" })) } });
const chatOk = { status: 200, body: { choices: [{ index: 0, message: { role: "assistant", content: "p" } }] } };

async function refusal(config: ArenaConfig, options = {}): Promise<PreflightError> {
  const err = await preflightLive(config, { timeoutMs: 2_000, ...options }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(PreflightError);
  const e = err as PreflightError;
  expect(e.message).not.toContain(KEY);
  expect(e.message).not.toContain("\n");
  return e;
}

function expectKind(err: PreflightError, kind: PreflightKind, status?: number) {
  expect(err.kind).toBe(kind);
  expect(err.status).toBe(status);
}

describe("preflightLive", () => {
  it("passes when GET /models lists the model, sending the key as a bearer token", async () => {
    const p = await provider({ "GET /v1/models": models("gpt-4o", "gpt-4.1-mini") });
    await expect(preflightLive(configFor(p.base), { timeoutMs: 2_000 })).resolves.toEqual({ checkedBy: "models", listedModels: 2 });
    expect(p.seen).toEqual([{ method: "GET", url: "/v1/models", authorization: `Bearer ${KEY}`, body: "" }]);
  });

  it("accepts Google's `models/<id>` spelling of the listed id", async () => {
    const p = await provider({ "GET /v1/models": models("models/gemini-2.0-flash") });
    await expect(preflightLive(configFor(p.base, "gemini-2.0-flash"), { timeoutMs: 2_000 })).resolves.toMatchObject({ checkedBy: "models" });
  });

  it("names an unknown model, how many the provider lists, and the listed model it is nearest", async () => {
    const p = await provider({ "GET /v1/models": models("gpt-4o", "gpt-4.1-mini", "o3") });
    const err = await refusal(configFor(p.base, "gpt-4.1-mni"));
    expectKind(err, "unknown_model", 200);
    expect(err.message).toBe(`unknown model 'gpt-4.1-mni' at ${new URL(p.base).host} (the provider lists 3 models; did you mean 'gpt-4.1-mini'?)`);
    // Nothing near: no guess (a far one misleads more than none).
    const far = await refusal(configFor(p.base, "claude-sonnet-4"));
    expect(far.message).toBe(`unknown model 'claude-sonnet-4' at ${new URL(p.base).host} (the provider lists 3 models)`);
  });

  it.each([401, 403])("reports a rejected key on HTTP %i", async (status) => {
    const p = await provider({ "GET /v1/models": { status, body: { error: { message: `Incorrect API key provided: ${KEY}` } } } });
    const err = await refusal(configFor(p.base));
    expectKind(err, "rejected_key", status);
    expect(err.message).toBe(`provider rejected the API key (HTTP ${status})`);
  });

  it("falls back to one minimal chat completion when /models is missing (404)", async () => {
    const p = await provider({ "POST /v1/chat/completions": chatOk });
    await expect(preflightLive(configFor(p.base), { timeoutMs: 2_000 })).resolves.toEqual({ checkedBy: "chat" });
    expect(p.seen.map((s) => `${s.method} ${s.url}`)).toEqual(["GET /v1/models", "POST /v1/chat/completions"]);
    expect(JSON.parse(p.seen[1]!.body)).toEqual({ model: "gpt-4.1-mini", messages: [{ role: "user", content: "ping" }], max_tokens: 1 });
    expect(p.seen[1]!.authorization).toBe(`Bearer ${KEY}`);
  });

  it("falls back too when /models answers an empty list (a proxy with wildcard routes)", async () => {
    const p = await provider({ "GET /v1/models": models(), "POST /v1/chat/completions": chatOk });
    await expect(preflightLive(configFor(p.base), { timeoutMs: 2_000 })).resolves.toEqual({ checkedBy: "chat" });
  });

  it.each([
    [405, 404, { error: { message: "The model `nope` does not exist or you do not have access to it.", code: "model_not_found" } }],
    [404, 400, { error: { message: "invalid model ID nope" } }],
  ])("after /models %i, a chat %i naming the model is an unknown model", async (modelsStatus, chatStatus, body) => {
    const p = await provider({ "GET /v1/models": { status: modelsStatus }, "POST /v1/chat/completions": { status: chatStatus, body } });
    const err = await refusal(configFor(p.base, "nope"));
    expectKind(err, "unknown_model", chatStatus);
    expect(err.message).toMatch(new RegExp(`^unknown model 'nope' at 127\\.0\\.0\\.1:\\d+ \\(HTTP ${chatStatus}: `));
  });

  it("a chat 404 that does not name the model means there is no API at that URL", async () => {
    const p = await provider({});
    const err = await refusal(configFor(p.base));
    expectKind(err, "no_api", 404);
    expect(err.message).toBe(`no OpenAI-compatible API at ${p.base}: /models and /chat/completions answer HTTP 404 (base URLs usually end in /v1)`);
  });

  it("a chat 401 after a missing /models is a rejected key", async () => {
    const p = await provider({ "POST /v1/chat/completions": { status: 401 } });
    expectKind(await refusal(configFor(p.base)), "rejected_key", 401);
  });

  it("a 200 that is not an OpenAI-compatible reply (an HTML page) is refused", async () => {
    const p = await provider({ "GET /v1/models": { status: 200, body: "<html>login</html>" }, "POST /v1/chat/completions": { status: 200, body: "<html>login</html>" } });
    const err = await refusal(configFor(p.base));
    expectKind(err, "no_api", 200);
    expect(err.message).toContain("without a 'choices' list: <html>login</html>");
  });

  it("any other status is reported with the provider's words, key and key-shaped strings redacted", async () => {
    const other = `sk-proj-${"Z".repeat(24)}`;
    const p = await provider({ "GET /v1/models": { status: 500, body: { error: { message: `upstream said ${KEY} and ${other} are bad` } } } });
    const err = await refusal(configFor(p.base));
    expectKind(err, "http_status", 500);
    expect(err.message).toBe(`provider answered HTTP 500 to GET ${p.base}/models: upstream said [REDACTED] and [REDACTED] are bad`);
  });

  it("a closed port is unreachable, with the socket's reason", async () => {
    const base = await closedBaseUrl();
    const err = await refusal(configFor(base));
    expectKind(err, "unreachable", undefined);
    expect(err.message).toMatch(new RegExp(`^provider unreachable at ${base.replace(/\./g, "\\.")}: connect ECONNREFUSED`));
  });

  it("a provider that never answers is unreachable after the deadline", async () => {
    const p = await provider({ "GET /v1/models": "hang" });
    const err = await refusal(configFor(p.base), { timeoutMs: 200 });
    expect(err.message).toBe(`provider unreachable at ${p.base}: no answer within 0.2s`);
  });

  it("a connection reset mid-request is unreachable", async () => {
    const p = await provider({ "GET /v1/models": "reset" });
    const err = await refusal(configFor(p.base));
    expectKind(err, "unreachable", undefined);
    expect(err.message).toMatch(/^provider unreachable at .+: \S/);
  });

  it("a TLS failure (https to a plain-HTTP port) is unreachable", async () => {
    const p = await provider({});
    const err = await refusal(configFor(p.base.replace("http:", "https:")));
    expectKind(err, "unreachable", undefined);
    expect(err.message).toMatch(/^provider unreachable at https:\/\/127\.0\.0\.1:\d+\/v1: TLS failed: wrong version number \(ERR_SSL_WRONG_VERSION_NUMBER\)$/);
  });

  it("a port fetch refuses outright (9, the discard port) is unreachable, and says why", async () => {
    const err = await refusal(configFor("http://127.0.0.1:9/v1"));
    expect(err.message).toBe("provider unreachable at http://127.0.0.1:9/v1: fetch refuses to connect to port 9 (a blocked port in the Fetch standard)");
  });

  it("a name that does not resolve is unreachable (fetch's error as undici throws it, injected)", async () => {
    const dns = Object.assign(new Error("getaddrinfo ENOTFOUND api.example.invalid"), { code: "ENOTFOUND" });
    const fetch = (async () => {
      throw new TypeError("fetch failed", { cause: dns });
    }) as typeof globalThis.fetch;
    const err = await refusal(configFor("https://api.example.invalid/v1"), { fetch });
    expect(err.message).toBe("provider unreachable at https://api.example.invalid/v1: getaddrinfo ENOTFOUND api.example.invalid");
  });
});

describe("preflightLive honours Retry-After, bounded", () => {
  /** GET /models answers `busy` (status, Retry-After) to its first `times` requests, then lists the model. */
  async function busyProvider(times: number, busy: { status: number; retryAfter: string }) {
    let n = 0;
    const server = http.createServer((req, res) => {
      req.resume();
      req.on("end", () => {
        if (n++ < times) {
          res.writeHead(busy.status, { "content-type": "application/json", "retry-after": busy.retryAfter });
          return void res.end(JSON.stringify({ error: { message: "slow down" } }));
        }
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify(models("gpt-4.1-mini").body));
      });
    });
    servers.push(server);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return { base: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests: () => n };
  }
  const waits: number[] = [];
  const sleep = async (ms: number) => void waits.push(ms);
  afterEach(() => void waits.splice(0));

  it("a 429 asking for 3 s is waited out (3 s, on the injected clock), then the run may start", async () => {
    const p = await busyProvider(1, { status: 429, retryAfter: "3" });
    await expect(preflightLive(configFor(p.base), { timeoutMs: 2_000, sleep })).resolves.toEqual({ checkedBy: "models", listedModels: 1 });
    expect([waits, p.requests()]).toEqual([[3_000], 2]);
  });

  it("a 503 asking for longer than the bound is not waited for: the status is reported with what it asked", async () => {
    const p = await busyProvider(1, { status: 503, retryAfter: "600" });
    const err = await refusal(configFor(p.base), { sleep });
    expectKind(err, "http_status", 503);
    expect(err.message).toBe(`provider answered HTTP 503 to GET ${p.base}/models: slow down (it asked to retry after 600 s; the preflight waits at most 10 s)`);
    expect(waits).toEqual([]);
  });

  it("waits at most twice, then reports the status", async () => {
    const p = await busyProvider(5, { status: 429, retryAfter: "1" });
    const err = await refusal(configFor(p.base), { sleep });
    expectKind(err, "http_status", 429);
    expect(err.message).toContain("(still, after waiting out Retry-After 2 time(s))");
    expect([waits, p.requests()]).toEqual([[1_000, 1_000], 3]);
  });
});
