/**
 * The run configuration (harness.md §1): one object, identical for every adapter in a run.
 * Exported environment variables win over `.env`; an empty or unparseable number falls back to
 * its default. The API key is carried here and handed to workers, but never written anywhere.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { parseDotenv } from "./dotenv.ts";

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
};

export const PLACEHOLDER_KEYS = new Set(["", "mock-key", "sk-replace-me"]);

export class LiveRefusedError extends Error {
  override readonly name = "LiveRefusedError";
  constructor() {
    super("refusing live run: set OPENAI_API_KEY (and OPENAI_BASE_URL / ARENA_MODEL)");
  }
}

function num(raw: string | undefined, fallback: number): number {
  if (raw === undefined || raw.trim() === "") return fallback;
  const n = Number(raw.trim());
  return Number.isFinite(n) ? n : fallback;
}

/** Merge `.env` (if present in `root`) under the real environment. */
export function readEnvironment(env: NodeJS.ProcessEnv, root: string): Record<string, string | undefined> {
  const file = path.join(root, ".env");
  const fromFile = existsSync(file) ? parseDotenv(readFileSync(file, "utf8"), file) : {};
  return { ...fromFile, ...env };
}

export interface ConfigOverrides {
  readonly mode?: Mode;
  readonly repeat?: number;
}

/** Build the config; throws {@link LiveRefusedError} for a live run without a real key. */
export function loadArenaConfig(env: Record<string, string | undefined>, overrides: ConfigOverrides = {}): ArenaConfig {
  const modeRaw = (overrides.mode ?? env.ARENA_LLM_MODE?.trim().toLowerCase()) || DEFAULTS.mode;
  const mode = ModeSchema.catch(DEFAULTS.mode).parse(modeRaw);
  const apiKey = env.OPENAI_API_KEY?.trim() || DEFAULTS.apiKey;
  const config: ArenaConfig = {
    mode,
    model: env.ARENA_MODEL?.trim() || DEFAULTS.model,
    baseUrl: (env.OPENAI_BASE_URL?.trim() || DEFAULTS.baseUrl).replace(/\/+$/, ""),
    apiKey: mode === "mock" ? "mock-key" : apiKey,
    priceInputPerM: num(env.ARENA_PRICE_INPUT_PER_M, DEFAULTS.priceInputPerM),
    priceOutputPerM: num(env.ARENA_PRICE_OUTPUT_PER_M, DEFAULTS.priceOutputPerM),
    repeat: overrides.repeat ?? DEFAULTS.repeat,
    requestTimeoutS: num(env.ARENA_REQUEST_TIMEOUT_S, DEFAULTS.requestTimeoutS),
    maxToolIterations: DEFAULTS.maxToolIterations,
    temperature: num(env.ARENA_TEMPERATURE, DEFAULTS.temperature),
  };
  if (mode === "live" && PLACEHOLDER_KEYS.has(apiKey)) throw new LiveRefusedError();
  return config;
}

export function costUsd(config: ArenaConfig, promptTokens: number, completionTokens: number): number {
  return (promptTokens / 1e6) * config.priceInputPerM + (completionTokens / 1e6) * config.priceOutputPerM;
}
