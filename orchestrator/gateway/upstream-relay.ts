/**
 * A provider's reply to a completion, relayed to the worker and recorded on the way: a whole JSON
 * reply is read, recorded, then sent (with the key scrubbed out); an SSE stream is relayed chunk by
 * chunk and read as it passes, its `[DONE]` recorded before it is relayed.
 */
import type http from "node:http";
import { dumpsPy } from "@agentic-arena/py-semantics";
import type { Completion } from "./answer.ts";
import { faultOfStatus, type LiveAttempt, type ProviderFault } from "./record-types.ts";
import { guarded } from "./http-util.ts";
import { StreamTap, tapJson } from "./reply-tap.ts";
import { replyHeaders } from "./upstream-headers.ts";

/**
 * Note what the wire showed went wrong with an attempt, once: the first witness wins (a stream cut
 * off and then the worker's connection closing is `incomplete`, not `timeout`), and an attempt
 * already served, faulted by a status or refused keeps what it was settled as.
 */
export function markFault(attempt: LiveAttempt, fault: ProviderFault | null): void {
  if (fault === null || attempt.providerFault !== null) return;
  if (attempt.outcome === "pending" || attempt.outcome === "aborted") attempt.providerFault = fault;
}

/** What a relay needs of the proxy it runs in. */
export interface RelayLink {
  /** The reply with the real key, wherever it appears, replaced by the redaction marker. */
  scrub(bytes: Buffer): Buffer;
  /** True once the gateway is closing: a reply cut off then is not the provider's fault. */
  closing(): boolean;
}

/** The proxy's own failures, shaped like a provider's so SDKs treat them as a server error. */
export function proxyErrorBody(message: string, code: string): string {
  return dumpsPy({ error: { message, type: "server_error", param: null, code } });
}

/** Collect a reply; `whole` runs once it ended completely, `broken` if it was cut off first. */
export function collect(reply: http.IncomingMessage, whole: (bytes: Buffer) => void, broken: () => void, closing: () => boolean): void {
  const chunks: Buffer[] = [];
  reply.on("data", (c: Buffer) => chunks.push(c));
  reply.once("end", () => whole(Buffer.concat(chunks)));
  reply.once("close", () => {
    if (!reply.complete && !closing()) broken();
  });
}

export function relayJson(c: Completion, reply: http.IncomingMessage, status: number, ok: boolean, link: RelayLink): void {
  collect(
    reply,
    (bytes) =>
      guarded(c.res, () => {
        // Recorded before the worker can have the reply, so a leg never ends ahead of its record.
        // A 2xx that is not a JSON object served nothing: it is the provider's fault, relayed as is.
        const t = ok ? tapJson(bytes) : undefined;
        const readable = t?.readable === true;
        if (t && readable) c.served(t.usage, t.message);
        markFault(c.attempt, ok ? (readable ? null : "malformed") : faultOfStatus(status));
        if (!c.settle(readable ? "served" : "faulted", status)) return;
        const out = link.scrub(bytes);
        c.res.writeHead(status, reply.statusMessage, replyHeaders(reply.headers, out.length));
        c.res.end(out);
      }),
    () => {
      markFault(c.attempt, "incomplete");
      c.finish("faulted", 502, proxyErrorBody("upstream closed the connection before its reply was complete", "upstream_incomplete"));
    },
    link.closing,
  );
}

export function relayStream(c: Completion, reply: http.IncomingMessage, status: number, link: RelayLink): void {
  const tap = new StreamTap();
  c.attempt.status = status;
  c.res.writeHead(status, reply.statusMessage, replyHeaders(reply.headers));
  const record = () => {
    const t = tap.result();
    c.served(t.usage, t.message);
  };
  reply.on("data", (chunk: Buffer) =>
    guarded(c.res, () => {
      tap.push(chunk);
      // `[DONE]` is recorded before it is relayed: a worker that stops there has a record.
      if (tap.done) record();
      if (!c.res.write(chunk)) {
        reply.pause();
        c.res.once("drain", () => reply.resume());
      }
    }),
  );
  reply.once("end", () =>
    guarded(c.res, () => {
      tap.end();
      record();
      c.settle("served", status);
      c.res.end();
    }),
  );
  // Cut off mid-stream: all the worker can be told is a broken connection. The attempt is the
  // proxy's 502 (not the client leaving), and not served: what the provider billed is unknown.
  reply.once("close", () => {
    if (reply.complete || link.closing()) return;
    markFault(c.attempt, "incomplete");
    c.settle("faulted", 502);
    c.res.destroy();
  });
}
