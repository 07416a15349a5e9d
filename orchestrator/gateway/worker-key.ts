/**
 * The key a worker holds in live mode. The real API key stays in the orchestrator's process, in
 * the proxy that injects it upstream; a worker is handed a per-run token shaped like a key (so
 * SDKs that check the shape accept it, and the redaction patterns catch it), which is worthless
 * anywhere but on this run's loopback gateway.
 */
import { randomBytes, timingSafeEqual } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import { dumpsPy } from "@agentic-arena/py-semantics";

export const WORKER_KEY_PREFIX = "sk-arena-";

/** `sk-arena-` + 32 random hex digits. */
export function mintWorkerKey(): string {
  return `${WORKER_KEY_PREFIX}${randomBytes(16).toString("hex")}`;
}

/** What OpenAI answers a wrong key with, so SDKs classify it the same way (an authentication error). */
export const UNAUTHORIZED_BODY = dumpsPy({
  error: { message: "Incorrect API key provided.", type: "invalid_request_error", param: null, code: "invalid_api_key" },
});

/** True when the request carries exactly `Authorization: Bearer <key>`. */
export function carriesKey(headers: IncomingHttpHeaders, key: string): boolean {
  const auth = headers.authorization;
  if (auth === undefined) return false;
  const m = /^Bearer (.*)$/i.exec(auth);
  if (m === null) return false;
  const given = Buffer.from(m[1] as string);
  const want = Buffer.from(key);
  // Constant time: the token is the only thing between a worker and the real key's spending.
  return given.length === want.length && timingSafeEqual(given, want);
}
