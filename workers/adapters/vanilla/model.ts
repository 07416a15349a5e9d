/**
 * How the baseline reaches the gateway: one OpenAI Chat Completions call over `fetch` (base URL,
 * key, per-request timeout from the config) and the request body it sends (harness.md §7). No
 * retries, no streaming: the control in every comparison must not hide transport behaviour.
 */
import type { AdapterConfig, Json } from "../../../contract/protocol.ts";
import type { ToolSpec } from "../../../contract/tools/specs.ts";
import { LlmHttpError } from "../../../contract/texts.ts";

/** A transcript message as it goes on the wire. */
export type Message = Record<string, Json>;

export interface WireToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

export interface ChatReply {
  readonly content: string;
  readonly toolCalls: readonly WireToolCall[];
  readonly promptTokens: number;
  readonly completionTokens: number;
}

export type FetchLike = (url: string, init: RequestInit) => Promise<Response>;

/** Thrown for a non-2xx reply; its text is what the baseline reports as the item error. */
export { LlmHttpError };

function asCount(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

function parseToolCalls(raw: unknown): WireToolCall[] {
  if (!Array.isArray(raw)) return [];
  return raw.map((tc: any, index: number) => {
    const fn = tc?.function ?? {};
    const args = fn.arguments;
    return {
      id: typeof tc?.id === "string" && tc.id ? tc.id : `call_${index}`,
      name: typeof fn.name === "string" ? fn.name : "",
      arguments: typeof args === "string" ? args : args === undefined || args === null ? "{}" : JSON.stringify(args),
    };
  });
}

/**
 * The baseline's request body, keys in its order: `model, messages, temperature, stream`, then
 * `tools` and `tool_choice: "auto"` when tools are sent (key order is part of what gets billed).
 */
export function requestBody(config: AdapterConfig, messages: readonly Message[], tools?: readonly ToolSpec[]): Record<string, unknown> {
  const body: Record<string, unknown> = { model: config.model, messages, temperature: config.temperature, stream: false };
  if (tools !== undefined) {
    body.tools = tools;
    body.tool_choice = "auto";
  }
  return body;
}

/** POST one chat completion; the body is sent as given (key order is part of what gets billed). */
export async function chatCompletion(
  config: AdapterConfig,
  body: Record<string, unknown>,
  fetchImpl: FetchLike = fetch,
): Promise<ChatReply> {
  const response = await fetchImpl(`${config.baseUrl}/chat/completions`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${config.apiKey}` },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(config.requestTimeoutS * 1000),
  });
  const text = await response.text();
  if (!response.ok) throw new LlmHttpError(response.status, text);
  const data = JSON.parse(text);
  const message = data?.choices?.[0]?.message ?? {};
  return {
    content: typeof message.content === "string" ? message.content : "",
    toolCalls: parseToolCalls(message.tool_calls),
    promptTokens: asCount(data?.usage?.prompt_tokens),
    completionTokens: asCount(data?.usage?.completion_tokens),
  };
}
