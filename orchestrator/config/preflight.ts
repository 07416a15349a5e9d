/**
 * Before a live run starts any item, one cheap request tells whether the provider is there, takes
 * the key and serves the model. Without it a wrong URL, key or model id turns every item of
 * every framework into the same error, after all of them have run.
 */
import { z } from "zod";
import { didYouMean } from "../cli/suggest.ts";
import type { ArenaConfig } from "./arena-config.ts";
import { redactSecrets } from "../files/redact.ts";

export type PreflightKind = "unreachable" | "rejected_key" | "unknown_model" | "no_api" | "http_status";

/** The provider cannot serve this run; `message` is one line, `provider …`, with no secret in it. */
export class PreflightError extends Error {
  override readonly name = "PreflightError";
  readonly kind: PreflightKind;
  /** The URL that answered (or did not), credentials removed. */
  readonly url: string;
  /** The HTTP status, when there was an answer. */
  readonly status: number | undefined;
  constructor(kind: PreflightKind, reason: string, url: string, status?: number) {
    super(reason);
    this.kind = kind;
    this.url = url;
    this.status = status;
  }
}

export interface PreflightOptions {
  /** Injected for tests; default `globalThis.fetch`. */
  readonly fetch?: typeof globalThis.fetch;
  /** Deadline of each request, body included; default the run's `requestTimeoutS` (one HTTP attempt). */
  readonly timeoutMs?: number;
  /**
   * The longest `Retry-After` (seconds) a 429 or 503 may ask for and be waited out, once per
   * request, twice at most; a longer one is reported with the status instead. Default
   * {@link MAX_PREFLIGHT_RETRY_AFTER_S}; 0 never waits.
   */
  readonly maxRetryAfterS?: number;
  /** Injected for tests; default a timer. */
  readonly sleep?: (ms: number) => Promise<void>;
}

/**
 * A provider busy for a moment says so with `Retry-After`; waiting ten seconds before the run's
 * first item is cheap, while a run started against a provider that asks for minutes would only
 * meet the same 429 on every item.
 */
export const MAX_PREFLIGHT_RETRY_AFTER_S = 10;
const PREFLIGHT_RETRIES = 2;

/** `Retry-After` as seconds: a delay in whole seconds or an HTTP date; undefined when absent or unreadable. */
export function retryAfterSeconds(value: string | null, now: number = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text);
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export interface PreflightOutcome {
  /** Which request settled it. */
  readonly checkedBy: "models" | "chat";
  /** How many models the provider lists, when it answered GET /models with a list. */
  readonly listedModels?: number;
}

const ModelList = z.object({ data: z.array(z.object({ id: z.string() }).loose()), has_more: z.boolean().optional() }).loose();
const ChatReply = z.object({ choices: z.array(z.unknown()) }).loose();

const EXCERPT = 200;

/**
 * Check that the live provider of `config` is reachable, accepts the key and serves the model.
 *
 * The request: `GET <base_url>/models` with `Authorization: Bearer <key>` (lists models, costs no
 * tokens). 401/403 → the key is rejected. 200 with a complete, non-empty `data` list → the model
 * must be in it (`id` equal to the model, or to `models/<model>` as Google's endpoint lists them).
 * If `/models` answers 404/405 (some OpenAI-compatible servers lack it), or 200 with a list that
 * cannot settle it (not a list, empty, or `has_more`), one
 * `POST <base_url>/chat/completions` with `{"model", "messages":[{"role":"user","content":"ping"}],
 * "max_tokens":1}` decides instead (at most one token billed): 2xx with `choices` → fine; 401/403
 * → key; 404 or 400 whose body names the model → unknown model; 404 otherwise → no API there.
 * Any other status, a connection that fails (refused, reset, DNS, TLS) or no answer within
 * `timeoutMs` throws {@link PreflightError} too. Its message never contains the key: the key and
 * anything key-shaped are redacted, the provider's own words included.
 */
export async function preflightLive(config: ArenaConfig, options: PreflightOptions = {}): Promise<PreflightOutcome> {
  const doFetch = options.fetch ?? globalThis.fetch;
  const timeoutMs = options.timeoutMs ?? config.requestTimeoutS * 1000;
  const base = config.baseUrl.replace(/\/+$/, "");
  const shownBase = withoutCredentials(base);
  // Only a real key is passed to redactSecrets: an empty string would "match" between every character.
  const secrets = config.apiKey.length >= 4 ? [config.apiKey] : [];
  const clean = (text: string) => redactSecrets(text, secrets);
  const fail = (kind: PreflightKind, reason: string, url: string, status?: number): never => {
    throw new PreflightError(kind, clean(reason), url, status);
  };
  const auth = { authorization: `Bearer ${config.apiKey}` };

  const maxWaitS = options.maxRetryAfterS ?? MAX_PREFLIGHT_RETRY_AFTER_S;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const once = async (method: "GET" | "POST", endpoint: string, body?: unknown) => {
    const url = `${base}${endpoint}`;
    try {
      const response = await doFetch(url, {
        method,
        headers: body === undefined ? auth : { ...auth, "content-type": "application/json" },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        signal: AbortSignal.timeout(timeoutMs),
        redirect: "follow",
      });
      return { status: response.status, text: await response.text(), retryAfter: retryAfterSeconds(response.headers.get("retry-after")) };
    } catch (err) {
      return fail("unreachable", `provider unreachable at ${shownBase}: ${connectionProblem(err, url, timeoutMs)}`, withoutCredentials(url));
    }
  };
  /** One request, with a busy provider's `Retry-After` honoured within the bound. */
  const request = async (method: "GET" | "POST", endpoint: string, body?: unknown) => {
    for (let retries = 0; ; retries++) {
      const r = await once(method, endpoint, body);
      const busy = (r.status === 429 || r.status === 503) && r.retryAfter !== undefined;
      if (!busy) return r;
      if (r.retryAfter! > maxWaitS) return { ...r, note: ` (it asked to retry after ${r.retryAfter} s; the preflight waits at most ${maxWaitS} s)` };
      if (retries >= PREFLIGHT_RETRIES) return { ...r, note: ` (still, after waiting out Retry-After ${retries} time(s))` };
      await sleep(r.retryAfter! * 1000);
    }
  };
  const keyRejected = (status: number, url: string) => fail("rejected_key", `provider rejected the API key (HTTP ${status})`, url, status);
  const otherStatus = (method: string, endpoint: string, status: number, text: string, note = "") =>
    fail("http_status", `provider answered HTTP ${status} to ${method} ${shownBase}${endpoint}${excerpt(text)}${note}`, `${shownBase}${endpoint}`, status);

  const models = await request("GET", "/models");
  if (models.status === 401 || models.status === 403) keyRejected(models.status, `${shownBase}/models`);
  let listed: number | undefined;
  if (models.status >= 200 && models.status < 300) {
    const list = ModelList.safeParse(parseJson(models.text));
    if (list.success && list.data.data.length > 0) {
      listed = list.data.data.length;
      const ids = new Set(list.data.data.map((m) => m.id));
      if (ids.has(config.model) || ids.has(`models/${config.model}`)) return { checkedBy: "models", listedModels: listed };
      if (list.data.has_more !== true) {
        fail("unknown_model", `unknown model '${config.model}' at ${hostOf(base)} (the provider lists ${listed} models${didYouMean(config.model, ids)})`, `${shownBase}/models`, models.status);
      }
    }
    // Not a list we can decide on: let the chat endpoint say whether the model is served.
  } else if (models.status !== 404 && models.status !== 405) {
    otherStatus("GET", "/models", models.status, models.text, "note" in models ? models.note : "");
  }

  const chat = await request("POST", "/chat/completions", {
    model: config.model,
    messages: [{ role: "user", content: "ping" }],
    max_tokens: 1,
  });
  const chatUrl = `${shownBase}/chat/completions`;
  if (chat.status >= 200 && chat.status < 300) {
    if (ChatReply.safeParse(parseJson(chat.text)).success) return { checkedBy: "chat", ...(listed !== undefined ? { listedModels: listed } : {}) };
    fail("no_api", `no OpenAI-compatible API at ${shownBase}: POST /chat/completions answered HTTP ${chat.status} without a 'choices' list${excerpt(chat.text)}`, chatUrl, chat.status);
  }
  if (chat.status === 401 || chat.status === 403) keyRejected(chat.status, chatUrl);
  if ((chat.status === 404 || chat.status === 400) && namesModel(chat.text, config.model)) {
    fail("unknown_model", `unknown model '${config.model}' at ${hostOf(base)} (HTTP ${chat.status}${excerpt(chat.text)})`, chatUrl, chat.status);
  }
  if (chat.status === 404) {
    const which = models.status === 404 ? "/models and /chat/completions answer" : "/chat/completions answers";
    fail("no_api", `no OpenAI-compatible API at ${shownBase}: ${which} HTTP 404 (base URLs usually end in /v1)`, chatUrl, 404);
  }
  return otherStatus("POST", "/chat/completions", chat.status, chat.text, "note" in chat ? chat.note : "");
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** Does an error body say the model is the problem (its id, or OpenAI's `model_not_found` code)? */
function namesModel(text: string, model: string): boolean {
  return text.includes(model) || /model_not_found/.test(text);
}

/** The provider's own words, shortened to one line: `error.message` if it sent one, else the body. */
function excerpt(text: string, lead = ": "): string {
  const body = parseJson(text) as { error?: { message?: unknown } | string; message?: unknown } | undefined;
  const said = typeof body?.error === "object" && typeof body.error?.message === "string"
    ? body.error.message
    : typeof body?.error === "string"
      ? body.error
      : typeof body?.message === "string"
        ? body.message
        : text;
  const line = said.replace(/\s+/g, " ").trim();
  if (line === "") return "";
  return `${lead}${line.length > EXCERPT ? `${line.slice(0, EXCERPT - 3)}...` : line}`;
}

/** What went wrong on the way, from fetch's error: undici puts the socket error in `cause`. */
function connectionProblem(err: unknown, url: string, timeoutMs: number): string {
  const e = err as { name?: string; message?: string; cause?: unknown } | undefined;
  if (e?.name === "TimeoutError" || e?.name === "AbortError") return `no answer within ${(timeoutMs / 1000).toFixed(1)}s`;
  let cause: unknown = e?.cause ?? err;
  // Happy eyeballs tries every address; the aggregate's message can be empty, its parts are not.
  if (cause instanceof AggregateError && cause.errors.length > 0 && !cause.message) cause = cause.errors[0];
  const c = cause as { message?: string; code?: string } | undefined;
  const message = typeof c?.message === "string" && c.message !== "" ? c.message : "";
  const code = typeof c?.code === "string" ? c.code : "";
  // OpenSSL's own text is `<hex>:error:<id>:SSL routines:<function>:<reason>:<source file>:…`.
  const tls = /SSL routines:[^:]*:([^:]+)/.exec(message);
  if (tls) return `TLS failed: ${tls[1]}${code !== "" ? ` (${code})` : ""}`;
  // fetch never connects to the Fetch standard's "bad ports" (9, 25, 6000, …); neither would the adapters.
  if (message === "bad port") return `fetch refuses to connect to port ${portOf(url)} (a blocked port in the Fetch standard)`;
  const text = message !== "" ? (code !== "" && !message.includes(code) ? `${message} (${code})` : message) : code || String(err);
  return text.replace(/\s+/g, " ").trim();
}

function portOf(url: string): string {
  try {
    return new URL(url).port;
  } catch {
    return "?";
  }
}

function withoutCredentials(url: string): string {
  try {
    const u = new URL(url);
    if (u.username === "" && u.password === "") return url;
    u.username = "";
    u.password = "";
    return u.toString().replace(/\/+$/, "");
  } catch {
    return url;
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}
