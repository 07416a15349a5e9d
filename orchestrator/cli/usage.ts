/** Usage text, generated from the command registry so it cannot fall out of date. */
import type { Command } from "./command.ts";
import { COMMON_FLAGS } from "./common.ts";

/** What `arena --help` says beyond the commands: one place, so the README can quote it. */
export const ENVIRONMENT = [
  ["ARENA_LLM_MODE", "mock|live when --mode is not given (default: mock)"],
  ["OPENAI_BASE_URL, OPENAI_API_KEY", "the provider of a live run (also read from .env at the repo root)"],
  ["ARENA_MODEL, ARENA_TEMPERATURE", "the model and temperature every adapter gets"],
  ["ARENA_REQUEST_TIMEOUT_S", "per-request timeout each adapter applies"],
  ["ARENA_MAX_PROVIDER_FAULTS", "provider faults in a row that stop a run, exit 3 (default: 10; 0: never)"],
  ["ARENA_PRICE_INPUT_PER_M, ARENA_PRICE_OUTPUT_PER_M", "prices per million tokens, for the cost column"],
  ["ARENA_OUTPUT_ROOT", "moves runs/, checkpoints/ and results/ under this folder (default: the repo)"],
  ["ARENA_SANDBOX", "auto|bwrap|off: how workers are isolated (default: auto)"],
  ["ARENA_WORKER_BUNDLE", "on|off: start TypeScript workers from their bundle, or from the sources (default: on)"],
  ["ARENA_PROBE_SEED", "redraw a probe run's random values (arena probe)"],
  ["ARENA_CLI_BUNDLE", "on|off: start arena from the CLI's bundle, or from the sources (default: on)"],
] as const;

const EXIT_CODES = [
  ["0", "ok: mock results match the expectations; live results meet their thresholds / baseline; compare found no regression"],
  ["1", "a difference from the expectations (mock); a lane below its threshold or regressed from --baseline (live); a regression (compare)"],
  ["2", "a usage or input mistake (bad flag, bad ARENA_* value, unknown run or arena): nothing ran"],
  ["3", "infrastructure or the harness failed (provider unreachable or down, output not writable)"],
  ["129, 130, 143", "interrupted by SIGHUP / SIGINT / SIGTERM: resume with --resume"],
] as const;

const OUTPUTS = [
  ["runs/<run-id>/", "each run: run.json, journal.jsonl, records/, scorecards/, summary.md, logs/"],
  ["runs/latest", "the newest run; runs/summary.md: newest mock result per arena × framework"],
  ["results/", "live scorecards only, from a run with no infra or harness error"],
  ["stdout / stderr", "results and verdicts on stdout; progress, warnings and errors on stderr"],
] as const;

function table(rows: readonly (readonly [string, string])[]): string[] {
  const width = Math.max(...rows.map(([k]) => k.length));
  return rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v}`);
}

export function programUsage(commands: readonly Command[]): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  const lines = commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`);
  return [
    "usage: arena <command> [options]",
    "       arena --version",
    "",
    "commands:",
    ...lines,
    "",
    "environment:",
    ...table(ENVIRONMENT),
    "",
    "exit codes:",
    ...table(EXIT_CODES),
    "",
    "outputs:",
    ...table(OUTPUTS),
    "",
    "Run `arena <command> --help` for a command's options.",
    "",
  ].join("\n");
}

export function commandUsage(cmd: Command): string {
  const synopsis = [`arena ${cmd.name}`];
  const rows: [string, string][] = [];
  for (const name of cmd.common) {
    synopsis.push(COMMON_FLAGS[name].usage);
    rows.push([COMMON_FLAGS[name].usage.replace(/^\[|\](\.\.\.)?$/g, ""), COMMON_FLAGS[name].description]);
  }
  for (const [name, spec] of Object.entries(cmd.flags ?? {})) {
    const value = spec.type === "string" ? ` ${spec.valueName ?? "VALUE"}` : "";
    const flag = `--${name}${value}`;
    synopsis.push(`[${flag}]${spec.multiple ? "..." : ""}`);
    rows.push([spec.short ? `-${spec.short}, ${flag}` : flag, spec.description]);
  }
  if (cmd.positionals) synopsis.push(cmd.positionals);
  const width = Math.max(0, ...rows.map(([f]) => f.length));
  const options = rows.map(([f, d]) => `  ${f.padEnd(width)}  ${d}`);
  const details = cmd.details ? ["", ...cmd.details] : [];
  return [`usage: ${synopsis.join(" ")}`, "", cmd.summary, ...details, ...(options.length ? ["", "options:", ...options] : []), ""].join("\n");
}
