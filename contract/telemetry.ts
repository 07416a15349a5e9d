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
};
const REMOVE = [
  "LANGSMITH_API_KEY",
  "LANGCHAIN_API_KEY",
  "LANGSMITH_ENDPOINT",
  "LANGCHAIN_ENDPOINT",
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
