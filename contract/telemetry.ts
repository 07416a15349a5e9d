/**
 * Frameworks that phone home by default are silenced in every worker: tests and mock runs may use
 * loopback only, and a live run's traffic must go to the gateway under test, nowhere else.
 */
const DISABLE: Record<string, string> = {
  OPENAI_AGENTS_DISABLE_TRACING: "1",
  LANGSMITH_TRACING: "false",
  LANGCHAIN_TRACING_V2: "false",
  LANGCHAIN_TRACING: "false",
  KAIBAN_TELEMETRY_OPT_OUT: "1",
  // Mastra: PostHog feature telemetry off; no provider-registry refresh from the network.
  MASTRA_TELEMETRY_DISABLED: "1",
  MASTRA_OFFLINE: "1",
  MASTRA_AUTO_REFRESH_PROVIDERS: "false",
  DO_NOT_TRACK: "1",
  // OpenTelemetry (Strands instruments its loop with @opentelemetry/api; Google ADK depends on the
  // SDK and OTLP exporters, and exports when an endpoint is set and a provider installed): no SDK,
  // no exporter of any signal, whatever a framework or the user's environment would set up.
  OTEL_SDK_DISABLED: "true",
  OTEL_TRACES_EXPORTER: "none",
  OTEL_METRICS_EXPORTER: "none",
  OTEL_LOGS_EXPORTER: "none",
  // ADK serialises every prompt and reply into its (no-op) spans unless told not to.
  ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS: "false",
  // Microsoft Agent Framework (agent_framework/observability.py, _telemetry.py in 1.23): no OTel
  // instrumentation, no "agent-framework-python/<version>" User-Agent or agent-framework-version
  // header on a client it builds, no feature-usage bitmask stamped into the User-Agent.
  ENABLE_INSTRUMENTATION: "false",
  AGENT_FRAMEWORK_USER_AGENT_DISABLED: "true",
  AGENT_FRAMEWORK_FEATURE_MASK_DISABLED: "true",
};
/**
 * Credentials that would let traffic leave for a vendor's service. The Vercel AI SDK resolves a
 * bare string model id through its hosted AI Gateway, authenticated by AI_GATEWAY_API_KEY or
 * VERCEL_OIDC_TOKEN: an adapter that slipped into that path must fail, not route a benchmark run to a third party. (The
 * AI SDK's telemetry has no environment switch: it is off per call and no integration is registered.)
 */
const REMOVE = [
  "LANGSMITH_API_KEY",
  "LANGCHAIN_API_KEY",
  "LANGSMITH_ENDPOINT",
  "LANGCHAIN_ENDPOINT",
  "AI_GATEWAY_API_KEY",
  "VERCEL_OIDC_TOKEN",
  // Where an OTLP exporter would send, and the credentials it would send with.
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
  "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT",
  "OTEL_EXPORTER_OTLP_HEADERS",
  "OTEL_EXPORTER_OTLP_TRACES_HEADERS",
  "OTEL_EXPORTER_OTLP_METRICS_HEADERS",
  "OTEL_EXPORTER_OTLP_LOGS_HEADERS",
  // ADK for Python (google-adk 2.13, telemetry/_agent_engine.py, google_cloud.py): on Vertex Agent
  // Engine it installs Cloud Trace / Monitoring exporters and stamps a telemetry User-Agent.
  "GOOGLE_CLOUD_AGENT_ENGINE_ID",
  "GOOGLE_CLOUD_AGENT_ENGINE_ENABLE_TELEMETRY",
  // Mastra Cloud / platform exporters authenticate with these.
  "MASTRA_CLOUD_ACCESS_TOKEN",
  "MASTRA_PLATFORM_ACCESS_TOKEN",
  "MASTRA_CLOUD_API_ENDPOINT",
];

export function disableTelemetry(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  for (const [k, v] of Object.entries(DISABLE)) env[k] = v;
  for (const k of REMOVE) delete env[k];
  return env;
}
