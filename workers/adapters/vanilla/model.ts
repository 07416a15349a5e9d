/**
 * How the baseline reaches the gateway: one OpenAI Chat Completions call over `node:http`
 * (http.ts: base URL, key, per-request timeout from the config) and the request body it sends
 * (harness.md §7). No retries, no streaming: the control in every comparison must not hide
 * transport behaviour. A caller may hand it a `fetch` instead (the hostile fixtures wrap the
 * baseline with one rule broken that way); the request is then the one it always made with fetch.
 */
import type { AdapterConfig, Json } from "../../../contract/protocol.ts";
import type { ToolSpec } from "../../../contract/tools/specs.ts";
import { LlmHttpError } from "../../../contract/texts.ts";
import { postJson, type HttpReply } from "./http.ts";

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

/** The request made with a caller's fetch: the init it always had (the fixtures rewrite it). */
async function viaFetch(fetchImpl: FetchLike, url: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<HttpReply> {
  const response = await fetchImpl(url, { method: "POST", headers, body, signal: AbortSignal.timeout(timeoutMs) });
  return { status: response.status, text: await response.text() };
}

/** POST one chat completion; the body is sent as given (key order is part of what gets billed). */
export async function chatCompletion(config: AdapterConfig, body: Record<string, unknown>, fetchImpl?: FetchLike): Promise<ChatReply> {
  const url = `${config.baseUrl}/chat/completions`;
  const headers = { "Content-Type": "application/json", Authorization: `Bearer ${config.apiKey}` };
  const timeoutMs = config.requestTimeoutS * 1000;
  const json = JSON.stringify(body);
  const { status, text } = fetchImpl ? await viaFetch(fetchImpl, url, headers, json, timeoutMs) : await postJson(url, headers, json, timeoutMs);
  if (status < 200 || status > 299) throw new LlmHttpError(status, text);
  const data = JSON.parse(text);
  const message = data?.choices?.[0]?.message ?? {};
  return {
    content: typeof message.content === "string" ? message.content : "",
    toolCalls: parseToolCalls(message.tool_calls),
    promptTokens: asCount(data?.usage?.prompt_tokens),
    completionTokens: asCount(data?.usage?.completion_tokens),
  };
}
