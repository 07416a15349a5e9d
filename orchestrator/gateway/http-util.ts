/**
 * Response writing shared by the gateway's handlers: JSON error bodies, the one `send` every reply
 * goes through, raw responses for connections Node has no response object for, and the deadline
 * check interval.
 */
import type http from "node:http";
import type { Socket } from "node:net";
import { dumpsPy } from "@agentic-arena/py-semantics";
import type { ResolvedOptions } from "./options.ts";

const SERVER_HEADER = "AgentArenaMock/0.1";
export const CLOSE = { Connection: "close" } as const;

export function errorBody(message: string): string {
  return dumpsPy({ error: { message } });
}

export const INVALID_JSON_BODY = errorBody("invalid JSON");
export const TIMEOUT_BODY = errorBody("request timeout");
const BAD_REQUEST_BODY = errorBody("bad request");

/** A bug must cost one request, not the gateway every other client is using. */
export function internalError(res: http.ServerResponse, e: unknown): void {
  if (!res.headersSent) send(res, 500, errorBody(`gateway error: ${e instanceof Error ? e.message : String(e)}`));
  else res.destroy();
}

/** Runs a deferred step (a body's end, a timer, an upstream event) with the handler's crash containment. */
export function guarded(res: http.ServerResponse, step: () => void): void {
  try {
    step();
  } catch (e) {
    internalError(res, e);
  }
}

export function send(res: http.ServerResponse, status: number, body: string, headers?: Readonly<Record<string, string>>, contentType = "application/json"): void {
  // The client may already be gone (gave up on a stall, or disconnected mid-request).
  if (res.destroyed || res.writableEnded) return;
  const h: Record<string, string | number> = {
    "Content-Type": contentType,
    "Content-Length": Buffer.byteLength(body),
    Server: SERVER_HEADER,
    ...headers,
  };
  res.writeHead(status, h);
  res.end(body);
}

/** A whole response as bytes, for a socket with no `ServerResponse` (a malformed or timed-out request). */
function rawResponse(status: number, reason: string, body: string): string {
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`;
}

/**
 * How often Node looks for connections past their headers or request deadline (its default is
 * 30 s, which would let a slow client overstay a 30 s deadline by as much again): a tenth of the
 * shorter deadline, between 10 ms and 1 s. The check walks only the connections mid-request.
 */
export function checkingIntervalMs(o: ResolvedOptions): number {
  const deadlines = [o.headersTimeoutMs, o.requestTimeoutMs].filter((ms) => ms > 0);
  if (deadlines.length === 0) return 30_000;
  return Math.min(1000, Math.max(10, Math.floor(Math.min(...deadlines) / 10)));
}

/**
 * Node's `clientError`: a malformed request gets a bare 400; a connection past its headers or
 * request deadline (a client that sends slowly, or stops halfway) gets one 408 and is closed, so
 * its memory and descriptor do not wait on a client that may never finish. `res` is the response
 * the connection is on (its last request's); `answer408` writes a 408 on it and, for a completion,
 * marks the attempt rejected.
 */
export function onClientError(
  err: NodeJS.ErrnoException,
  socket: Socket,
  res: http.ServerResponse | undefined,
  answer408: (res: http.ServerResponse) => void,
): void {
  if (err.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return;
  }
  if (err.code !== "ERR_HTTP_REQUEST_TIMEOUT") {
    socket.end(rawResponse(400, "Bad Request", BAD_REQUEST_BODY));
    return;
  }
  if (res === undefined || res.writableEnded) {
    // No response in flight (still in the headers, or the last one was sent): say it raw.
    socket.write(rawResponse(408, "Request Timeout", TIMEOUT_BODY));
    socket.destroySoon();
    return;
  }
  if (res.headersSent) {
    // Half a response is out: nothing more can be said on this connection.
    socket.destroy();
    return;
  }
  res.shouldKeepAlive = false;
  answer408(res);
  if (res.writableFinished || !res.writableEnded) socket.destroy();
  else res.once("finish", () => socket.destroySoon());
}
