/**
 * What the wire saw decides (issue 20): a failure that follows a provider fault is `infra`
 * whatever the framework said, retries after a fault are counted, the violations a fault causes
 * are waived with the fault named, and the circuit breaker trips on faults in a row only.
 */
import { describe, expect, it } from "vitest";
import type { ItemRecord } from "../../orchestrator/report/record.ts";
import { CircuitBreaker } from "../../orchestrator/run/breaker.ts";
import { blankItemRecord } from "../../orchestrator/run/item-record.ts";
import { applyProviderFaults, itemFaults, legAttempts, type LegAttempt } from "../../orchestrator/run/provider-faults.ts";

const served: LegAttempt = { status: 200, outcome: "served", fault: null, waitedMs: 5 };
const r429: LegAttempt = { status: 429, outcome: "faulted", fault: "rate_limited", waitedMs: 5 };
const r503: LegAttempt = { status: 503, outcome: "faulted", fault: "server_error", waitedMs: 5 };
const rejected: LegAttempt = { status: 400, outcome: "rejected", fault: null, waitedMs: 5 };

function record(over: Partial<ItemRecord> = {}): ItemRecord {
  return { ...blankItemRecord("i-1", 0), latency_s: 0.1, error: "Error: 429 Too Many Requests", error_class: "adapter", ...over };
}

describe("a leg's attempts as the wire left them", () => {
  it("an attempt still pending when the leg ended, and never served, is a timeout; a pending served stream is not", () => {
    const pending = { attempt: 4, status: null, outcome: "pending" as const, providerFault: null, at: 1_000, startedAt: 1_000, closedAt: null, endedAt: null };
    const stream = { attempt: 5, status: 200, outcome: "pending" as const, providerFault: null, at: 1_000, startedAt: 1_000, closedAt: null, endedAt: null };
    const attempts = legAttempts([pending, stream], new Set([5]), { now: 4_000, requestTimeoutS: 2 });
    expect(attempts.map((a) => [a.fault, a.waitedMs])).toEqual([["timeout", 3_000], [null, 3_000]]);
  });

  it("a served stream the worker hung up on after its [DONE] is served, not the proxy's timeout", () => {
    const closedAfterDone = { attempt: 6, status: 200, outcome: "aborted" as const, providerFault: "timeout" as const, at: 1_000, startedAt: 1_000, closedAt: 1_500, endedAt: null };
    expect(legAttempts([closedAfterDone], new Set([6]), { now: 9_000, requestTimeoutS: 0.5 }).map((a) => a.fault)).toEqual([null]);
    expect(legAttempts([closedAfterDone], new Set(), { now: 9_000, requestTimeoutS: 0.5 }).map((a) => [a.fault, a.waitedMs])).toEqual([["timeout", 500]]);
  });

  it("a hang-up is the provider's timeout only after the run's request timeout: a worker that gave up sooner did it itself", () => {
    // The gateway saw each hang-up after `waitedMs` of waiting on the provider.
    const hungUp = (waitedMs: number, attempt = 1) => ({ attempt, status: null, outcome: "aborted" as const, providerFault: "timeout" as const, at: 0, startedAt: 0, closedAt: waitedMs, endedAt: null });
    const judged = (waits: readonly number[][], requestTimeoutS: number): LegAttempt[][] =>
      waits.map((leg) => legAttempts(leg.map((w, i) => hungUp(w, i)), new Set(), { now: 100_000, requestTimeoutS }));
    // request_timeout_s = 2: the wait must reach 2 s less the clocks' slack (500 ms here).
    expect(judged([[1_900, 1_500, 1_400], [300]], 2).map((leg) => leg.map((a) => a.fault))).toEqual([["timeout", "timeout", null], [null]]);
    // At 60 s the slack is 10%: 54 s is the provider's, 53 s the framework's own.
    expect(judged([[54_000, 53_000]], 60).map((leg) => leg.map((a) => a.fault))).toEqual([["timeout", null]]);
    // So an item that failed after its own early hang-up stays the framework's, in its figures.
    const early = applyProviderFaults(record({ error: "TimeoutError: aborted", error_class: "timeout" }), judged([[300]], 60));
    expect([early.error_class, early.provider_faults]).toEqual(["timeout", undefined]);
    const waited = applyProviderFaults(record({ error: "TimeoutError: aborted", error_class: "timeout" }), judged([[59_000]], 60));
    expect(waited.error_class).toBe("infra");
  });
});

describe("item faults", () => {
  it("counts the retries made after a fault on the same leg, not the first attempt of the next leg", () => {
    const f = itemFaults([[r429, r429, served], [r503], [served]]);
    expect(f.retries).toBe(2);
    expect(f.faults).toEqual([
      { leg: 1, fault: "rate_limited", status: 429 },
      { leg: 1, fault: "rate_limited", status: 429 },
      { leg: 2, fault: "server_error", status: 503 },
    ]);
    expect(f.endedOnFault).toBeUndefined();
    expect(itemFaults([[served], [r503, r503]]).endedOnFault).toEqual({ leg: 2, fault: "server_error", status: 503 });
  });
});

describe("applyProviderFaults", () => {
  it("an error after the last attempt faulted is infra, whatever class the text gave it; faults and retries are published", () => {
    const out = applyProviderFaults(record(), [[r429, r429]]);
    expect(out.error_class).toBe("infra");
    expect(out.error).toBe("Error: 429 Too Many Requests");
    expect(out.provider_faults).toHaveLength(2);
    expect(out.retries).toBe(1);
  });

  it("no answer and no error after a fault: infra, with an error that names the fault", () => {
    const out = applyProviderFaults(record({ error: null, error_class: undefined }), [[r503]]);
    expect(out.error_class).toBe("infra");
    expect(out.error).toBe("ProviderFault: server_error (HTTP 503) on leg 1, and the adapter returned no answer");
  });

  it("a failure after the provider served the last attempt stays the framework's", () => {
    const out = applyProviderFaults(record(), [[r429, served]]);
    expect(out.error_class).toBe("adapter");
    expect(out.retries).toBe(1);
    const wrong = applyProviderFaults(record({ error: null, error_class: undefined, output_text: "42" }), [[r429]]);
    expect(wrong.error_class).toBeUndefined();
  });

  it("no fault on the wire: the record is unchanged (the text classifier's class stands)", () => {
    const r = record();
    expect(applyProviderFaults(r, [[rejected, served]])).toBe(r);
  });

  it("waives the violations a fault on their leg caused, naming it, and keeps every other one charged", () => {
    const violations = [
      { rule: "no-llm-call", leg: 1, detail: "the leg returned a result, and the gateway served it no LLM call" },
      { rule: "usage-reported", leg: 2, detail: "llm_calls reported 1, served 0" },
      { rule: "model", leg: 1, request: 1, detail: "model gpt-4 is not the run's" },
    ];
    const out = applyProviderFaults(record({ violations }), [[r429, r429], [served]]);
    expect(out.violations).toEqual([violations[1], violations[2]]);
    expect(out.waived_violations).toEqual([{ ...violations[0], waived: "leg 1 saw provider fault(s): rate_limited (HTTP 429) ×2" }]);
  });

  it("of iteration-cap, waives only the cap's error reported after fewer served calls, never more calls served than the cap", () => {
    const early = { rule: "iteration-cap", leg: 1, detail: 'reported "max tool iterations exceeded" after 0 served LLM call(s): the budget is 6' };
    const over = { rule: "iteration-cap", leg: 1, detail: "served 7 LLM calls in one leg with max_tool_iterations = 6 (at most 6)" };
    const malformed: LegAttempt = { status: 200, outcome: "faulted", fault: "malformed", waitedMs: 5 };
    const out = applyProviderFaults(record({ violations: [early, over] }), [[malformed, malformed]]);
    expect(out.violations).toEqual([over]);
    expect(out.waived_violations?.map((v) => v.detail)).toEqual([early.detail]);
  });
});

describe("circuit breaker", () => {
  it("trips once, when the faults in a row across items reach the threshold", () => {
    const b = new CircuitBreaker(4);
    expect(b.observe([[r503, r503]])).toBeUndefined();
    expect(b.observe([[r503]])).toBeUndefined();
    expect(b.observe([[r429]])).toBe(
      "the provider failed 4 attempts in a row (the last: rate_limited (HTTP 429)); the circuit breaker stopped dispatching items (ARENA_MAX_PROVIDER_FAULTS=4)",
    );
    expect(b.observe([[r429]])).toBeUndefined();
  });

  it("a served attempt resets the count: a provider failing every second request never trips it", () => {
    const b = new CircuitBreaker(3);
    for (let i = 0; i < 10; i++) expect(b.observe([[r429, served]])).toBeUndefined();
    expect(b.streak).toBe(0);
    b.observe([[served, r503, r503]]);
    expect(b.streak).toBe(2);
  });

  it("an item with no completions attempt at all changes nothing; 0 turns the breaker off", () => {
    const b = new CircuitBreaker(2);
    b.observe([[r503]]);
    b.observe([[]]);
    expect(b.streak).toBe(1);
    const off = new CircuitBreaker(0);
    for (let i = 0; i < 50; i++) expect(off.observe([[r503]])).toBeUndefined();
  });
});
