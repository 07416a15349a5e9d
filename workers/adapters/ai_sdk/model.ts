/**
 * How the AI SDK is pointed at the gateway: an OpenAI-compatible *chat* model object built from the
 * shared config. Never a bare string model id: the SDK resolves a string through its default
 * provider, the hosted Vercel AI Gateway (a network call to ai-gateway.vercel.sh).
 */
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { wrapLanguageModel, type LanguageModel } from "ai";
import type { AdapterConfig } from "../../../contract/protocol.ts";

/**
 * Retries per model call after the first attempt, set explicitly so an SDK upgrade cannot move
 * it: 2 is the SDK's own default. It retries 408/409/429/5xx and connection failures (honouring
 * Retry-After), never a 400, and never an aborted or timed-out attempt.
 */
export const MAX_RETRIES = 2;

/** The provider's name: the namespace of its `providerOptions` and of its metadata (never sent). */
const PROVIDER_NAME = "arena";

/**
 * `fetch` with every HTTP attempt bounded by `request_timeout_s`. The SDK's own `timeout` option
 * bounds a whole call or step (retries and tools included), not one attempt, so the bound is put
 * where the attempt happens; the SDK's signal (an abort of the whole run) still applies.
 */
function boundedFetch(timeoutMs: number): typeof fetch {
  return (input, init) => {
    const signals = [AbortSignal.timeout(timeoutMs), ...(init?.signal ? [init.signal] : [])];
    return fetch(input, { ...init, signal: AbortSignal.any(signals) });
  };
}

/** Told the arguments string the model sent for each tool call, before the SDK parses it. */
export type OnRawToolCall = (toolCallId: string, rawArguments: string) => void;

/**
 * One chat model per leg. `includeUsage` makes a streamed request carry
 * `stream_options.include_usage` (this adapter does not stream, but a stream must never go blind);
 * `supportsStructuredOutputs` makes a structured output a json_schema instead of a bare json_object
 * (unused here: no arena asks for one). The middleware only reads: the SDK keeps the parsed input
 * of a tool call and re-serialises it, and the canonical tools must run on the model's own text.
 */
export function chatModel(config: AdapterConfig, onRawToolCall: OnRawToolCall): LanguageModel {
  const provider = createOpenAICompatible({
    name: PROVIDER_NAME,
    baseURL: config.baseUrl,
    apiKey: config.apiKey,
    includeUsage: true,
    supportsStructuredOutputs: true,
    fetch: boundedFetch(config.requestTimeoutS * 1000),
  });
  return wrapLanguageModel({
    model: provider.chatModel(config.model),
    middleware: {
      specificationVersion: "v4",
      async wrapGenerate({ doGenerate }) {
        const result = await doGenerate();
        for (const part of result.content) if (part.type === "tool-call") onRawToolCall(part.toolCallId, part.input);
        return result;
      },
    },
  });
}
