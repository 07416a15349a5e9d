/**
 * The model object every `openai_agents` agent runs on: the SDK's Chat Completions model over an
 * `OpenAI` client pointed at the arena's gateway (never the Responses API, never the SDK's default
 * provider, whose cached client would ignore a later base URL), and the model settings every agent
 * gets. `openai` is pinned to the release `@openai/agents` itself resolves, so pnpm links one copy
 * for both.
 */
import { OpenAIChatCompletionsModel, setTracingDisabled, type ModelSettings } from "@openai/agents";
import OpenAI from "openai";
import type { AdapterConfig } from "../../../contract/protocol.ts";

// Tracing posts to api.openai.com by default; the worker host also sets OPENAI_AGENTS_DISABLE_TRACING=1.
setTracingDisabled(true);

/**
 * Retries the `OpenAI` client may make per model call, set explicitly so an SDK upgrade cannot move
 * it. 2 is the client's own default (what a user of the SDK gets): 408/409/429/5xx and connection
 * errors/timeouts are retried with backoff (honouring `Retry-After`), a 400 never is. The baseline
 * has no retry by design; how each adapter treats 429/500 is a recorded finding, not a gate.
 */
export const MAX_RETRIES = 2;

/**
 * One Chat Completions model per build: base URL, key, per-attempt timeout and retries from the
 * config. `fetch` replaces the client's transport (the hostile fixtures' way to edit the wire); a
 * real build leaves it unset.
 */
export function chatModel(config: AdapterConfig, fetch?: typeof globalThis.fetch): OpenAIChatCompletionsModel {
  const client = new OpenAI({
    baseURL: config.baseUrl,
    apiKey: config.apiKey,
    timeout: config.requestTimeoutS * 1000,
    maxRetries: MAX_RETRIES,
    ...(fetch ? { fetch } : {}),
  });
  return new OpenAIChatCompletionsModel(client, config.model);
}

/** Only the shared temperature: no other sampling parameter reaches the wire. */
export function modelSettings(config: AdapterConfig): ModelSettings {
  return { temperature: config.temperature };
}
