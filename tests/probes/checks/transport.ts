/**
 * Transport (probes.md §11): judged from the gateway's attempt records — every completions
 * attempt with its arrival time, status, outcome and, when the client gave up, the time it closed
 * the connection (gateway.md §9–§10) — never from the adapter's own account.
 */
import type { AttemptRecord } from "../../../orchestrator/gateway/recorder.ts";
import type { ItemRecord } from "../../../orchestrator/report/record.ts";
import type { InlineArena, ProbeRun } from "../../../orchestrator/probes/wire.ts";

export const ANSWER = "The Eiffel Tower is 330 metres tall.";

/** The transport arena of probes.md §11. */
export const TRANSPORT_ARENA: InlineArena = {
  id: "transport",
  tools: ["search"],
  prompt: "Answer the question concisely.",
  items: [{ id: "tr-01", input: "How tall is the Eiffel Tower?" }],
  script: { default: { turns: [{ content: ANSWER }] } },
};

/**
 * The hang runs (timeout probes): the same arena with a warm-up item first. The gateway answers the
 * run's first attempt with an injected 400 (`faults = [400]`, never retried — the bad-request case
 * gates that), so every client has made one request before the measured one. Without it a cold HTTP
 * stack (the baseline's fetch sets up its parser and connection on first use) spends part of the
 * first attempt's budget before the request reaches the gateway, and the gateway would see a hold
 * shorter than the budget the client actually honoured.
 */
export const HANG_ARENA: InlineArena = {
  ...TRANSPORT_ARENA,
  id: "transport_hang",
  items: [{ id: "tr-00-warm-up", input: "Warm-up: what is the Eiffel Tower?" }, ...TRANSPORT_ARENA.items],
};
export const HANG_FAULTS: readonly number[] = [400];
export const MEASURED_ITEM = "tr-01";

/**
 * The gateway stamps `at` when the request arrives, a moment after the client started its clock;
 * the client's timer fires on its own loop. A hold this much under the budget is still "≥ T".
 */
export const HOLD_SLACK_S = 0.1;

type Run = Pick<ProbeRun, "framework" | "gateway">;

function item(run: Run): ItemRecord | undefined {
  return run.framework.items.find((i) => i.item_id === MEASURED_ITEM);
}

export function answered(run: Run): boolean {
  return (item(run)?.output_text ?? "").includes(ANSWER);
}

function attempts(run: Run): readonly AttemptRecord[] {
  return run.gateway.attempts;
}

/** Attempts that met the stall (the warm-up's injected fault excluded). */
function stalled(run: Run): readonly AttemptRecord[] {
  return run.gateway.attempts.filter((a) => a.outcome !== "faulted");
}

function unavailable(run: Run): string[] {
  const fw = run.framework;
  if (!fw.available) return [`${fw.framework} unavailable (${fw.unavailable_kind}): ${fw.reason}`];
  if (!item(run)) return ["the item did not run"];
  return [];
}

const outcomeText = (run: Run) => {
  const it = item(run);
  if (!it) return "no item";
  if (it.error) return `error ${JSON.stringify(it.error.slice(0, 120))}`;
  return answered(run) ? "answered" : `output ${JSON.stringify(it.output_text.slice(0, 80))}`;
};

/**
 * Healthy control: answered, and every attempt served (nothing retried). A single agent answers
 * this item in exactly one attempt; a pipeline variant makes one call per stage, each served once.
 */
export function healthyViolations(run: Run, options: { pipeline?: boolean } = {}): string[] {
  const out = unavailable(run);
  if (out.length) return out;
  if (!answered(run)) out.push(`not answered: ${outcomeText(run)}`);
  const n = attempts(run).length;
  const served = run.gateway.requests.length;
  if (!options.pipeline && n !== 1) out.push(`${n} attempts on a healthy gateway (expected exactly 1)`);
  if (n !== served) out.push(`${n} attempts for ${served} served requests on a healthy gateway (a retry)`);
  return out;
}

/** `faults = [400, 200]`: a 400 is never retried. */
export function badRequestViolations(run: Run): string[] {
  const out = unavailable(run);
  if (out.length) return out;
  const n = attempts(run).length;
  if (n !== 1) out.push(`a 400 was retried: ${n} attempts (${attempts(run).map((a) => a.status ?? a.outcome).join(", ")})`);
  return out;
}

/**
 * `faults = [429, 200]`: answered after a retry (≥ 2 attempts), or the item errors. Never an
 * answer, or an empty "success", without a served request.
 */
export function transientViolations(run: Run): string[] {
  const out = unavailable(run);
  if (out.length) return out;
  const it = item(run)!;
  const served = run.gateway.requests.length;
  if (it.error) return out;
  if (served === 0) out.push(`succeeded with no error and no served request after a 429 (${outcomeText(run)})`);
  else if (!answered(run)) out.push(`neither answered nor errored after a 429 (${outcomeText(run)})`);
  else if (attempts(run).length < 2) out.push(`answered in ${attempts(run).length} attempt(s) although the first was a 429`);
  return out;
}

/** Instrument self-test, baseline, `faults = [429, 429, 200]`: one attempt, nothing served. */
export function selfTestViolations(run: Run): string[] {
  const out = unavailable(run);
  if (out.length) return out;
  if (attempts(run).length !== 1) out.push(`${attempts(run).length} attempts (expected 1)`);
  if (run.gateway.requests.length !== 0) out.push(`${run.gateway.requests.length} requests recorded for a faulted attempt`);
  if (attempts(run)[0]?.status !== 429) out.push(`first attempt got ${attempts(run)[0]?.status} (expected the injected 429)`);
  return out;
}

/** Baseline pin, `faults = [429, 200]`: one attempt and an error (the control has no retry). */
export function baselinePinViolations(run: Run): string[] {
  const out = unavailable(run);
  if (out.length) return out;
  if (attempts(run).length !== 1) out.push(`${attempts(run).length} attempts (the baseline does not retry)`);
  if (!item(run)!.error) out.push(`no error after a 429 (${outcomeText(run)})`);
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
  const latency = item(run)!.latency_s;
  if (latency >= stallS / 2) out.push(`the item took ${latency.toFixed(2)} s against a ${stallS} s stall (not long before it)`);
  return out;
}

export function meanHold(run: Run): number | null {
  const holds = stalled(run).map(holdSeconds);
  if (holds.length === 0 || holds.some((h) => h === null)) return null;
  return (holds as number[]).reduce((a, b) => a + b, 0) / holds.length;
}

export const RATIO_BOUNDS = [1.7, 2.3] as const;

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

/** One row of the (non-gated) transport finding table. */
export interface TransportFinding {
  readonly adapter: string;
  readonly case: string;
  readonly faults: readonly number[];
  readonly retry_after_s: number | null;
  readonly stall_s: number;
  readonly request_timeout_s: number;
  readonly attempts: number;
  readonly statuses: readonly (number | string)[];
  /** Seconds between the end of one attempt (response sent or client gone) and the next arrival. */
  readonly backoff_gaps_s: readonly number[];
  /** Per attempt, seconds from arrival to the client closing it (hangs only). */
  readonly hold_s: readonly (number | null)[];
  readonly outcome: "answered" | "error" | "empty" | "unavailable";
  readonly error: string | null;
  /** Retry-After set and every gap ≥ it (minus slack): the framework waited as told. */
  readonly honours_retry_after: boolean | null;
}

const round = (x: number) => Math.round(x * 1000) / 1000;

export function transportFinding(
  adapter: string,
  name: string,
  run: Run,
  setup: { faults: readonly number[]; retryAfter: number | null; stallSeconds: number; timeoutS: number },
): TransportFinding {
  // Under a hang, the warm-up item's injected 400 is not part of the behaviour being recorded.
  const all = setup.stallSeconds > 0 ? stalled(run) : attempts(run);
  const gaps = all.slice(1).map((a, i) => {
    const prev = all[i]!;
    const end = prev.endedAt ?? prev.closedAt ?? prev.at;
    return round((a.at - end) / 1000);
  });
  const it = item(run);
  const outcome = !run.framework.available || !it ? "unavailable" : it.error ? "error" : answered(run) ? "answered" : "empty";
  const retried = gaps.length > 0;
  return {
    adapter,
    case: name,
    faults: setup.faults,
    retry_after_s: setup.retryAfter,
    stall_s: setup.stallSeconds,
    request_timeout_s: setup.timeoutS,
    attempts: all.length,
    statuses: all.map((a) => a.status ?? a.outcome),
    backoff_gaps_s: gaps,
    hold_s: setup.stallSeconds > 0 ? all.map((a) => { const h = holdSeconds(a); return h === null ? null : round(h); }) : [],
    outcome,
    error: it?.error ? it.error.slice(0, 200) : run.framework.available ? null : (run.framework.reason ?? null),
    honours_retry_after: setup.retryAfter === null || !retried ? null : gaps.every((g) => g >= setup.retryAfter! - HOLD_SLACK_S),
  };
}
