/**
 * The run configuration (harness.md §1): one object, identical for every adapter in a run.
 * Exported environment variables win over `.env`; an empty value means the default, and any other
 * value that is not valid is refused (a typo must not become a different run). The API key is
 * carried here and handed to workers, but never written anywhere.
 */
import path from "node:path";
import { z } from "zod";
import { readDotenv } from "./dotenv.ts";
import { ConfigError, parseCount, parseDecimal, quoted, type NumberRange } from "./values.ts";

export { ConfigError, parseCount, parseDecimal, parsePositiveNumber } from "./values.ts";

export const ModeSchema = z.enum(["mock", "live"]);
export type Mode = z.infer<typeof ModeSchema>;

export interface ArenaConfig {
  readonly mode: Mode;
  /** Passed to every adapter; records say `mock-model` in mock mode. */
  readonly model: string;
  /** Replaced by the gateway URL in mock mode. */
  readonly baseUrl: string;
  /** Never written to any record, log or report. */
  readonly apiKey: string;
  /** USD per 1M prompt / completion tokens (the cost column only). */
  readonly priceInputPerM: number;
  readonly priceOutputPerM: number;
  readonly repeat: number;
  /** Bounds one HTTP attempt, not an item. */
  readonly requestTimeoutS: number;
  /** Max LLM calls per run leg. */
  readonly maxToolIterations: number;
  readonly temperature: number;
  /** Provider faults in a row that stop the run (`ARENA_MAX_PROVIDER_FAULTS`; run/breaker.ts); 0: never stop. */
  readonly maxProviderFaults: number;
}

export const DEFAULTS: ArenaConfig = {
  mode: "mock",
  model: "gpt-4.1-mini",
  baseUrl: "https://api.openai.com/v1",
  apiKey: "mock-key",
  priceInputPerM: 0.4,
  priceOutputPerM: 1.6,
  repeat: 1,
  requestTimeoutS: 60,
  maxToolIterations: 6,
  temperature: 0,
  // Ten: above what one failing item made in tests/cli/provider-faults.test.ts (3 per
  // always-failing call for openai_agents, which retries twice; 6 when it took six non-JSON
  // replies as turns), so one unlucky item does not stop a run, while a dead provider is caught
  // within a few items instead of after the whole matrix.
  maxProviderFaults: 10,
};

export const PLACEHOLDER_KEYS = new Set(["", "mock-key", "sk-replace-me"]);

export class LiveRefusedError extends Error {
  override readonly name = "LiveRefusedError";
  constructor() {
    super("refusing live run: set OPENAI_API_KEY (and OPENAI_BASE_URL / ARENA_MODEL)");
  }
}

/**
 * Upper bound for `ARENA_REQUEST_TIMEOUT_S`. A leg's deadline is this times the iteration budget
 * plus a margin (run/session.ts), and Node fires a timer longer than 2^31-1 ms (~24.8 days)
 * *at once*: a huge timeout would turn into an instant one. A day per HTTP attempt is plenty.
 */
export const MAX_REQUEST_TIMEOUT_S = 86_400;

/**
 * Upper bound for `--repeat`. Every cell of a run (items × repeat × adapters) is planned, journalled
 * and recorded, so `--repeat 1000000000` once grew the orchestrator to 2.2 GB before the first
 * worker started. A thousand passes over every arena is far more than any interval needs.
 */
export const MAX_REPEAT = 1000;

/** Merge `.env` (if present in `root`) under the real environment. */
export function readEnvironment(env: NodeJS.ProcessEnv, root: string): Record<string, string | undefined> {
  return { ...readDotenv(path.join(root, ".env")), ...env };
}

/**
 * The variables whose empty value is easy to mistake for a setting: `ARENA_MODEL=` in a `.env`
 * runs the default model, `ARENA_OUTPUT_ROOT=` writes into the repo. harness.md §1 makes an empty
 * value the default, so it is not refused — but each is said, one line apiece, before the run.
 */
export function emptyValueNotes(env: Readonly<Record<string, string | undefined>>): string[] {
  const defaults: Readonly<Record<string, string>> = { ARENA_MODEL: `the default model '${DEFAULTS.model}'`, ARENA_OUTPUT_ROOT: "the repository" };
  return Object.entries(defaults)
    .filter(([name]) => env[name] !== undefined && env[name]!.trim() === "")
    .map(([name, fallback]) => `note: ${name} is set but empty: using ${fallback} (empty means the default)`);
}

export interface ConfigOverrides {
  /** `--mode`; wins over `ARENA_LLM_MODE` (which is still checked). */
  readonly mode?: Mode;
  /** `--repeat`, already parsed (see {@link parseCount}). */
  readonly repeat?: number;
}

type Env = Record<string, string | undefined>;

/** The trimmed value, or undefined when unset or empty: the spec's "empty means the default". */
function present(env: Env, name: string): string | undefined {
  const value = env[name]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

function decimal(env: Env, name: string, fallback: number, range: NumberRange): number {
  const raw = present(env, name);
  return raw === undefined ? fallback : parseDecimal(raw, name, range);
}

function readMode(env: Env, override: Mode | undefined): Mode {
  const raw = present(env, "ARENA_LLM_MODE")?.toLowerCase();
  const fromEnv = raw === undefined ? undefined : ModeSchema.safeParse(raw);
  if (fromEnv && !fromEnv.success) throw new ConfigError("ARENA_LLM_MODE", `${quoted(raw!)} is not mock or live`);
  return override ?? fromEnv?.data ?? DEFAULTS.mode;
}

function readModel(env: Env): string {
  const model = present(env, "ARENA_MODEL");
  if (model === undefined) return DEFAULTS.model;
  // A pasted value with a newline or tab inside would be sent to the provider as the model id.
  if (/[\u0000-\u001f\u007f]/.test(model)) throw new ConfigError("ARENA_MODEL", "contains a control character (a newline or tab?)");
  return model;
}

function readBaseUrl(env: Env): string {
  const raw = present(env, "OPENAI_BASE_URL");
  if (raw === undefined) return DEFAULTS.baseUrl;
  const name = "OPENAI_BASE_URL";
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(name, `${quoted(raw)} is not a URL (expected e.g. https://api.openai.com/v1)`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(name, `${quoted(raw)} must be an http:// or https:// URL`);
  }
  // fetch refuses URLs with credentials, and they would be printed wherever the URL is.
  if (url.username !== "" || url.password !== "") {
    throw new ConfigError(name, "must not contain a user name or password (put the key in OPENAI_API_KEY)");
  }
  // Adapters append `/chat/completions` to the base URL: a query or fragment would end up in the middle.
  // (Tested on the text: URL drops an empty `?` or `#`, which would still be sent.)
  if (/[?#]/.test(raw)) throw new ConfigError(name, `${quoted(raw)} must not have a query or fragment`);
  return raw.replace(/\/+$/, "");
}

function readApiKey(env: Env): string {
  const key = present(env, "OPENAI_API_KEY") ?? DEFAULTS.apiKey;
  // It goes into an Authorization header, where such a character makes every request throw. The
  // value itself is never shown.
  if (/[\s\u0000-\u001f\u007f]/.test(key)) throw new ConfigError("OPENAI_API_KEY", "contains whitespace or a control character (value not shown)");
  return key;
}

/** Bounded so a typo cannot mean "never" by accident: 0 is the way to say that. */
export const MAX_PROVIDER_FAULTS_LIMIT = 100_000;

function maxProviderFaults(env: Env): number {
  const raw = present(env, "ARENA_MAX_PROVIDER_FAULTS");
  return raw === undefined ? DEFAULTS.maxProviderFaults : parseCount(raw, "ARENA_MAX_PROVIDER_FAULTS", { min: 0, max: MAX_PROVIDER_FAULTS_LIMIT });
}

/**
 * Build the config from the environment (harness.md §1). Every value read is checked: numbers
 * must be plain decimals in range, the mode mock or live, the base URL http(s). An unset or
 * empty value means the default. Throws {@link ConfigError} for a bad value (naming the
 * variable, never the key) and {@link LiveRefusedError} for a live run without a real key.
 */
export function loadArenaConfig(env: Env, overrides: ConfigOverrides = {}): ArenaConfig {
  const mode = readMode(env, overrides.mode);
  const repeat = overrides.repeat ?? DEFAULTS.repeat;
  if (!Number.isSafeInteger(repeat) || repeat < 1 || repeat > MAX_REPEAT) {
    throw new ConfigError("--repeat", `${repeat} must be a whole number between 1 and ${MAX_REPEAT}`);
  }
  const config: ArenaConfig = {
    mode,
    model: readModel(env),
    baseUrl: readBaseUrl(env),
    // In mock mode the key is never used, so it is not even read: a mock run needs no key.
    apiKey: mode === "mock" ? "mock-key" : readApiKey(env),
    priceInputPerM: decimal(env, "ARENA_PRICE_INPUT_PER_M", DEFAULTS.priceInputPerM, { min: 0 }),
    priceOutputPerM: decimal(env, "ARENA_PRICE_OUTPUT_PER_M", DEFAULTS.priceOutputPerM, { min: 0 }),
    repeat,
    requestTimeoutS: decimal(env, "ARENA_REQUEST_TIMEOUT_S", DEFAULTS.requestTimeoutS, {
      min: 0,
      exclusiveMin: true,
      max: MAX_REQUEST_TIMEOUT_S,
    }),
    maxToolIterations: DEFAULTS.maxToolIterations,
    temperature: decimal(env, "ARENA_TEMPERATURE", DEFAULTS.temperature, { min: 0, max: 2 }),
    maxProviderFaults: maxProviderFaults(env),
  };
  if (mode === "live" && PLACEHOLDER_KEYS.has(config.apiKey)) throw new LiveRefusedError();
  return config;
}

export function costUsd(config: ArenaConfig, promptTokens: number, completionTokens: number): number {
  return (promptTokens / 1e6) * config.priceInputPerM + (completionTokens / 1e6) * config.priceOutputPerM;
}
