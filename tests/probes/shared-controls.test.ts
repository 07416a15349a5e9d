/**
 * §8 Shared controls: the canary model id and a non-zero canary temperature reach every request,
 * and every request stays within the baseline's envelope (model, messages, temperature, stream,
 * tools, tool_choice) unless the adapter records an exception with its reason
 * (`Adapter.wireExceptions`); a recorded exception that never appears is stale. `stream_options`
 * is allowed only with `stream: true` and `include_usage: true`.
 *
 * Judged on the §7 schema runs (same setup: tool_use, `How tall is the Eiffel Tower?`,
 * `330 metres.`, max_tool_iterations 3, plus the other schema arenas), so no extra run is paid.
 */
import { afterAll, describe, expect, it } from "vitest";
import { controlsViolations, ENVELOPE } from "../../orchestrator/probes/judges/controls.ts";
import { CANARY } from "../../orchestrator/probes/setups.ts";
import { writeFindings } from "./findings-file.ts";
import { describeProbe } from "./registry-suite.ts";
import { syntheticRun } from "./wire-runs.ts";

const findings: Record<string, { wire_exceptions: readonly { key: string; reason: string }[]; keys_sent: string[]; violations: string[] }> = {};

const body = (extra: Record<string, unknown> = {}) => ({
  model: CANARY.model,
  messages: [],
  temperature: CANARY.temperature,
  stream: false,
  ...extra,
});

afterAll(() => {
  if (Object.keys(findings).length === 0) return;
  writeFindings("shared-controls", "shared controls (probes.md §8)", { config: { model: CANARY.model, temperature: CANARY.temperature, seed: CANARY.seed }, envelope: ENVELOPE, adapters: findings });
});

describe("§8 the judge", () => {
  it("the check: exceptions must be recorded with a reason and used; stream_options only for an honest stream", () => {
    const stop = [{ key: "stop", reason: "text protocol halts at stop sequences" }];
    expect(controlsViolations([syntheticRun([body({ tools: [], tool_choice: "auto" })])], CANARY, [])).toEqual([]);
    expect(controlsViolations([syntheticRun([body({ stop: ["Observation:"] })])], CANARY, stop)).toEqual([]);
    expect(controlsViolations([syntheticRun([body({ stop: ["Observation:"] })])], CANARY, [])).toEqual([
      'x-01 request 1/1: "stop" is outside the baseline\'s envelope and no exception is recorded for it',
    ]);
    expect(controlsViolations([syntheticRun([body({ stop: ["x"] })])], CANARY, [{ key: "stop", reason: " " }])).toEqual([
      'wire exception "stop" is recorded without a reason',
    ]);
    expect(controlsViolations([syntheticRun([body({ stream: true, stream_options: { include_usage: true } })])], CANARY, [])).toEqual([]);
    expect(controlsViolations([syntheticRun([body({ stream_options: { include_usage: true } })])], CANARY, [])[0]).toMatch(/stream_options .* allowed only/);
    expect(controlsViolations([syntheticRun([body({ temperature: CANARY.temperature + 1e-8 })])], CANARY, [])[0]).toMatch(/temperature \d/);
  });

});

describeProbe("shared-controls", {
  fixtures: ["own-model", "own-temperature", "no-temperature", "extra-sampling", "stale-exception"],
  observe: (subject, result) => {
    if (result.status === "n/a") return;
    const runs = result.runs.filter((r) => r.record.available);
    findings[subject.name] = {
      wire_exceptions: runs[0]?.declared.wireExceptions ?? [],
      keys_sent: [...new Set(runs.flatMap((r) => r.bodies.flatMap((b) => Object.keys(b))))],
      violations: [...result.violations],
    };
  },
});
