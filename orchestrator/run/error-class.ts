/**
 * Every item error gets a class, so a provider outage is never scored as a framework's failure:
 *
 * - `infra`: the provider or the network to it failed — the gateway refused or reset the
 *   connection, or a 5xx survived the adapter's own retries (and, for now, a network failure that
 *   names no endpoint at all: a bare DNS or TLS error, see below);
 * - `timeout`: an HTTP attempt or the worker's leg deadline ran out;
 * - `protocol`: the worker broke the JSON protocol;
 * - `adapter`: the framework raised, or gave up (budget exhausted, unusable resume state, …), or
 *   failed to reach anything but the gateway (its own helper process, a host of its choosing);
 * - `harness`: our own bug.
 *
 * The structured cause chain the worker host reports is read first; the error text is only a
 * fallback for adapters that catch an exception and keep its message as `error`.
 *
 * Where an error names the endpoint it failed to reach (a cause's `address`/`port`/`host`, or
 * Node's own wording in a message, `connect ECONNREFUSED 127.0.0.1:2`), that decides: every
 * request a worker may make goes to the base URL it was handed, so a network failure naming any
 * other endpoint is the adapter's doing, whatever its code. The comparison is with that base URL
 * as the worker has it — in a sealed worker the bridge listens on the same 127.0.0.1:<port>
 * inside its namespace (supervisor/sandbox/bridge.ts), and a gateway that refuses behind the
 * bridge shows as the bridge closing the connection, naming that port or nothing.
 *
 * Evidence that names no endpoint (`fetch failed` with no cause, `socket hang up`, a 5xx status)
 * is classified as the gateway's.
 *
 * All of this is the fallback: where the gateway saw the provider fault on the item's last
 * attempt, the wire decides and the item is `infra` whatever its text says (provider-faults.ts).
 */
import type { ErrorCause } from "../../contract/protocol-replies.ts";
import type { WorkerFailure } from "../supervisor/failure.ts";
import { endpointOfCause, endpointOfUrl, endpointsInText, reaches } from "./endpoints.ts";

export const ERROR_CLASSES = ["infra", "adapter", "protocol", "timeout", "harness"] as const;
export type ErrorClass = (typeof ERROR_CLASSES)[number];

/** Node, undici and OpenSSL codes that mean the connection itself failed. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED",
  "ECONNRESET",
  "ECONNABORTED",
  "EPIPE",
  "ENOTFOUND",
  "EAI_AGAIN",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENETDOWN",
  "UND_ERR_SOCKET",
  "UND_ERR_CONNECT",
  "UND_ERR_CLOSED",
  "ERR_SSL_WRONG_VERSION_NUMBER",
  "DEPTH_ZERO_SELF_SIGNED_CERT",
  "SELF_SIGNED_CERT_IN_CHAIN",
  "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
  "CERT_HAS_EXPIRED",
  "ERR_TLS_CERT_ALTNAME_INVALID",
]);
const TIMEOUT_CODES = new Set(["ETIMEDOUT", "UND_ERR_CONNECT_TIMEOUT", "UND_ERR_HEADERS_TIMEOUT", "UND_ERR_BODY_TIMEOUT", "ABORT_ERR"]);
const TIMEOUT_NAMES = /^(TimeoutError|AbortError|APIConnectionTimeoutError|APIUserAbortError)$/;

const INFRA_TEXT =
  /\b(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|socket hang up|fetch failed|Connection error|getaddrinfo)\b|\bLLM HTTP 5\d\d\b|\b5\d\d (status code|Internal Server Error|Bad Gateway|Service Unavailable|Gateway Timeout)\b|\bstatus(?: code)?:? 5\d\d\b/i;
const TIMEOUT_TEXT = /\b(TimeoutError|AbortError|ETIMEDOUT|timed out|Request timed out|The operation was aborted due to timeout)\b/i;

export function classifyWorkerFailure(failure: WorkerFailure): ErrorClass {
  switch (failure.kind) {
    case "timed_out":
      return "timeout";
    case "invalid_message":
    case "protocol_violation":
      return "protocol";
    case "spawn_failed":
      return "harness";
    case "exited":
      // The process the framework ran in died under it: the framework's doing, as far as we can tell.
      return "adapter";
  }
}

/**
 * An exception from run/resume (with the cause chain the worker host saw), or an `error` the
 * adapter returned. `gateways` are the base URLs the worker was handed for the item's arena:
 * a failure naming any other endpoint is the adapter's (with none given, every named one is).
 */
export function classifyAdapterError(text: string, causes: readonly ErrorCause[] = [], gateways: readonly string[] = []): ErrorClass {
  const allowed = gateways.flatMap(endpointOfUrl);
  const named = [...causes.flatMap(endpointOfCause), ...endpointsInText([text, ...causes.map((c) => c.message)].join("\n"))];
  if (named.some((e) => !allowed.some((g) => reaches(e, g)))) return "adapter";
  for (const c of causes) {
    if (c.code && NETWORK_CODES.has(c.code)) return "infra";
    if (c.status !== undefined && c.status >= 500 && c.status <= 599) return "infra";
  }
  for (const c of causes) {
    if ((c.code && TIMEOUT_CODES.has(c.code)) || TIMEOUT_NAMES.test(c.name)) return "timeout";
  }
  const all = [text, ...causes.map((c) => `${c.name}: ${c.message}`)].join("\n");
  if (INFRA_TEXT.test(all)) return "infra";
  if (TIMEOUT_TEXT.test(all)) return "timeout";
  return "adapter";
}
