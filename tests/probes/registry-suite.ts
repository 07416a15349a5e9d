/**
 * The one loop every registry probe's suite runs (orchestrator/probes/registry.ts): each real
 * adapter passes each case of the probe — or fails it exactly as its known findings say — and
 * each hostile fixture the probe names is caught exactly as designed (a control passes). The
 * same functions `arena probe` runs, so what the command reports is what these tests assert.
 */
import { describe, expect, it } from "vitest";
import { judgeCase, judgeHostile, type CaseResult } from "../../orchestrator/probes/execute.ts";
import { catalogueSubjects, probeById } from "../../orchestrator/probes/registry.ts";
import type { Subject } from "../../orchestrator/probes/setups.ts";
import { FIXTURE_TIMEOUT_MS, MATRIX_TIMEOUT_MS, testEnv } from "./wire-runs.ts";

export interface ProbeSuiteOptions {
  /** The fixtures the probe must name, in order: a fixture cannot silently drop out of the registry. */
  readonly fixtures: readonly string[];
  /** Sees every judged (or n/a) case, e.g. to write a non-gated findings file. */
  readonly observe?: (subject: Subject, result: CaseResult) => void;
}

export function describeProbe(id: string, options: ProbeSuiteOptions): void {
  const probe = probeById(id);
  describe(`${probe.section} ${probe.rule}`, () => {
    it("the baseline is in the matrix", () => {
      expect(catalogueSubjects().map((s) => s.name)).toContain("vanilla");
    });

    it(`names its hostile fixtures: ${options.fixtures.join(", ")}`, () => {
      expect(probe.hostile.map((h) => h.fixture)).toEqual(options.fixtures);
    });

    describe.concurrent("every adapter", () => {
      for (const subject of catalogueSubjects()) {
        for (const probeCase of probe.setup(subject)) {
          it(`${subject.name} [${probeCase.id}]${subject.required ? " (required)" : ""}`, async (ctx) => {
            const result = await judgeCase(probe, probeCase, subject, testEnv());
            options.observe?.(subject, result);
            // Not built and not required (not installed here), or unsupported on the arena: reported, not judged.
            // (Unsupported exactly as declared was checked: a pass.)
            if (result.status === "n/a" && !result.asDeclared) ctx.skip(result.reason);
            expect(result.unexpected, `violations: ${result.violations.join("\n")}`).toEqual([]);
            expect(result.stale, "a known finding no longer occurs: retire it").toEqual([]);
          }, MATRIX_TIMEOUT_MS);
        }
      }
    });

    describe.concurrent("hostile fixtures are caught", () => {
      for (const hostile of probe.hostile) {
        it(`${hostile.fixture}${hostile.control ? " (a control: must pass)" : ""}: ${hostile.shows}`, async () => {
          const verdict = await judgeHostile(probe, hostile, testEnv());
          expect(verdict.problems, `violations: ${verdict.violations.join("\n")}`).toEqual([]);
        }, FIXTURE_TIMEOUT_MS);
      }
    });
  });
}
