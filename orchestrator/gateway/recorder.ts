/**
 * What the gateway saw and served (gateway.md §10): the ground truth the probes and the usage
 * figures are checked against. Every record carries the tag of the base URL it arrived on, so
 * concurrent items sharing one gateway can be told apart.
 */
import { parsePyJson, type PyDict, type PyValue } from "../../workers/py/index.ts";
import type { Usage } from "./usage.ts";

/** Milliseconds on a clock that is monotonic within the process and close to the epoch across processes. */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}

export type AttemptOutcome =
  /** Still being handled (stalled, reading its body, …). */
  | "pending"
  | "served"
  /** Answered with an injected fault status. */
  | "faulted"
  /** Refused by the gateway: invalid JSON, bad shape, body too large. */
  | "rejected"
  /** The client closed the connection before any response. */
  | "aborted";

export interface AttemptRecord {
  /** Lifetime attempt number (the index into `faults`). */
  readonly attempt: number;
  readonly tag: string;
  /** When the request arrived ({@link nowMs}). */
  readonly at: number;
  /** Status sent (or being sent); `null` while pending or when the client left first. */
  readonly status: number | null;
  readonly outcome: AttemptOutcome;
  /** When the client closed the connection before the response was complete; else `null`. */
  readonly closedAt: number | null;
  /** When the response was completely handed to the socket; else `null`. */
  readonly endedAt: number | null;
}

export interface RequestRecord {
  readonly attempt: number;
  readonly tag: string;
  /** The parsed body (ints as bigint, floats as number, objects as Map in wire order). */
  readonly body: PyDict;
}

export interface ServedRecord extends Usage {
  readonly attempt: number;
  readonly tag: string;
}

export interface ResponseMessageRecord {
  readonly attempt: number;
  readonly tag: string;
  /** The assistant message as sent, after rewrites and rendering. */
  readonly message: PyDict;
}

export interface ServedUsage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly llm_calls: number;
}

export interface GatewayRecords {
  /** Served request bodies in arrival order (no faulted or rejected attempts). */
  readonly requests: readonly RequestRecord[];
  /** Every completions attempt, faulted or not, in arrival order. */
  readonly attempts: readonly AttemptRecord[];
  readonly served: readonly ServedRecord[];
  readonly servedUsage: ServedUsage;
  readonly responseMessages: readonly ResponseMessageRecord[];
}

/** Mutable view of an attempt, held by the request handler while it runs. */
export interface LiveAttempt {
  readonly attempt: number;
  readonly tag: string;
  readonly at: number;
  status: number | null;
  outcome: AttemptOutcome;
  closedAt: number | null;
  endedAt: number | null;
}

/**
 * Keeps the body as the text it arrived as and parses it again only when read. A parsed body is
 * thousands of small objects; holding those for every request made each young-generation GC copy
 * them and cost the gateway its tail latency, while a string is one block. `parsePyJson` is
 * deterministic, so the value read back is the one that was served and billed.
 */
class TextBackedRequest implements RequestRecord {
  readonly attempt: number;
  readonly tag: string;
  #text: string | undefined;
  #body: PyDict | undefined;

  constructor(attempt: number, tag: string, text: string) {
    this.attempt = attempt;
    this.tag = tag;
    this.#text = text;
  }

  get body(): PyDict {
    if (this.#body === undefined) {
      const text = this.#text as string;
      this.#body = text === "" ? new Map() : (parsePyJson(text) as PyDict);
      this.#text = undefined;
    }
    return this.#body;
  }
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

export class Recorder {
  #attempts: LiveAttempt[] = [];
  #requests: RequestRecord[] = [];
  #served: ServedRecord[] = [];
  #messages: ResponseMessageRecord[] = [];
  #usageByTag = new Map<string, { prompt_tokens: number; completion_tokens: number; llm_calls: number }>();
  #lifetimeAttempts = 0;

  /** Completions attempts since the gateway started, {@link clear} notwithstanding (no snapshot taken). */
  get lifetimeAttempts(): number {
    return this.#lifetimeAttempts;
  }

  beginAttempt(attempt: number, tag: string): LiveAttempt {
    this.#lifetimeAttempts++;
    const live: LiveAttempt = { attempt, tag, at: nowMs(), status: null, outcome: "pending", closedAt: null, endedAt: null };
    this.#attempts.push(live);
    return live;
  }

  /** `bodyText` is the decoded body as received (`""` for an empty one), `body` its parsed value. */
  recordServed(attempt: LiveAttempt, bodyText: string, usage: Usage, message: PyDict): void {
    const { tag } = attempt;
    insertInArrivalOrder(this.#requests, new TextBackedRequest(attempt.attempt, tag, bodyText));
    insertInArrivalOrder(this.#served, { attempt: attempt.attempt, tag, prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens });
    insertInArrivalOrder(this.#messages, { attempt: attempt.attempt, tag, message });
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

  /** A snapshot; with `tag`, only that tag's records (servedUsage summed over them). */
  records(tag?: string): GatewayRecords {
    const keep = <T extends { tag: string }>(xs: readonly T[]): T[] => (tag === undefined ? [...xs] : xs.filter((x) => x.tag === tag));
    const served = keep(this.#served);
    let prompt = 0;
    let completion = 0;
    for (const s of served) {
      prompt += s.prompt_tokens;
      completion += s.completion_tokens;
    }
    return {
      requests: keep(this.#requests),
      attempts: keep(this.#attempts).map((a) => ({ ...a })),
      served,
      servedUsage: { prompt_tokens: prompt, completion_tokens: completion, llm_calls: served.length },
      responseMessages: keep(this.#messages),
    };
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
  }
}

// --- wire form for the loopback records endpoint -------------------------------------------
// Bodies and messages are PyValues, so the whole document is written with Python json.dumps and
// must be read back with parsePyJson: JSON.parse would lose the int/float distinction and key order.

export function recordsToWire(r: GatewayRecords): PyDict {
  const int = (n: number): bigint => BigInt(n);
  const time = (n: number | null): PyValue => n;
  const tagged = (x: { attempt: number; tag: string }): [string, PyValue][] => [
    ["attempt", int(x.attempt)],
    ["tag", x.tag],
  ];
  return new Map<string, PyValue>([
    ["requests", r.requests.map((x) => new Map<string, PyValue>([...tagged(x), ["body", x.body]]))],
    [
      "attempts",
      r.attempts.map(
        (a) =>
          new Map<string, PyValue>([
            ...tagged(a),
            ["at", time(a.at)],
            ["status", a.status === null ? null : int(a.status)],
            ["outcome", a.outcome],
            ["closedAt", time(a.closedAt)],
            ["endedAt", time(a.endedAt)],
          ]),
      ),
    ],
    [
      "served",
      r.served.map(
        (s) =>
          new Map<string, PyValue>([
            ...tagged(s),
            ["prompt_tokens", int(s.prompt_tokens)],
            ["completion_tokens", int(s.completion_tokens)],
          ]),
      ),
    ],
    [
      "servedUsage",
      new Map<string, PyValue>([
        ["prompt_tokens", int(r.servedUsage.prompt_tokens)],
        ["completion_tokens", int(r.servedUsage.completion_tokens)],
        ["llm_calls", int(r.servedUsage.llm_calls)],
      ]),
    ],
    ["responseMessages", r.responseMessages.map((m) => new Map<string, PyValue>([...tagged(m), ["message", m.message]]))],
  ]);
}

function field(d: PyValue | undefined, key: string): PyValue | undefined {
  return d instanceof Map ? d.get(key) : undefined;
}
function num(v: PyValue | undefined): number {
  if (typeof v === "bigint") return Number(v);
  if (typeof v === "number") return v;
  throw new TypeError(`records: expected a number, got ${typeof v}`);
}
function numOrNull(v: PyValue | undefined): number | null {
  return v === null || v === undefined ? null : num(v);
}
function str(v: PyValue | undefined): string {
  if (typeof v !== "string") throw new TypeError("records: expected a string");
  return v;
}
function dict(v: PyValue | undefined): PyDict {
  if (!(v instanceof Map)) throw new TypeError("records: expected an object");
  return v;
}
function list(v: PyValue | undefined): readonly PyValue[] {
  if (!Array.isArray(v)) throw new TypeError("records: expected a list");
  return v;
}

export function recordsFromWire(v: PyValue): GatewayRecords {
  const tagged = (x: PyValue): { attempt: number; tag: string } => ({ attempt: num(field(x, "attempt")), tag: str(field(x, "tag")) });
  const usage = field(v, "servedUsage");
  return {
    requests: list(field(v, "requests")).map((x) => ({ ...tagged(x), body: dict(field(x, "body")) })),
    attempts: list(field(v, "attempts")).map((x) => ({
      ...tagged(x),
      at: num(field(x, "at")),
      status: numOrNull(field(x, "status")),
      outcome: str(field(x, "outcome")) as AttemptOutcome,
      closedAt: numOrNull(field(x, "closedAt")),
      endedAt: numOrNull(field(x, "endedAt")),
    })),
    served: list(field(v, "served")).map((x) => ({
      ...tagged(x),
      prompt_tokens: num(field(x, "prompt_tokens")),
      completion_tokens: num(field(x, "completion_tokens")),
    })),
    servedUsage: {
      prompt_tokens: num(field(usage, "prompt_tokens")),
      completion_tokens: num(field(usage, "completion_tokens")),
      llm_calls: num(field(usage, "llm_calls")),
    },
    responseMessages: list(field(v, "responseMessages")).map((x) => ({ ...tagged(x), message: dict(field(x, "message")) })),
  };
}
