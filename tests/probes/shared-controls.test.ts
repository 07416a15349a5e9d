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
import { controlsViolations, ENVELOPE } from "./checks/controls.ts";
import { judge, knownFor, type KnownFindings } from "./checks/known.ts";
import { probeAdapters } from "./support.ts";
import { writeFindings } from "./findings-file.ts";
import {
  adapterMeta,
  fixtureEntry,
  requireBuilt,
  schemaArenasFor,
  setupOptions,
  setupRun,
  syntheticRun,
  wireRun,
  CANARY,
  type WireRun,
  MATRIX_TIMEOUT_MS,
  FIXTURE_TIMEOUT_MS,
} from "./wire-runs.ts";

/** Real adapters' known §8 findings (adapter → "canary" → expected violations, each with why). */
const KNOWN: KnownFindings = {};

const findings: Record<string, { wire_exceptions: readonly { key: string; reason: string }[]; keys_sent: string[]; violations: string[] }> = {};

const body = (extra: Record<string, unknown> = {}) => ({
  model: CANARY.model,
  messages: [],
  temperature: CANARY.temperature,
  stream: false,
  ...extra,
});

describe("§8 shared controls: model, temperature, sampling envelope", () => {
  afterAll(() => {
    if (Object.keys(findings).length === 0) return;
    writeFindings("shared-controls", "shared controls (probes.md §8)", { config: CANARY, envelope: ENVELOPE, adapters: findings });
  });

  it("the baseline is in the matrix", () => {
    expect(probeAdapters().map((a) => a.name)).toContain("vanilla");
  });

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
    expect(controlsViolations([syntheticRun([body({ temperature: 0.70000001 })])], CANARY, [])[0]).toMatch(/temperature 0.70000001/);
  });

  describe.concurrent("every adapter (the §7 schema runs)", () => {
    for (const adapter of probeAdapters()) {
      it(`${adapter.name}: canary model and temperature on every request, nothing outside the envelope`, async (ctx) => {
        const meta = await adapterMeta(adapter);
        const [primary, ...rest] = await Promise.all(schemaArenasFor(adapter).map((id) => setupRun(`schema:${id}`, adapter)));
        if (!requireBuilt(ctx, primary!)) return;
        // Other arenas an adapter is unsupported on (no resume on a pause arena) have no requests to judge.
        const runs: WireRun[] = [primary!, ...rest.filter((r) => r.framework.available)];
        const violations = controlsViolations(runs, CANARY, meta.wireExceptions);
        findings[adapter.name] = {
          wire_exceptions: meta.wireExceptions,
          keys_sent: [...new Set(runs.flatMap((r) => r.bodies.flatMap((b) => Object.keys(b))))],
          violations,
        };
        const { unexpected, stale } = judge(violations, knownFor(KNOWN, adapter.name, "canary"));
        expect(unexpected).toEqual([]);
        expect(stale).toEqual([]);
      }, MATRIX_TIMEOUT_MS);
    }
  });

  describe.concurrent("hostile fixtures are caught", () => {
    const judgeFixture = async (name: Parameters<typeof fixtureEntry>[0]) => {
      const fixture = fixtureEntry(name);
      const run = await wireRun({ adapter: fixture, ...setupOptions("schema:tool_use") });
      expect(run.bodies.length).toBeGreaterThan(0);
      return { run, v: controlsViolations([run], CANARY, (await adapterMeta(fixture)).wireExceptions) };
    };
    const onEvery = (run: WireRun, v: string[], pattern: RegExp) => {
      expect(v.filter((x) => pattern.test(x)), v.join("\n")).toHaveLength(run.bodies.length);
    };

    it("own-model fails on every request", async () => {
      const { run, v } = await judgeFixture("own-model");
      onEvery(run, v, /: model "gpt-4o-mini", configured "arena-canary-model-7"$/);
      expect(v).toHaveLength(run.bodies.length);
    }, FIXTURE_TIMEOUT_MS);

    it("own-temperature (1.0) fails on every request", async () => {
      const { run, v } = await judgeFixture("own-temperature");
      onEvery(run, v, /: temperature 1, configured 0\.7$/);
      expect(v).toHaveLength(run.bodies.length);
    }, FIXTURE_TIMEOUT_MS);

    it("no-temperature fails on every request", async () => {
      const { run, v } = await judgeFixture("no-temperature");
      onEvery(run, v, /: temperature missing, configured 0\.7$/);
      expect(v).toHaveLength(run.bodies.length);
    }, FIXTURE_TIMEOUT_MS);

    it("extra-sampling (top_p, seed) fails the envelope", async () => {
      const { run, v } = await judgeFixture("extra-sampling");
      onEvery(run, v, /: "top_p" is outside the baseline's envelope/);
      onEvery(run, v, /: "seed" is outside the baseline's envelope/);
      expect(v).toHaveLength(2 * run.bodies.length);
    }, FIXTURE_TIMEOUT_MS);

    it("stale-exception (records stop, never sends it) fails", async () => {
      const { v } = await judgeFixture("stale-exception");
      expect(v).toEqual([
        'recorded wire exception "stop" never appears on the wire (stale; recorded reason: text-protocol loop parses generation halted at stop sequences)',
      ]);
    }, FIXTURE_TIMEOUT_MS);
  });
});
