/** The deterministic OpenAI-compatible mock gateway (shared spec gateway.md). */
export { createGateway, type Gateway, type GatewayAddress } from "./server.ts";
export type { GatewayOptions, ScriptSource } from "./options.ts";
export {
  Recorder,
  SpillReadError,
  DEFAULT_RECORD_BUDGET_BYTES,
  type RecorderMemory,
  type RecorderOptions,
  type SpillFailure,
  type AttemptOutcome,
  type AttemptRecord,
  type GatewayRecords,
  type RequestRecord,
  type ResponseMessageRecord,
  type ServedRecord,
  type ServedUsage,
} from "./recorder.ts";
export { fetchRecords } from "./records-client.ts";
export { estimate, promptTokens, promptText, completionTokens, type Usage } from "./usage.ts";
export { planReply, BadRequestError, type ReplyPlan } from "./reply.ts";
export { compileScript, type CompiledScript } from "./script.ts";
