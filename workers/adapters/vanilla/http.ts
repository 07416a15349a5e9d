/**
 * The baseline's HTTP client: one POST over `node:http` (or `node:https`) with a keep-alive agent.
 * Not `fetch`: Node loads its fetch client (undici) on first use, ~30–80 ms of CPU in every worker
 * that a hand-rolled baseline does not need (issue 23 allows any stdlib transport). What the
 * baseline does on the wire and in its errors is unchanged from its `fetch` days:
 *
 * - the body goes as given, byte for byte, with `Content-Type`, `Authorization` and its length;
 *   no compression is asked for (fetch asked for gzip and undid it; a reply must be read as sent);
 * - the request timeout is one `AbortSignal.timeout` over the whole exchange, reply body
 *   included, and rejects with the signal's reason (`TimeoutError: The operation was aborted due
 *   to timeout`), as fetch did;
 * - a failure to reach the gateway or to read its reply rejects with `TypeError: fetch failed`
 *   whose cause is the socket's own error (`connect ECONNREFUSED 127.0.0.1:2`, with its address
 *   and port), the shape fetch gave it: the item's error text and cause chain stay comparable
 *   with earlier runs, and the orchestrator tells a gateway fault from the adapter's by the
 *   endpoint the cause names (orchestrator/run/error-class.ts);
 * - no retries, no redirects followed (a 3xx is an HTTP error like any non-2xx).
 */
import type http from "node:http";

// Not `import … from "node:http"`: an ES module namespace of node:http reads every export, and its
// lazy WebSocket ones load undici — the very client this file avoids (~50 ms of CPU per worker).
const httpModule = process.getBuiltinModule("node:http");

/** What the baseline reads of a reply. */
export interface HttpReply {
  readonly status: number;
  readonly text: string;
}

/** One agent per protocol for the worker's life: the gateway connection is reused across calls, as fetch's pool did. */
const agents = new Map<string, http.Agent>();

function clientFor(protocol: string): { request: typeof http.request; agent: http.Agent } {
  // node:https (and TLS with it) is loaded only for an https base URL: a loopback gateway needs neither.
  const lib = protocol === "https:" ? process.getBuiltinModule("node:https") : httpModule;
  let agent = agents.get(protocol);
  if (!agent) agents.set(protocol, (agent = new lib.Agent({ keepAlive: true })));
  return { request: lib.request, agent };
}

/** fetch's wording for any network failure, around the error that says where and why. */
function fetchFailed(cause: Error, remote: { address?: string; port?: number }): TypeError {
  // A hang-up carries no endpoint of its own; the socket's peer, when it had connected, is the one it hung up on.
  const named = cause as Error & { address?: unknown; socket?: unknown };
  if (named.address === undefined && named.socket === undefined && remote.address !== undefined) {
    Object.assign(cause, { socket: { remoteAddress: remote.address, remotePort: remote.port } });
  }
  return new TypeError("fetch failed", { cause });
}

/** POST `body` to `url`; resolves with any status, rejects only on timeout or a network failure. */
export function postJson(url: string, headers: Readonly<Record<string, string>>, body: string, timeoutMs: number): Promise<HttpReply> {
  const signal = AbortSignal.timeout(timeoutMs);
  const target = new URL(url);
  const payload = Buffer.from(body, "utf8");
  const { request, agent } = clientFor(target.protocol);
  return new Promise<HttpReply>((resolve, reject) => {
    const remote: { address?: string; port?: number } = {};
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      signal.removeEventListener("abort", onAbort);
      outcome();
    };
    const req = request(
      target,
      { method: "POST", agent, headers: { ...headers, "Content-Length": String(payload.length) } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () =>
          // fetch's `text()`: UTF-8, a leading BOM dropped, malformed bytes replaced.
          settle(() => resolve({ status: res.statusCode ?? 0, text: new TextDecoder().decode(Buffer.concat(chunks)) })),
        );
        res.on("error", (err) => settle(() => reject(fetchFailed(err, remote))));
        res.on("close", () => {
          if (!res.complete) settle(() => reject(fetchFailed(Object.assign(new Error("other side closed"), { code: "ECONNRESET" }), remote)));
        });
      },
    );
    const onAbort = () => {
      settle(() => reject(signal.reason));
      req.destroy();
    };
    signal.addEventListener("abort", onAbort, { once: true });
    req.on("socket", (socket) => {
      const note = () => {
        remote.address = socket.remoteAddress;
        remote.port = socket.remotePort;
      };
      if (socket.remoteAddress !== undefined) note();
      else socket.once("connect", note);
    });
    req.on("error", (err) => settle(() => reject(fetchFailed(err, remote))));
    req.end(payload);
  });
}
