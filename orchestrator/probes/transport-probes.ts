/**
 * §11 Transport: the request timeout reaches the client (a stalled gateway is abandoned after ≈ the
 * budget T, drawn per run, and doubling the budget doubles the wait); a 400 is never retried; a
 * 429 ends in an answer after a retry or in an error, never in a silent empty success. The
 * baseline is pinned (no retry, by design) and the instrument tested on it. Every number comes
 * from the gateway's attempt records; how each adapter treats 429s, 500s, Retry-After and a hang
 * beyond that is a finding, not a gate (tests/probes/transport.test.ts writes the table).
 */
import {
  badRequestViolations,
  baselinePinViolations,
  healthyViolations,
  selfTestViolations,
  timeoutDoublesViolations,
  timeoutHonouredViolations,
  transientViolations,
} from "./judges/transport.ts";
import { HANG_2T, HANG_T, HANG_T_CUT, STALL_S } from "./transport-setups.ts";

/** The request timeout T a timing run was given (its config override). */
const timeoutOf = (run: WireRun) => Number(run.config.requestTimeoutS);
import { exactly, holds, type Probe, type ProbeCase } from "./types.ts";
import type { WireRun } from "./wire-types.ts";

const CASES: readonly ProbeCase[] = [
  { id: "healthy", setups: ["transport:healthy"] },
  { id: "bad-request", setups: ["transport:bad-request"] },
  { id: "transient", setups: ["transport:429"] },
  { id: "timeout-honoured", setups: [HANG_T] },
  { id: "timeout-doubles", setups: [HANG_T, HANG_2T] },
];
const BASELINE_CASES: readonly ProbeCase[] = [
  { id: "self-test", setups: ["transport:429x2"] },
  { id: "baseline-pin", setups: ["transport:429"] },
];

/** A timing violation carries how it was measured (T, the event loop, a second reading). */
const noted = (run: WireRun, violations: string[]) => violations.map((v) => (run.note ? `${v} (${run.note})` : v));
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

export const transport: Probe = {
  id: "transport",
  section: "§11",
  rule: "the request timeout reaches the client (and doubling it doubles the wait); a 400 is never retried; a 429 never ends in an empty success",
  setup: (subject) => [...CASES, ...(subject.baseline ? BASELINE_CASES : [])],
  judge: ({ probeCase, runs, subject }) => {
    const run = runs[0]!;
    switch (probeCase) {
      case "healthy":
        return healthyViolations(run, { pipeline: subject.scope !== undefined });
      case "bad-request":
        return badRequestViolations(run);
      case "transient":
        return transientViolations(run);
      case "timeout-honoured":
        // The T this run was given (drawn per run; a run may come from a process that drew another).
        return noted(run, timeoutHonouredViolations(run, timeoutOf(run), STALL_S));
      case "timeout-doubles":
        return noted(run, timeoutDoublesViolations(run, runs[1]!));
      case "self-test":
        return selfTestViolations(run);
      case "baseline-pin":
        return baselinePinViolations(run);
      default:
        return [`no such transport case ${probeCase}`];
    }
  },
  hostile: [
    {
      // The 5 s leg deadline ends the item instead of the 20 s stall: the attempt is still held when the worker is killed.
      fixture: "no-timeout",
      shows: "ignores request_timeout_s: fails 'timeout honoured'",
      own: [{ id: "timeout-honoured", setups: [HANG_T_CUT] }],
      expect: ({ violations, runs }) => {
        const held = new RegExp(`attempt 1: (held [\\d.]+ s, ≥ budget ${escape(String(timeoutOf(runs[0]!)))} s \\+ 1 s|the client never gave up)`);
        return holds(violations.some((x) => held.test(x)), `attempt 1 is not reported held past the budget: ${JSON.stringify(violations)}`);
      },
    },
    {
      fixture: "fixed-timeout",
      shows: "always 1 s: passes 'timeout honoured' (1 s is within T's bounds), fails 'timeout doubles'",
      cases: ["timeout-honoured", "timeout-doubles"],
      expect: ({ cases }) => {
        const of = (id: string) => cases.find((c) => c.id === id)?.violations ?? [`no ${id} case`];
        return [
          ...exactly(of("timeout-honoured"), []).map((p) => `timeout-honoured: ${p}`),
          ...holds(of("timeout-doubles").some((x) => x.startsWith("hold time ratio 2T/T = ")), `timeout-doubles: no ratio violation: ${JSON.stringify(of("timeout-doubles"))}`),
        ];
      },
    },
    {
      fixture: "retries-400",
      shows: "fails 'bad request'",
      cases: ["bad-request"],
      expect: ({ violations }) => exactly(violations, ["a 400 was retried: 2 attempts (400, 200)"]),
    },
    {
      fixture: "swallows-429",
      shows: "fails 'transient rate limit' (an empty success with nothing served)",
      cases: ["transient"],
      expect: ({ violations }) => exactly(violations, ['succeeded with no error and no served request after a 429 (output "")']),
    },
  ],
};
