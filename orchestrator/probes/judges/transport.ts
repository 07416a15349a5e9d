/**
 * Transport (probes.md §11), judged from the gateway's attempt records — every completions
 * attempt with its arrival time, status, outcome and, when the client gave up, the time it closed
 * the connection (gateway.md §9–§10) — never from the adapter's own account.
 */
import type { AttemptRecord } from "../../gateway/recorder.ts";
import type { ItemRecord } from "../../report/record.ts";
import { isProviderFaultError } from "../../run/index.ts";
import { drawTransport } from "../draws.ts";
import type { WireRun } from "../wire-types.ts";

/**
 * The gateway stamps `at` when the request arrives, a moment after the client started its clock;
 * the client's timer fires on its own loop. A hold this much under the budget is still "≥ T".
 */
export const HOLD_SLACK_S = 0.1;
export const RATIO_BOUNDS = [1.7, 2.3] as const;

export type Run = Pick<WireRun, "record" | "attemptLog" | "bodies" | "seed">;

/** The item a transport run is measured on, as drawn for the run's seed (draws.ts). */
export function measured(run: Run): ItemRecord | undefined {
  const id = drawTransport(run.seed).measured.id;
  return run.record.items.find((i) => i.item_id === id);
}

/** It answered what the script says (drawn with the run's seed). */
export function answered(run: Run): boolean {
  return (measured(run)?.output_text ?? "").includes(drawTransport(run.seed).answer);
}

/** Attempts that met the stall (the warm-up's injected fault excluded). */
export function stalled(run: Run): readonly AttemptRecord[] {
  return run.attemptLog.filter((a) => a.outcome !== "faulted");
}

function unavailable(run: Run): string[] {
  const adapterRecord = run.record;
  if (!adapterRecord.available) return [`${adapterRecord.framework} unavailable (${adapterRecord.unavailable_kind}): ${adapterRecord.reason}`];
  if (!measured(run)) return ["the item did not run"];
  return [];
}

export function outcomeText(run: Run): string {
  const it = measured(run);
  if (!it) return "no item";
  if (it.error) return `error ${JSON.stringify(it.error.slice(0, 120))}`;
  return answered(run) ? "answered" : `output ${JSON.stringify(it.output_text.slice(0, 80))}`;
}

/**
 * Healthy control: answered, and every attempt served (nothing retried). A single agent answers
 * this item in exactly one attempt; a pipeline variant makes one call per stage, each served once.
 */
export function healthyViolations(run: Run, options: { pipeline?: boolean } = {}): string[] {
  const out = unavailable(run);
  if (out.length) return out;
  if (!answered(run)) out.push(`not answered: ${outcomeText(run)}`);
  const n = run.attemptLog.length;
  const served = run.bodies.length;
  if (!options.pipeline && n !== 1) out.push(`${n} attempts on a healthy gateway (expected exactly 1)`);
  if (n !== served) out.push(`${n} attempts for ${served} served requests on a healthy gateway (a retry)`);
  return out;
}

/** `faults = [400, 200]`: a 400 is never retried. */
export function badRequestViolations(run: Run): string[] {
  const out = unavailable(run);
  if (out.length) return out;
  const n = run.attemptLog.length;
  if (n !== 1) out.push(`a 400 was retried: ${n} attempts (${run.attemptLog.map((a) => a.status ?? a.outcome).join(", ")})`);
  return out;
}

/**
 * `faults = [429, 200]`: answered after a retry (≥ 2 attempts), or the item errors. Never an
 * answer, or an empty "success", without a served request.
 */
export function transientViolations(run: Run): string[] {
  const out = unavailable(run);
  if (out.length) return out;
  // The adapter's own error only: the harness notes a provider fault after an empty answer as one too.
  const error = measured(run)!.error;
  if (error && !isProviderFaultError(error)) return out;
  if (run.bodies.length === 0) out.push(`succeeded with no error and no served request after a 429 (${outcomeText(run)})`);
  else if (!answered(run)) out.push(`neither answered nor errored after a 429 (${outcomeText(run)})`);
  else if (run.attemptLog.length < 2) out.push(`answered in ${run.attemptLog.length} attempt(s) although the first was a 429`);
  return out;
}

/** Instrument self-test, baseline, `faults = [429, 429, 200]`: one attempt, nothing served. */
export function selfTestViolations(run: Run): string[] {
  const out = unavailable(run);
  if (out.length) return out;
  if (run.attemptLog.length !== 1) out.push(`${run.attemptLog.length} attempts (expected 1)`);
  if (run.bodies.length !== 0) out.push(`${run.bodies.length} requests recorded for a faulted attempt`);
  if (run.attemptLog[0]?.status !== 429) out.push(`first attempt got ${run.attemptLog[0]?.status} (expected the injected 429)`);
  return out;
}

/** Baseline pin, `faults = [429, 200]`: one attempt and an error (the control has no retry). */
export function baselinePinViolations(run: Run): string[] {
  const out = unavailable(run);
  if (out.length) return out;
  if (run.attemptLog.length !== 1) out.push(`${run.attemptLog.length} attempts (the baseline does not retry)`);
  if (!measured(run)!.error) out.push(`no error after a 429 (${outcomeText(run)})`);
  return out;
}

/** Seconds from an attempt's arrival to the client closing it; null if the client never gave up. */
export function holdSeconds(a: AttemptRecord): number | null {
  return a.closedAt === null ? null : (a.closedAt - a.at) / 1000;
}

/**
 * Timeout honoured (`stallSeconds` S, `request_timeout_s` T): every attempt was abandoned by the
 * client after ≥ T and < T + 1 s, and the item ended long before the stall would have.
 */
export function timeoutHonouredViolations(run: Run, timeoutS: number, stallS: number): string[] {
  const out = unavailable(run);
  if (out.length) return out;
  const all = stalled(run);
  if (all.length === 0) out.push("no attempt reached the gateway");
  all.forEach((a, i) => {
    const hold = holdSeconds(a);
    if (hold === null) {
      const waited = a.endedAt === null ? "still held when the run ended" : `held ${((a.endedAt - a.at) / 1000).toFixed(2)} s until served`;
      out.push(`attempt ${i + 1}: the client never gave up (${a.outcome}; ${waited}) — request_timeout_s ${timeoutS} not honoured`);
    } else if (hold < timeoutS - HOLD_SLACK_S) out.push(`attempt ${i + 1}: abandoned after ${hold.toFixed(2)} s, before the ${timeoutS} s budget`);
    else if (hold >= timeoutS + 1) out.push(`attempt ${i + 1}: held ${hold.toFixed(2)} s, ≥ budget ${timeoutS} s + 1 s`);
  });
  const latency = measured(run)!.latency_s;
  if (latency >= stallS / 2) out.push(`the item took ${latency.toFixed(2)} s against a ${stallS} s stall (not long before it)`);
  return out;
}

export function meanHold(run: Run): number | null {
  const holds = stalled(run).map(holdSeconds);
  if (holds.length === 0 || holds.some((h) => h === null)) return null;
  return (holds as number[]).reduce((a, b) => a + b, 0) / holds.length;
}

/** Doubling T doubles the hold (catches a hard-coded short timeout). */
export function timeoutDoublesViolations(runT: Run, run2T: Run): string[] {
  const out = [...unavailable(runT), ...unavailable(run2T)];
  if (out.length) return out;
  const a = meanHold(runT);
  const b = meanHold(run2T);
  if (a === null || b === null) return [`a hold time is missing (an attempt the client never gave up): T ${a}, 2T ${b}`];
  const ratio = b / a;
  if (ratio < RATIO_BOUNDS[0] || ratio > RATIO_BOUNDS[1]) {
    out.push(`hold time ratio 2T/T = ${ratio.toFixed(2)} (${b.toFixed(2)} s / ${a.toFixed(2)} s) outside [${RATIO_BOUNDS.join(", ")}]`);
  }
  return out;
}
