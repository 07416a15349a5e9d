/**
 * The live answerer: forwards what the pipeline accepted to the provider, with the real key, and
 * relays the provider's reply. Completions are recorded: a whole JSON reply is read, recorded,
 * then sent; an SSE stream is relayed chunk by chunk as it arrives and read on the way. The
 * provider's bytes reach the worker unchanged, except that a buffered reply has the real key
 * scrubbed out of it (providers echo the key in 401 messages; the worker must never see it).
 *
 * No timeout here: the adapter bounds each attempt by the run's `request_timeout_s` and closes
 * its connection when it gives up, which aborts the upstream request; a limit of our own could
 * only be shorter than the run's or pointless. (Node's fetch would impose 300 s on headers and
 * body, hence node:http.)
 *
 * Which headers cross is upstream-headers.ts; how a completion's reply is relayed and recorded is
 * upstream-relay.ts. This file forwards and keeps the connections.
 */
import http from "node:http";
import { REDACTED } from "../files/redact.ts";
import type { Answerer } from "./answer.ts";
import { errorBody, guarded, send } from "./http-util.ts";
import { underApiRoot } from "./route.ts";
import { requestHeaders, replyHeaders } from "./upstream-headers.ts";
import type { LiveAttempt, ProviderFault } from "./record-types.ts";
import { collect, markFault, proxyErrorBody, relayJson, relayStream, type RelayLink } from "./upstream-relay.ts";

export interface UpstreamOptions {
  /** The provider's base URL, e.g. `https://api.openai.com/v1`: a worker's path below `/v1` is appended to it. */
  readonly baseUrl: string;
  /** The real API key, sent upstream as `Authorization: Bearer <key>` and nowhere else. */
  readonly apiKey: string;
}

/** A provider base URL the proxy cannot forward to. */
export class UpstreamUrlError extends Error {
  override readonly name = "UpstreamUrlError";
  readonly baseUrl: string;
  constructor(baseUrl: string, why: string) {
    super(`provider base URL ${JSON.stringify(baseUrl)} ${why}`);
    this.baseUrl = baseUrl;
  }
}

function parseBase(baseUrl: string): URL {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    throw new UpstreamUrlError(baseUrl, "is not a URL");
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new UpstreamUrlError(baseUrl, "is not http(s)");
  return url;
}

/** Connection errors that mean the provider dropped a connection it had: the rest never connected. */
const RESET_CODES = new Set(["ECONNRESET", "EPIPE", "ECONNABORTED"]);

function connectionFault(err: NodeJS.ErrnoException): ProviderFault {
  // Node says "socket hang up" (code ECONNRESET) when the server closed before any response.
  return err.code !== undefined && RESET_CODES.has(err.code) ? "reset" : "unreachable";
}

/**
 * node:https, loaded when a live run first needs it: it brings TLS, whose load reads the root
 * certificates (+10 to +34 ms of CPU here; docs/performance.md), and a mock run, or a live one on
 * plain http, never needs it.
 */
function httpsModule(): typeof import("node:https") {
  return process.getBuiltinModule("node:https");
}

export function upstreamAnswerer(options: UpstreamOptions): Answerer {
  const base = parseBase(options.baseUrl);
  const key = options.apiKey;
  const agent = base.protocol === "https:" ? new (httpsModule().Agent)({ keepAlive: true }) : new http.Agent({ keepAlive: true });
  const inflight = new Set<http.ClientRequest>();
  let closing = false;

  function target(rest: string, query: string): URL {
    const u = new URL(base.href);
    u.pathname = base.pathname.replace(/\/+$/, "") + rest;
    if (query !== "") u.search = u.search === "" ? `?${query}` : `${u.search}&${query}`;
    return u;
  }

  const link: RelayLink = {
    // Buffered replies only: the whole key, wherever it appears, becomes the redaction marker.
    scrub: (bytes) => (key.length < 4 || !bytes.includes(key) ? bytes : Buffer.from(bytes.toString("latin1").split(key).join(REDACTED), "latin1")),
    closing: () => closing,
  };

  /**
   * Send `body` to `url`; `onReply` gets the provider's response, `onFailure` a connection that
   * failed before one (not after the gateway began closing). The request is destroyed when the
   * worker's connection closes before its response was complete: nobody waits for it any more.
   */
  function forward(
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: URL,
    body: Buffer,
    onReply: (reply: http.IncomingMessage) => void,
    onFailure: (message: string, fault: ProviderFault) => void,
    /** A completion's attempt: what the wire shows went wrong with it is noted on it. */
    attempt?: LiveAttempt,
  ): void {
    const lib = url.protocol === "https:" ? httpsModule() : http;
    const up = lib.request(url, { method: req.method, headers: requestHeaders(req.headers, key, body.length), agent }, (reply) => guarded(res, () => onReply(reply)));
    inflight.add(up);
    up.once("close", () => inflight.delete(up));
    up.on("error", (err: NodeJS.ErrnoException) => {
      if (closing || res.destroyed) return;
      guarded(res, () => {
        if (res.headersSent) {
          // Mid-stream: the reply was under way when the provider's connection broke.
          if (attempt) markFault(attempt, "incomplete");
          res.destroy();
        } else onFailure(`upstream unreachable: ${err.code ?? err.message}`, connectionFault(err));
      });
    });
    res.once("close", () => {
      if (res.writableFinished) return;
      // The worker hung up before the reply was complete: it waited its request timeout for the provider.
      if (attempt && !closing) markFault(attempt, "timeout");
      up.destroy();
    });
    up.end(body);
  }

  return {
    answer(c) {
      // The worker left while its body was read: nothing to forward it for.
      if (c.res.destroyed || c.attempt.outcome !== "pending") return;
      const rest = underApiRoot(c.route.below);
      if (rest === undefined) {
        c.finish("rejected", 404, errorBody(`unhandled path ${c.route.url}`));
        return;
      }
      forward(
        c.req,
        c.res,
        target(rest, c.route.query),
        c.raw,
        (reply) => {
          if (c.attempt.outcome !== "pending") {
            reply.destroy();
            return;
          }
          const status = reply.statusCode ?? 502;
          const ok = status >= 200 && status < 300;
          if (ok && /^text\/event-stream\b/i.test(String(reply.headers["content-type"] ?? ""))) relayStream(c, reply, status, link);
          else relayJson(c, reply, status, ok, link);
        },
        (message, fault) => {
          markFault(c.attempt, fault);
          c.finish("faulted", 502, proxyErrorBody(message, "upstream_unreachable"));
        },
        c.attempt,
      );
    },
    other(req, res, route) {
      req.resume();
      const rest = underApiRoot(route.below);
      // Only reads go upstream unrecorded (GET /models): anything that can spend tokens is a
      // completion, and recorded. Other requests get the mock's answers.
      if (req.method !== "GET" || rest === undefined) {
        if (req.method === "POST" || req.method === "GET") send(res, 404, errorBody(`unhandled path ${route.url}`));
        else send(res, 501, errorBody(`unsupported method ${req.method ?? ""}`));
        return;
      }
      const fail = (message: string) => send(res, 502, proxyErrorBody(message, "upstream_unreachable"));
      forward(req, res, target(rest, route.query), Buffer.alloc(0), (reply) => {
        const status = reply.statusCode ?? 502;
        collect(
          reply,
          (bytes) =>
            guarded(res, () => {
              if (res.destroyed) return;
              const out = link.scrub(bytes);
              res.writeHead(status, reply.statusMessage, replyHeaders(reply.headers, out.length));
              res.end(out);
            }),
          () => fail("upstream closed the connection before its reply was complete"),
          link.closing,
        );
      }, fail);
    },
    close() {
      closing = true;
      for (const up of inflight) up.destroy();
      inflight.clear();
      agent.destroy();
    },
  };
}
