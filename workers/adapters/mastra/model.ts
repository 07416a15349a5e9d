/**
 * How a Mastra agent reaches the gateway: Mastra's own model router with an OpenAI-compatible
 * provider config (`{ providerId, modelId, url, apiKey }`), i.e. Chat Completions at
 * `<url>/chat/completions` with `model: <modelId>` on the wire. The shared controls travel as
 * per-call `modelSettings`, which Mastra forwards to the provider (temperature) or applies in its
 * own loop (the per-step timeout).
 */
import type { AdapterConfig } from "../../../contract/protocol.ts";

/** Not a provider Mastra knows, so the router treats it as a plain OpenAI-compatible endpoint. */
const PROVIDER_ID = "arena-gateway";

export function gatewayModel(config: AdapterConfig) {
  return { providerId: PROVIDER_ID, modelId: config.model, url: config.baseUrl, apiKey: config.apiKey };
}

/**
 * `timeout.stepMs` bounds one model call (Mastra's step) including its own retries, so a stalled
 * attempt is abandoned after `request_timeout_s` and no later attempt starts. Mastra's retry
 * count is left at its default (2): the entry measures the framework as shipped.
 */
export function modelSettings(config: AdapterConfig) {
  return { temperature: config.temperature, timeout: { stepMs: config.requestTimeoutS * 1000 } };
}
