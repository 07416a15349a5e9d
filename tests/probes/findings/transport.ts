/**
 * The transport probe's finding table (not gated, runs/findings/transport.json): attempts,
 * statuses and backoff gaps per gateway setup — does a framework retry, back off, honour
 * Retry-After, and how many times does it try under a hang.
 */
import { answered, holdSeconds, HOLD_SLACK_S, measured, stalled } from "../../../orchestrator/probes/judges/transport.ts";
import type { WireRun } from "../../../orchestrator/probes/wire.ts";

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

export interface FindingSetup {
  readonly faults: readonly number[];
  readonly retryAfter: number | null;
  readonly stallSeconds: number;
  readonly timeoutS: number;
}

export function transportFinding(adapter: string, name: string, run: WireRun, setup: FindingSetup): TransportFinding {
  // Under a hang, the warm-up item's injected 400 is not part of the behaviour being recorded.
  const all = setup.stallSeconds > 0 ? stalled(run) : run.attemptLog;
  const gaps = all.slice(1).map((a, i) => {
    const prev = all[i]!;
    return round((a.at - (prev.endedAt ?? prev.closedAt ?? prev.at)) / 1000);
  });
  const it = measured(run);
  const outcome = !run.record.available || !it ? "unavailable" : it.error ? "error" : answered(run) ? "answered" : "empty";
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
    error: it?.error ? it.error.slice(0, 200) : run.record.available ? null : (run.record.reason ?? null),
    honours_retry_after: setup.retryAfter === null || gaps.length === 0 ? null : gaps.every((g) => g >= setup.retryAfter! - HOLD_SLACK_S),
  };
}
