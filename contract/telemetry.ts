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
  DO_NOT_TRACK: "1",
  // OpenTelemetry (Google ADK depends on its SDK and OTLP exporters; it exports only when an
  // OTEL_EXPORTER_OTLP_* endpoint is set and a provider is installed): no SDK, no exporter.
  OTEL_SDK_DISABLED: "true",
  OTEL_TRACES_EXPORTER: "none",
  OTEL_METRICS_EXPORTER: "none",
  OTEL_LOGS_EXPORTER: "none",
  // ADK serialises every prompt and reply into its (no-op) spans unless told not to.
  ADK_CAPTURE_MESSAGE_CONTENT_IN_SPANS: "false",
};
const REMOVE = [
  "LANGSMITH_API_KEY",
  "LANGCHAIN_API_KEY",
  "LANGSMITH_ENDPOINT",
  "LANGCHAIN_ENDPOINT",
  "OTEL_EXPORTER_OTLP_ENDPOINT",
  "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
  "OTEL_EXPORTER_OTLP_METRICS_ENDPOINT",
  "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT",
];

export function disableTelemetry(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  for (const [k, v] of Object.entries(DISABLE)) env[k] = v;
  for (const k of REMOVE) delete env[k];
  return env;
}
