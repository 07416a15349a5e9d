/**
 * A provider's failure is the provider's (issue 20): what the gateway saw on the wire during an
 * item's legs decides whether its failure is `infra`, which of its violations the fault caused,
 * and how many retries the framework made. Nothing here reads a framework's error text.
 *
 * - An item that failed (an error, or no answer) whose failing leg's last attempt was a provider
 *   fault is `infra`, whatever the framework said: the framework gave up after the provider did.
 * - A retry is an attempt that follows a faulted attempt on the same leg; it is counted, not judged.
 * - On a leg that saw a provider fault, the rules a fault can break on an honest framework
 *   ({@link WAIVABLE_RULES}; of `iteration-cap`, only the cap's error reported early) are waived: kept in the record as waived, with the fault named, and
 *   charged to nobody.
 */
import type { AttemptOutcome, ProviderFault } from "../gateway/index.ts";
import type { ItemRecord } from "../report/record.ts";
import type { RuleViolation } from "../witness/types.ts";

/** One completions attempt of a leg, as the gateway recorded it when the leg ended. */
export interface LegAttempt {
  readonly status: number | null;
  readonly outcome: AttemptOutcome;
  readonly fault: ProviderFault | null;
  /** How long the request was open at the gateway: from its start (gateway/arrival.ts) to the worker's hang-up (or the leg's end). */
  readonly waitedMs: number;
}

/**
 * What a leg's attempts were when its worker answered; an attempt the gateway recorded as served
 * has no fault. An attempt still pending then, and never served, was abandoned by the worker while the provider had not answered (its close may still be
 * on its way through the sandbox bridge): a `timeout`, decided here so it cannot race that close.
 */
export function legAttempts(
  attempts: readonly {
    readonly attempt: number;
    readonly status: number | null;
    readonly outcome: AttemptOutcome;
    readonly providerFault: ProviderFault | null;
    readonly startedAt: number;
    readonly closedAt: number | null;
    readonly endedAt: number | null;
  }[],
  served: ReadonlySet<number>,
  leg: { readonly now: number; readonly requestTimeoutS: number },
): LegAttempt[] {
  const patienceMs = providerPatienceMs(leg.requestTimeoutS);
  return attempts.map((a) => {
    const waitedMs = (a.closedAt ?? a.endedAt ?? leg.now) - a.startedAt;
    // Served wins: a stream whose `[DONE]` was recorded is served even if the worker hung up before
    // the provider closed it (the proxy then notes the close as a timeout).
    const seen = served.has(a.attempt) ? null : (a.providerFault ?? (a.outcome === "pending" ? "timeout" : null));
    return { status: a.status, outcome: a.outcome, fault: seen === "timeout" && waitedMs < patienceMs ? null : seen, waitedMs };
  });
}

/**
 * A worker that hung up on a request the provider had not answered is a provider `timeout` only
 * when it waited the run's request timeout: one that gave up sooner (its own, shorter timeout; a
 * deliberate hang-up) did that itself, and must not have its failure excused as the provider's
 * and left out of its figures. The wait is measured from the request's start as the orchestrator
 * can vouch for it (gateway/arrival.ts: the read of its bytes off the worker's own socket, or for a
 * fresh connection read straight after a busy loop, its accept), never from the worker's word. The
 * slack covers what no clock of ours sees: the worker's timer starts before its bytes leave it,
 * and on a loaded machine a process waits for a core (on CI's two cores a vanilla hang was once
 * charged to vanilla when the start was the gateway's read behind a second, TCP hop). A hang-up at
 * 90% of the run's timeout or later is the provider's; the `fixed-timeout` fixture hangs up at a
 * third of it.
 */
function providerPatienceMs(requestTimeoutS: number): number {
  const timeoutMs = requestTimeoutS * 1000;
  return timeoutMs - Math.max(500, timeoutMs * 0.1);
}

/** The rules a provider fault can make an honest framework break: usage it counted for a failed attempt, an answer it gave without one. */
export const WAIVABLE_RULES: ReadonlySet<string> = new Set(["no-llm-call", "usage-reported", "served-result", "iteration-cap"]);

/**
 * Whether a fault can have caused this violation of a waivable rule. `iteration-cap` has two
 * halves (witness/limits.ts): a leg served more calls than the cap is never a fault's doing (a
 * faulted attempt is not served), while the cap's error reported after fewer served calls is what
 * a framework that counted its malformed or failed replies as turns reports.
 */
function faultCanCause(v: RuleViolation): boolean {
  if (v.rule === "iteration-cap") return v.detail.startsWith("reported ");
  return WAIVABLE_RULES.has(v.rule);
}

export interface FaultRecord {
  readonly leg: number;
  readonly fault: ProviderFault;
  /** The provider's own status; null where it sent none (the 502 a worker got then is the proxy's). */
  readonly status: number | null;
}

/** The faults that come with a status the provider itself sent. */
const PROVIDER_STATUS: ReadonlySet<ProviderFault> = new Set(["rate_limited", "server_error", "malformed"]);

export interface ItemFaults {
  /** Every faulted attempt, in order, with its 1-based leg. */
  readonly faults: readonly FaultRecord[];
  /** Attempts that followed a faulted attempt on the same leg. */
  readonly retries: number;
  /** The last attempt of the last leg sent was a fault: a failure there is the provider's. */
  readonly endedOnFault: FaultRecord | undefined;
  /** Faults in a row at the end of the item's attempts, and whether any attempt of it was served. */
  readonly trailingFaults: number;
  readonly anyServed: boolean;
}

export function itemFaults(legs: readonly (readonly LegAttempt[])[]): ItemFaults {
  const faults: FaultRecord[] = [];
  let retries = 0;
  let trailing = 0;
  let anyServed = false;
  legs.forEach((attempts, i) => {
    attempts.forEach((a, j) => {
      if (j > 0 && attempts[j - 1]!.fault !== null) retries += 1;
      if (a.fault !== null) {
        faults.push({ leg: i + 1, fault: a.fault, status: PROVIDER_STATUS.has(a.fault) ? a.status : null });
        trailing += 1;
      } else if (a.outcome === "served" || a.outcome === "pending") {
        anyServed = true;
        trailing = 0;
      }
    });
  });
  const lastLeg = legs.at(-1);
  const last = lastLeg?.at(-1);
  const endedOnFault = last?.fault != null ? faults.at(-1) : undefined;
  return { faults, retries, endedOnFault, trailingFaults: trailing, anyServed };
}

/** `rate_limited (HTTP 429)`, `timeout`. */
export function faultName(f: { readonly fault: ProviderFault; readonly status: number | null }): string {
  return f.status !== null ? `${f.fault} (HTTP ${f.status})` : f.fault;
}

/** Per leg: `rate_limited (HTTP 429) ×2, timeout`. */
function legFaults(faults: readonly FaultRecord[], leg: number): string {
  const counts = new Map<string, number>();
  for (const f of faults) if (f.leg === leg) counts.set(faultName(f), (counts.get(faultName(f)) ?? 0) + 1);
  return [...counts].map(([name, n]) => (n > 1 ? `${name} ×${n}` : name)).join(", ");
}

export interface WaivedViolation extends RuleViolation {
  readonly waived: string;
}

/** Split violations into those charged and those a provider fault on their leg caused. */
export function waiveFaultViolations(violations: readonly RuleViolation[], faults: readonly FaultRecord[]): { charged: RuleViolation[]; waived: WaivedViolation[] } {
  const charged: RuleViolation[] = [];
  const waived: WaivedViolation[] = [];
  const faultedLegs = new Set(faults.map((f) => f.leg));
  for (const v of violations) {
    if (faultCanCause(v) && faultedLegs.has(v.leg)) waived.push({ ...v, waived: `leg ${v.leg} saw provider fault(s): ${legFaults(faults, v.leg)}` });
    else charged.push(v);
  }
  return { charged, waived };
}

/**
 * How the error the harness writes begins, for an item that returned no answer and no error of its
 * own after a fault: a reader judging the adapter's own behaviour (a probe) can tell it apart.
 */
export const PROVIDER_FAULT_ERROR = "ProviderFault: ";

/** Whether an item's error is the harness's note of a provider fault, not the adapter's own. */
export function isProviderFaultError(error: string | null): boolean {
  return error?.startsWith(PROVIDER_FAULT_ERROR) === true;
}

/**
 * The record with what the wire saw applied: the faults and retries published, the violations a
 * fault caused moved to `waived_violations`, and a failure that followed a fault classed `infra`
 * (with an error saying so when the adapter returned no answer and no error of its own).
 */
export function applyProviderFaults(record: ItemRecord, legs: readonly (readonly LegAttempt[])[]): ItemRecord {
  const f = itemFaults(legs);
  if (f.faults.length === 0) return record;
  const { charged, waived } = waiveFaultViolations(record.violations ?? [], f.faults);
  const failed = !record.passed && (record.error !== null || record.output_text.trim() === "");
  const blame = failed ? f.endedOnFault : undefined;
  const { violations: _judged, ...rest } = record;
  return {
    ...rest,
    ...(blame
      ? { error: record.error ?? `${PROVIDER_FAULT_ERROR}${faultName(blame)} on leg ${blame.leg}, and the adapter returned no answer`, error_class: "infra" as const }
      : {}),
    ...(charged.length > 0 ? { violations: charged } : {}),
    provider_faults: [...f.faults],
    retries: f.retries,
    ...(waived.length > 0 ? { waived_violations: waived } : {}),
  };
}
