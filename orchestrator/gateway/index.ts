/** The deterministic OpenAI-compatible mock gateway (shared spec gateway.md), and its live twin, the recording proxy. */
export { createGateway, createPipeline, type Gateway, type GatewayAddress, type PipelineOptions } from "./server.ts";
export { createProxy, mintWorkerKey, UpstreamUrlError, WORKER_KEY_PREFIX, type ProxyOptions } from "./proxy.ts";
export { scriptedAnswerer, type Answerer, type Completion } from "./answer.ts";
export { upstreamAnswerer, type UpstreamOptions } from "./upstream.ts";
export type { GatewayOptions, ScriptSource } from "./options.ts";
export {
  Recorder,
  nowMs,
  SpillReadError,
  DEFAULT_RECORD_BUDGET_BYTES,
  type RecorderMemory,
  type RecorderOptions,
  type SpillFailure,
  type AttemptOutcome,
  type AttemptRecord,
  type ProviderFault,
  type GatewayRecords,
  type RequestRecord,
  type ResponseMessageRecord,
  type ServedRecord,
  type ServedUsage,
} from "./recorder.ts";
export { PROVIDER_FAULTS, faultOfStatus } from "./record-types.ts";
export { fetchRecords } from "./records-client.ts";
export { IDENTITY_REFUSED_BODY, type IdentityPolicy, type RefusedRequest } from "./identity.ts";
export { estimate, promptTokens, promptText, completionTokens, type Usage } from "./usage.ts";
export { planReply, BadRequestError, type ReplyPlan } from "./reply.ts";
export { compileScript, type CompiledScript } from "./script.ts";
