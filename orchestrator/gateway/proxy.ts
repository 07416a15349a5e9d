/**
 * The live gateway: the mock's pipeline (server.ts) with the provider as its answerer. Workers get
 * the same `http://127.0.0.1:<port>/t/<tag>/v1` base URLs as in mock mode and a per-run worker
 * key; the proxy checks that key, records every attempt, request and reply under the tag in the
 * same Recorder, and forwards to the provider with the real key, which never leaves this process.
 */
import { resolveOptions } from "./options.ts";
import type { IdentityPolicy } from "./identity.ts";
import { createPipeline, type Gateway } from "./server.ts";
import { upstreamAnswerer } from "./upstream.ts";

export { mintWorkerKey, WORKER_KEY_PREFIX } from "./worker-key.ts";
export { UpstreamUrlError } from "./upstream.ts";

export interface ProxyOptions {
  /** The provider's base URL (`OPENAI_BASE_URL`). */
  readonly upstreamBaseUrl: string;
  /** The real API key: injected upstream, never handed out. */
  readonly apiKey: string;
  /** The only key workers may present (`mintWorkerKey()`); anything else gets 401 and stays here. */
  readonly workerKey: string;
  /**
   * Seconds a worker has to *send* a request (options.ts; default 120). The proxy sets no deadline
   * on the provider's reply: the adapter bounds its own attempts, and its hanging up aborts the
   * upstream request. The run passes at least its `request_timeout_s`.
   */
  readonly requestTimeoutSeconds?: number;
  readonly port?: number;
  readonly maxBodyBytes?: number;
  readonly headersTimeoutSeconds?: number;
  readonly recordBudgetBytes?: number;
  readonly spillDir?: string;
  readonly keepSpillFiles?: boolean;
  /** Whose requests are accepted (identity.ts). */
  readonly identity?: IdentityPolicy;
}

export function createProxy(o: ProxyOptions): Gateway {
  if (o.workerKey === o.apiKey) throw new RangeError("the worker key must not be the real API key");
  const answerer = upstreamAnswerer({ baseUrl: o.upstreamBaseUrl, apiKey: o.apiKey });
  // resolveOptions checks and defaults the transport options; the script is the mock answerer's
  // and is never read there. No faults, no stall: the provider has its own.
  const options = resolveOptions({
    script: "",
    ...(o.port !== undefined ? { port: o.port } : {}),
    ...(o.maxBodyBytes !== undefined ? { maxBodyBytes: o.maxBodyBytes } : {}),
    ...(o.headersTimeoutSeconds !== undefined ? { headersTimeoutSeconds: o.headersTimeoutSeconds } : {}),
    ...(o.requestTimeoutSeconds !== undefined ? { requestTimeoutSeconds: o.requestTimeoutSeconds } : {}),
  });
  return createPipeline({
    options,
    recorder: { budgetBytes: o.recordBudgetBytes, spillDir: o.spillDir, keepSpillFiles: o.keepSpillFiles },
    answerer,
    workerKey: o.workerKey,
    ...(o.identity ? { identity: o.identity } : {}),
  });
}
