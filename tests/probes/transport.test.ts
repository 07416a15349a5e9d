/**
 * §11 Transport: the request timeout reaches the client (T drawn per run, and 2T doubles the
 * wait), a 400 is never retried, a 429 never ends in an empty success; the baseline pinned and the
 * instrument tested on it. The probe is the registry's (orchestrator/probes/transport-probes.ts);
 * its setups, and how the timing pair is measured, are in orchestrator/probes/transport-setups.ts.
 * How each adapter treats 429s, 500s, Retry-After and a hang is written to
 * runs/findings/transport.json (a finding table, not a gate).
 */
import { afterAll, describe, expect, it } from "vitest";
import { drawTimeout } from "../../orchestrator/probes/canary.ts";
import { catalogueSubjects } from "../../orchestrator/probes/registry.ts";
import { RETRY_AFTER_S, STALL_S, STATUS_SETUPS, STATUS_TIMEOUT_S, TIMEOUT, type StatusSetup } from "../../orchestrator/probes/transport-setups.ts";
import { writeFindings } from "./findings-file.ts";
import { transportFinding, type TransportFinding } from "./findings/transport.ts";
import { describeProbe } from "./registry-suite.ts";
import { MATRIX_TIMEOUT_MS, testEnv } from "./wire-runs.ts";

const findings: TransportFinding[] = [];
const FINDING_ROWS = (Object.keys(STATUS_SETUPS) as StatusSetup[]).filter((n) => STATUS_SETUPS[n].finding);
/** Variants drive the same HTTP client as their base framework: their status rows would repeat the base's. */
const bases = () => catalogueSubjects().filter((s) => !s.scope);

afterAll(() => {
  if (findings.length === 0) return;
  const order = [...FINDING_ROWS, "hang-T"];
  findings.sort((a, b) => a.adapter.localeCompare(b.adapter) || order.indexOf(a.case) - order.indexOf(b.case));
  const expected = bases().length * FINDING_ROWS.length + catalogueSubjects().length;
  writeFindings("transport", "orchestrator/probes/transport-probes.ts", {
    note: "Not gated. attempts/statuses/backoff gaps per gateway setup; the timeout bounds one attempt, so worst case per call = timeout × attempts + backoff.",
    retry_after_s: RETRY_AFTER_S,
    stall_s: STALL_S,
    request_timeout_s: TIMEOUT.seconds,
    // False when the file ran filtered or a run failed: the table then lacks rows.
    complete: findings.length === expected,
    rows: findings,
  });
});

describe("§11 the timeout canary", () => {
  it("is drawn per seed, never 1 s, within [0.7, 1) s, and doubled exactly", () => {
    const draws = Array.from({ length: 64 }, (_, i) => drawTimeout(`seed-${i}`));
    expect(new Set(draws.map((d) => d.seconds)).size).toBeGreaterThan(3);
    for (const d of draws) {
      expect(d.seconds).toBeGreaterThanOrEqual(0.7);
      expect(d.seconds).toBeLessThan(1);
      expect(d.doubled).toBeCloseTo(2 * d.seconds, 10);
    }
    expect(drawTimeout("same")).toEqual(drawTimeout("same"));
  });
});

describeProbe("transport", {
  fixtures: ["no-timeout", "fixed-timeout", "retries-400", "swallows-429"],
  observe: (subject, result) => {
    const run = result.runs[0];
    if (result.case !== "timeout-honoured" || !run?.record.available) return;
    findings.push(transportFinding(subject.name, "hang-T", run, { faults: [400], retryAfter: null, stallSeconds: STALL_S, timeoutS: TIMEOUT.seconds }));
  },
});

describe.concurrent("§11 finding table rows (not gated): [429], [429,429,429], [500], with and without Retry-After", () => {
  for (const subject of bases()) {
    it(subject.name, async () => {
      const runs = await Promise.all(FINDING_ROWS.map((n) => testEnv().runSetup(`transport:${n}`, subject)));
      runs.forEach((run, i) => {
        const s = STATUS_SETUPS[FINDING_ROWS[i]!];
        findings.push(transportFinding(subject.name, FINDING_ROWS[i]!, run, { faults: s.faults, retryAfter: s.retryAfter, stallSeconds: 0, timeoutS: STATUS_TIMEOUT_S }));
      });
      // Recorded whatever they show; the only requirement is that every run produced an outcome.
      for (const r of runs) expect(r.record.framework).toBe(subject.name);
    }, MATRIX_TIMEOUT_MS);
  }
});
