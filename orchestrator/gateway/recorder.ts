/**
 * What the gateway saw and served (gateway.md §10): the ground truth the probes and the usage
 * figures are checked against. Every record carries the tag of the base URL it arrived on, so
 * concurrent items sharing one gateway can be told apart.
 */
import type { PyDict } from "@agentic-arena/py-semantics";
import { RecordStore, type RecorderMemory, type RecorderOptions } from "./record-store.ts";
import type { AttemptRecord, GatewayRecords, LiveAttempt, RequestRecord, ResponseMessageRecord, ServedRecord, ServedUsage } from "./record-types.ts";
import type { Usage } from "./usage.ts";

export { DEFAULT_RECORD_BUDGET_BYTES, type RecorderMemory, type RecorderOptions } from "./record-store.ts";
export { SpillReadError, type SpillFailure } from "./spill.ts";
export type {
  AttemptOutcome,
  AttemptRecord,
  ProviderFault,
  GatewayRecords,
  LiveAttempt,
  RequestRecord,
  ResponseMessageRecord,
  ServedRecord,
  ServedUsage,
} from "./record-types.ts";

/** Milliseconds on a clock that is monotonic within the process and close to the epoch across processes. */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

/**
 * Requests are served when their body has been read, which for concurrent clients is not always
 * the order they arrived in; keep the records in arrival (attempt) order. Almost always an append.
 */
function insertInArrivalOrder<T extends { attempt: number }>(xs: T[], x: T): void {
  let i = xs.length;
  while (i > 0 && (xs[i - 1] as T).attempt > x.attempt) i--;
  if (i === xs.length) xs.push(x);
  else xs.splice(i, 0, x);
}

interface TagRecords {
  readonly attempts: LiveAttempt[];
  readonly requests: RequestRecord[];
  readonly served: ServedRecord[];
  readonly messages: ResponseMessageRecord[];
}

export class Recorder {
  #attempts: LiveAttempt[] = [];
  #requests: RequestRecord[] = [];
  #served: ServedRecord[] = [];
  #messages: ResponseMessageRecord[] = [];
  #usageByTag = new Map<string, { prompt_tokens: number; completion_tokens: number; llm_calls: number }>();
  /** The same records again per tag: the harness reads one tag's around every leg, and filtering everything would grow with the run. */
  #byTag = new Map<string, TagRecords>();
  #lifetimeAttempts = 0;
  readonly #store: RecordStore;

  constructor(options: RecorderOptions = {}) {
    this.#store = new RecordStore(options);
  }

  /** What the recorded bodies cost in memory and on disk now. */
  get memory(): RecorderMemory {
    return this.#store.memory;
  }

  /** Completions attempts since the gateway started, {@link clear} notwithstanding (no snapshot taken). */
  get lifetimeAttempts(): number {
    return this.#lifetimeAttempts;
  }

  /** `startedAt`: the earliest start the transport vouches for (gateway/arrival.ts); the read unless it saw it earlier. */
  beginAttempt(attempt: number, tag: string, startedAt?: number): LiveAttempt {
    this.#lifetimeAttempts++;
    const at = nowMs();
    const live: LiveAttempt = { attempt, tag, at, startedAt: Math.min(at, startedAt ?? at), status: null, outcome: "pending", closedAt: null, endedAt: null, providerFault: null };
    this.#attempts.push(live);
    this.#tag(tag).attempts.push(live);
    return live;
  }

  /** `raw` is the body as received and `bodyText` its decoded text (both empty for an empty body). */
  recordServed(attempt: LiveAttempt, raw: Uint8Array, bodyText: string, usage: Usage, message: PyDict): void {
    const { tag } = attempt;
    const n = attempt.attempt;
    const request = this.#store.request(n, tag, raw, bodyText);
    const served = { attempt: n, tag, prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens };
    const reply = this.#store.message(n, tag, message, usage.completion_tokens);
    for (const into of [{ requests: this.#requests, served: this.#served, messages: this.#messages }, this.#tag(tag)]) {
      insertInArrivalOrder(into.requests, request);
      insertInArrivalOrder(into.served, served);
      insertInArrivalOrder(into.messages, reply);
    }
    const total = this.#usageByTag.get(tag) ?? { prompt_tokens: 0, completion_tokens: 0, llm_calls: 0 };
    total.prompt_tokens += usage.prompt_tokens;
    total.completion_tokens += usage.completion_tokens;
    total.llm_calls += 1;
    this.#usageByTag.set(tag, total);
  }

  /**
   * What has been served under `tag` so far, kept as a running sum: the harness reads it around
   * every leg, and filtering the whole record for that would grow with the length of the run.
   */
  servedUsageFor(tag: string): ServedUsage {
    const total = this.#usageByTag.get(tag);
    return total ? { ...total } : { prompt_tokens: 0, completion_tokens: 0, llm_calls: 0 };
  }

  /** Attempts still being handled: a client's close may still be on its way through the sandbox bridge. */
  get pendingAttempts(): number {
    return this.#attempts.filter((a) => a.outcome === "pending").length;
  }

  /** A snapshot; with `tag`, only that tag's records (servedUsage summed over them). */
  records(tag?: string): GatewayRecords {
    const of = tag === undefined ? { attempts: this.#attempts, requests: this.#requests, served: this.#served, messages: this.#messages } : this.#tag(tag);
    const served = [...of.served];
    let prompt = 0;
    let completion = 0;
    for (const s of served) {
      prompt += s.prompt_tokens;
      completion += s.completion_tokens;
    }
    return {
      requests: [...of.requests],
      attempts: of.attempts.map((a) => ({ ...a })),
      served,
      servedUsage: { prompt_tokens: prompt, completion_tokens: completion, llm_calls: served.length },
      responseMessages: [...of.messages],
    };
  }

  /** How many completion attempts arrived under `tag`, served or not. */
  attemptCount(tag: string): number {
    return this.#byTag.get(tag)?.attempts.length ?? 0;
  }

  /** The attempts that arrived under `tag` from mark `from` on (a mark is an {@link attemptCount}), as they stand now. */
  attemptsFrom(tag: string, from: number): AttemptRecord[] {
    return (this.#byTag.get(tag)?.attempts.slice(from) ?? []).map((a) => ({ ...a }));
  }

  /** The tags anything arrived under, in first-arrival order. */
  get tags(): readonly string[] {
    return [...this.#byTag.keys()];
  }

  /** How many requests have been served under `tag`: a mark for {@link servedFrom}. */
  servedCount(tag: string): number {
    return this.#byTag.get(tag)?.requests.length ?? 0;
  }

  /** The requests served under `tag` from mark `from` on, with their usage and replies (same order, same length). */
  servedFrom(tag: string, from: number): Pick<GatewayRecords, "requests" | "served" | "responseMessages"> {
    const of = this.#tag(tag);
    return { requests: of.requests.slice(from), served: of.served.slice(from), responseMessages: of.messages.slice(from) };
  }

  #tag(tag: string): TagRecords {
    let of = this.#byTag.get(tag);
    if (of === undefined) this.#byTag.set(tag, (of = { attempts: [], requests: [], served: [], messages: [] }));
    return of;
  }

  get requests(): readonly RequestRecord[] {
    return this.records().requests;
  }
  get attempts(): readonly AttemptRecord[] {
    return this.records().attempts;
  }
  get served(): readonly ServedRecord[] {
    return this.records().served;
  }
  get servedUsage(): ServedUsage {
    return this.records().servedUsage;
  }
  get responseMessages(): readonly ResponseMessageRecord[] {
    return this.records().responseMessages;
  }

  /** Forget everything recorded so far (attempt numbering, and so `faults`, carries on). */
  clear(): void {
    this.#attempts = [];
    this.#requests = [];
    this.#served = [];
    this.#messages = [];
    this.#usageByTag.clear();
    this.#byTag.clear();
    this.#store.clear();
  }

  /**
   * Unlink the spill files (unless the options keep them); called by the gateway's `stop()`.
   * Records, snapshots taken before included, stay readable: the open descriptor is closed only
   * once nothing can reach it.
   */
  removeSpillFiles(): void {
    this.#store.removeSpillFiles();
  }
}

