/** Injected transport faults (gateway.md §9). */
import { dumpsPy } from "@agentic-arena/py-semantics";

/** Numbers completions attempts over the gateway's lifetime and says which status each one gets. */
export class FaultPlan {
  #next = 0;
  readonly #faults: readonly number[];

  constructor(faults: readonly number[]) {
    this.#faults = faults;
  }

  /** Claim the next attempt number; `status` 200 means "serve it normally". */
  next(): { attempt: number; status: number } {
    const attempt = this.#next++;
    return { attempt, status: this.#faults[attempt] ?? 200 };
  }
}

export interface FaultResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
}

export function faultResponse(status: number, retryAfter: number | null): FaultResponse {
  const type = status === 429 ? "rate_limit_error" : "server_error";
  const headers: Record<string, string> = {};
  if (retryAfter !== null && (status === 429 || status === 503)) headers["Retry-After"] = String(retryAfter);
  return { status, headers, body: dumpsPy({ error: { message: `injected ${status}`, type } }) };
}
