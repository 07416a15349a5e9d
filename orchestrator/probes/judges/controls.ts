/**
 * Shared controls (probes.md §8) and streaming (§9), as pure checks over served request bodies.
 * The mock gateway strips control fields before it matches a scripted turn, so a wrong model, a
 * library-default temperature or an extra sampling parameter is invisible in mock mode unless it
 * is read off the wire.
 */
import type { Body, WireRun } from "../wire.ts";
import { runViolations } from "./contract.ts";

/** The keys the baseline sends: every other key needs a recorded exception with its reason. */
export const ENVELOPE = ["model", "messages", "temperature", "stream", "tools", "tool_choice"] as const;

export interface WireException {
  readonly key: string;
  readonly reason: string;
}

/**
 * §8 over every request of `runs` (one adapter): the canary model exactly, the configured
 * temperature numerically, keys within the envelope plus recorded exceptions, `stream_options`
 * only with `stream: true` and `include_usage: true`; and every recorded exception seen at least
 * once (else it is stale).
 */
export function controlsViolations(
  runs: readonly WireRun[],
  /** The controls each run was given: one for every run, or per run (runs of one case may come from processes that drew different canaries). */
  controlsOf: { readonly model: string; readonly temperature: number } | ((run: WireRun) => { readonly model: string; readonly temperature: number }),
  exceptions: readonly WireException[],
): string[] {
  const out: string[] = [];
  const allowed = new Set<string>([...ENVELOPE, ...exceptions.map((e) => e.key)]);
  const seen = new Set<string>();
  for (const e of exceptions) {
    if (!e.reason?.trim()) out.push(`wire exception ${JSON.stringify(e.key)} is recorded without a reason`);
    if ((ENVELOPE as readonly string[]).includes(e.key) || e.key === "stream_options") {
      out.push(`wire exception ${JSON.stringify(e.key)} names a key the envelope already governs`);
    }
  }
  for (const run of runs) {
    const base = runViolations(run);
    if (base.length > 0) {
      out.push(...base);
      continue;
    }
    const arena = run.record.items[0]?.item_id ?? "?";
    const controls = typeof controlsOf === "function" ? controlsOf(run) : controlsOf;
    run.bodies.forEach((body, i) => {
      const at = `${arena} request ${i + 1}/${run.bodies.length}`;
      if (body.model !== controls.model) {
        out.push(`${at}: model ${JSON.stringify(body.model ?? null)}, configured ${JSON.stringify(controls.model)}`);
      }
      if (!("temperature" in body)) out.push(`${at}: temperature missing, configured ${controls.temperature}`);
      else if (typeof body.temperature !== "number" || body.temperature !== controls.temperature) {
        out.push(`${at}: temperature ${JSON.stringify(body.temperature)}, configured ${controls.temperature}`);
      }
      for (const key of Object.keys(body)) {
        seen.add(key);
        if (key === "stream_options") {
          if (body.stream !== true || body.stream_options?.include_usage !== true) {
            out.push(`${at}: stream_options ${JSON.stringify(body.stream_options)} is allowed only with stream: true and include_usage: true`);
          }
        } else if (!allowed.has(key)) {
          out.push(`${at}: ${JSON.stringify(key)} is outside the baseline's envelope and no exception is recorded for it`);
        }
      }
    });
  }
  for (const e of exceptions) {
    if (!seen.has(e.key)) out.push(`recorded wire exception ${JSON.stringify(e.key)} never appears on the wire (stale; recorded reason: ${e.reason})`);
  }
  return out;
}

/** §9: a request that streams without asking for usage (a real provider then returns none). */
export function isBlindStream(body: Body): boolean {
  return Boolean(body.stream) && body.stream_options?.include_usage !== true;
}

/** §9 over every request of a run. */
export function streamingViolations(run: WireRun): string[] {
  const out: string[] = [];
  run.bodies.forEach((body, i) => {
    if (isBlindStream(body)) {
      out.push(
        `request ${i + 1}/${run.bodies.length}: streams without stream_options.include_usage (stream_options: ${JSON.stringify(body.stream_options ?? null)}) — a real provider would return no usage`,
      );
    }
  });
  return out;
}
