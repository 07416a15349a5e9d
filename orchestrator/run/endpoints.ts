/**
 * The endpoint a failed connection names, and whether it is a gateway's: what lets error-class.ts
 * blame a failure to reach anything but the gateway on the adapter. Read from the cause chain's
 * fields where the worker host recorded them, and from Node's and undici's own wording where an
 * adapter kept only the message.
 */
import type { ErrorCause } from "../../contract/protocol-replies.ts";

/** Where a connection was going; a failed lookup names a host and no port. */
export interface Endpoint {
  readonly host?: string;
  readonly port?: number;
}

/** A host as the resolver sees it: no brackets, lower case, an IPv4-mapped IPv6 address as IPv4. */
function normalHost(raw: string): string {
  let h = raw.trim().toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(h);
  return mapped ? mapped[1]! : h;
}

/** `localhost` may be dialled as either loopback address, whichever the lookup returned first. */
const aliases = (host: string): readonly string[] => (host === "localhost" ? ["localhost", "127.0.0.1", "::1"] : [host]);

/** A base URL's host and port (the scheme's default port when it names none). */
export function endpointOfUrl(url: string): Endpoint[] {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return [];
  }
  return [{ host: normalHost(u.hostname), port: u.port !== "" ? Number(u.port) : u.protocol === "https:" ? 443 : 80 }];
}

/** The endpoint one cause names: the address it dialled, else the name it looked up. */
export function endpointOfCause(c: ErrorCause): Endpoint[] {
  const host = c.address ?? c.host;
  if (host === undefined && c.port === undefined) return [];
  return [{ ...(host !== undefined ? { host: normalHost(host) } : {}), ...(c.port !== undefined ? { port: c.port } : {}) }];
}

/**
 * Node's syscall wording (`connect ECONNREFUSED 127.0.0.1:2`, `connect ECONNREFUSED ::1:2`,
 * `getaddrinfo ENOTFOUND helper.internal`) and undici's (`attempted address: helper:8080`).
 * Only these fixed phrasings: free prose that happens to contain a host is no evidence.
 */
const TEXT_ENDPOINTS: readonly RegExp[] = [
  /\bconnect E[A-Z]+ ([0-9A-Fa-f.:]+):(\d{1,5})\b/g,
  /\bgetaddrinfo E[A-Z_]+ ([A-Za-z0-9.-]+)/g,
  /\battempted address: ([^\s,()]+):(\d{1,5})\b/g,
];

export function endpointsInText(text: string): Endpoint[] {
  const found: Endpoint[] = [];
  for (const pattern of TEXT_ENDPOINTS) {
    for (const m of text.matchAll(pattern)) found.push({ host: normalHost(m[1]!), ...(m[2] !== undefined ? { port: Number(m[2]) } : {}) });
  }
  return found;
}

/** Whether a connection to `e` went to `gateway` (a part `e` does not name cannot tell them apart). */
export function reaches(e: Endpoint, gateway: Endpoint): boolean {
  const host = e.host === undefined || gateway.host === undefined || aliases(gateway.host).includes(e.host) || aliases(e.host).includes(gateway.host);
  const port = e.port === undefined || e.port === gateway.port;
  return host && port;
}
