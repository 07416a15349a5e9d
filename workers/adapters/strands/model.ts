/**
 * How Strands is pointed at the gateway: the SDK's OpenAI provider in Chat Completions mode (its
 * default is the Responses API, which the gateway does not serve), over an `openai` client built
 * by the provider from our base URL, key, per-attempt timeout and retry count. Only the shared
 * temperature is configured; the provider adds `stream: true` and `stream_options.include_usage`
 * itself (it always streams).
 */
import { findPackageJSON } from "node:module";
import { readFileSync } from "node:fs";
import type { Message, ModelStreamEvent, StreamOptions } from "@strands-agents/sdk";
import { OpenAIModel } from "@strands-agents/sdk/models/openai";
import type { AdapterConfig } from "../../../contract/protocol.ts";

/**
 * Retries the `openai` client may make per model call, set explicitly so an upgrade cannot move
 * it: 2 is the client's own default (what a Strands user gets). Strands adds its own retry on top
 * for throttling only (README.md, transport).
 */
export const MAX_RETRIES = 2;

function versionOf(pkg: string): string | undefined {
  try {
    const file = findPackageJSON(pkg, import.meta.url);
    return file ? JSON.parse(readFileSync(file, "utf8")).version : undefined;
  } catch {
    return undefined;
  }
}

/** `@strands-agents/sdk <version>`; `(not installed)` without it (never throws, never imports the SDK). */
export function sdkVersion(): string {
  const sdk = versionOf("@strands-agents/sdk");
  return sdk ? `@strands-agents/sdk ${sdk}` : "(not installed)";
}

/**
 * The SDK's provider with one repair (README.md, findings): its Chat Completions adapter opens a
 * content block per tool call but closes them all only at `finish_reason`, while the SDK's stream
 * aggregator keeps one block open at a time, resetting it at every start. So a turn with several
 * tool calls kept only the last one (the others were never run nor replayed), and text before a
 * tool call was lost. Closing the open block before the next one starts, and dropping the surplus
 * closes at the end, gives the aggregator the sequence it expects; nothing else changes.
 */
export class SequencedOpenAIModel extends OpenAIModel {
  override async *stream(messages: Message[], options?: StreamOptions): AsyncIterable<ModelStreamEvent> {
    let open = false;
    for await (const event of super.stream(messages, options)) {
      if (event.type === "modelContentBlockStartEvent") {
        if (open) yield { type: "modelContentBlockStopEvent" };
        open = true;
      } else if (event.type === "modelContentBlockStopEvent") {
        if (!open) continue;
        open = false;
      }
      yield event;
    }
  }
}

/** One provider per build; it holds no conversation state (Chat Completions is stateless). */
export function chatModel(config: AdapterConfig, Provider: typeof OpenAIModel = SequencedOpenAIModel): OpenAIModel {
  return new Provider({
    api: "chat",
    modelId: config.model,
    apiKey: config.apiKey,
    temperature: config.temperature,
    clientConfig: {
      baseURL: config.baseUrl,
      timeout: config.requestTimeoutS * 1000,
      maxRetries: MAX_RETRIES,
    },
  });
}
