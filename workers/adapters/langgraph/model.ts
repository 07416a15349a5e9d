/**
 * The chat model: LangChain's `ChatOpenAI` on the Chat Completions API, pointed at the run's base
 * URL with every shared control taken from the config (harness.md §1–§2) and nothing else set.
 */
import { ChatOpenAI } from "@langchain/openai";
import type { AdapterConfig } from "../../../contract/protocol.ts";

/**
 * Retries per LLM call after the first attempt (LangChain's AsyncCaller; the OpenAI client inside is
 * built with `maxRetries: 0`). One retry absorbs a transient 429/5xx without letting one call
 * run for minutes: LangChain's default is 6 with exponential backoff, so a stalled gateway would
 * cost up to 7 × `request_timeout_s`. LangChain never retries a 400 (its no-retry status list).
 */
export const MAX_RETRIES = 1;

export function chatModel(config: AdapterConfig): ChatOpenAI {
  return new ChatOpenAI({
    model: config.model,
    apiKey: config.apiKey,
    temperature: config.temperature,
    // Per HTTP attempt (the OpenAI client's own timeout), in milliseconds.
    timeout: config.requestTimeoutS * 1000,
    maxRetries: MAX_RETRIES,
    // `false` also sets `disableStreaming`: no request streams, even under a streaming graph mode.
    streaming: false,
    configuration: { baseURL: config.baseUrl },
  });
}
