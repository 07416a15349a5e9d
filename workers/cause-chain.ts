/**
 * A thrown error and what it wraps, as protocol data (ErrorCause): its own `cause` chain, and the
 * `errors` of an AggregateError — Node's happy-eyeballs connect to a name with both an IPv4 and an
 * IPv6 address fails with one, whose own message is empty and whose `errors` name each address
 * tried. Each link keeps the endpoint it names, so the orchestrator can tell a failure to reach
 * the gateway (the provider's) from one to reach anything else (the adapter's).
 */
import { CAUSE_ENDPOINT_MAX } from "../contract/protocol.ts";
import type { ErrorCause } from "../contract/protocol-replies.ts";

/** As many links as the protocol accepts (ErrorMessage.causes). */
const MAX_LINKS = 8;

const text = (v: unknown): string | undefined => (typeof v === "string" && v.length > 0 && v.length <= CAUSE_ENDPOINT_MAX ? v : undefined);
const port = (v: unknown): number | undefined => (Number.isInteger(v) && (v as number) >= 0 && (v as number) <= 65535 ? (v as number) : undefined);

/**
 * Where `e` was going: a syscall error's `address`/`port` (`connect ECONNREFUSED 127.0.0.1:2`), a
 * failed lookup's `hostname`, or the remote end of the socket undici's SocketError carries
 * (`other side closed`; only while the socket still knows it).
 */
function endpoint(e: any): Pick<ErrorCause, "address" | "port" | "host"> {
  const socket = typeof e.socket === "object" && e.socket !== null ? e.socket : {};
  const address = text(e.address) ?? text(socket.remoteAddress);
  const p = port(e.port) ?? (address !== undefined ? port(socket.remotePort) : undefined);
  const host = text(e.hostname);
  return { ...(address !== undefined ? { address } : {}), ...(p !== undefined ? { port: p } : {}), ...(host !== undefined ? { host } : {}) };
}

/** The error and what it wraps, outermost first, breadth first (bounded: a chain can be cyclic). */
export function causeChain(err: unknown): ErrorCause[] {
  const chain: ErrorCause[] = [];
  const seen = new Set<unknown>();
  const queue: unknown[] = [err];
  while (queue.length > 0 && chain.length < MAX_LINKS) {
    const e: any = queue.shift();
    if (e === undefined || e === null || seen.has(e)) continue;
    seen.add(e);
    const code = typeof e.code === "string" ? e.code : undefined;
    const rawStatus = e.status ?? e.statusCode ?? e.response?.status;
    const status = Number.isInteger(rawStatus) ? (rawStatus as number) : undefined;
    chain.push({
      name: typeof e.name === "string" ? e.name : typeof e,
      message: String(e.message ?? e).slice(0, 500),
      ...(code ? { code } : {}),
      ...(status !== undefined ? { status } : {}),
      ...(typeof e === "object" ? endpoint(e) : {}),
    });
    if (typeof e !== "object") continue;
    queue.push(e.cause);
    if (Array.isArray(e.errors)) queue.push(...e.errors.slice(0, MAX_LINKS));
  }
  return chain;
}
