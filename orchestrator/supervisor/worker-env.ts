/**
 * What a worker inherits of the orchestrator's environment: an allow-list, not the whole of it.
 *
 * The orchestrator's environment holds what no worker may see or be told apart by: the provider
 * key (`ARENA_API_KEY`, a shell's `OPENAI_API_KEY`), the run's own settings (`ARENA_*`, among
 * them `ARENA_PROBE_SEED`, set only when a probe run is reproduced: a worker that saw it would know
 * it is being probed), and proxies (`HTTP_PROXY`: some clients would route the loopback gateway
 * through one). A worker is handed everything it needs explicitly — its config over the protocol,
 * TMPDIR, the compile cache, telemetry switches (spawn.ts) — so only what any process needs to run
 * crosses: where programs are, the home folder, who the user is, and the locale and time zone
 * (frameworks format with them).
 */
const INHERITED = new Set(["PATH", "HOME", "USER", "LOGNAME", "LANG", "LANGUAGE", "TZ"]);

export function inheritedEnv(env: Readonly<Record<string, string | undefined>> = process.env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined && (INHERITED.has(name) || name.startsWith("LC_"))) out[name] = value;
  return out;
}
