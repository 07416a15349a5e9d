/**
 * Which headers cross the proxy: hop-by-hop ones (and those a `Connection` header lists) never do;
 * the key, the length and the encoding are the proxy's own on the way up, so the provider sees the
 * real key and a reply it can be read for usage.
 */
import type http from "node:http";

const HOP_BY_HOP = new Set(["connection", "keep-alive", "proxy-authenticate", "proxy-authorization", "te", "trailer", "transfer-encoding", "upgrade"]);
/** Set by the proxy itself (the key, the length of the body it sends) or meaningless once the body is read. */
const REPLACED = new Set(["host", "authorization", "api-key", "content-length", "accept-encoding", "expect"]);

function hopByHop(headers: http.IncomingHttpHeaders): Set<string> {
  const listed = String(headers.connection ?? "").split(",").map((h) => h.trim().toLowerCase());
  return new Set([...HOP_BY_HOP, ...listed]);
}

export function requestHeaders(incoming: http.IncomingHttpHeaders, apiKey: string, length: number): http.OutgoingHttpHeaders {
  const drop = hopByHop(incoming);
  const out: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(incoming)) if (v !== undefined && !drop.has(k) && !REPLACED.has(k)) out[k] = v;
  out.authorization = `Bearer ${apiKey}`;
  // An encoded reply could not be read for usage, and would pass to the worker just the same.
  out["accept-encoding"] = "identity";
  out["content-length"] = length;
  return out;
}

export function replyHeaders(incoming: http.IncomingHttpHeaders, length?: number): http.OutgoingHttpHeaders {
  const drop = hopByHop(incoming);
  const out: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(incoming)) if (v !== undefined && !drop.has(k)) out[k] = v;
  if (length !== undefined) out["content-length"] = length;
  return out;
}
