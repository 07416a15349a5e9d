/**
 * §3 The iteration cap is exactly `max_tool_iterations` LLM calls: against a gateway that never
 * stops asking for a tool, the served request count must equal the cap — with 4 and with 7, so a
 * hard-coded budget cannot pass both. The run may end in an error; it must end by itself.
 */
import { describe, expect, it } from "vitest";
import { capViolations } from "./checks/contract.ts";
import { judge, knownFor, type KnownFindings } from "./checks/known.ts";
import { probeAdapters } from "./support.ts";
import {
  fixtureEntry,
  requireBuilt,
  setupOptions,
  setupRun,
  syntheticRun,
  wireRun,
  CAPS,
  MATRIX_TIMEOUT_MS,
  FIXTURE_TIMEOUT_MS,
} from "./wire-runs.ts";
import { SAFETY_LIMIT } from "../../fixtures/adapters/uncapped/index.ts";

/** Real adapters' known §3 findings. Empty: every adapter stops at exactly the cap. */
const KNOWN: KnownFindings = {};

describe("§3 the iteration cap is exactly max_tool_iterations", () => {
  it("the baseline is in the matrix", () => {
    expect(probeAdapters().map((a) => a.name)).toContain("vanilla");
  });

  it("the check: served count must equal the cap, and a run cut off at the leg deadline did not end", () => {
    const bodies = (n: number) => Array.from({ length: n }, () => ({ model: "m", messages: [] }));
    expect(capViolations(syntheticRun(bodies(4)), 4)).toEqual([]);
    expect(capViolations(syntheticRun(bodies(5)), 4)).toEqual(["served 5 LLM requests with max_tool_iterations = 4 (must be exactly 4)"]);
    expect(
      capViolations(syntheticRun(bodies(4), [{ error: "worker did not answer within 60.0s" }]), 4)[0],
    ).toMatch(/did not end by itself/);
  });

  describe.concurrent("every adapter", () => {
    for (const adapter of probeAdapters()) {
      for (const cap of CAPS) {
        it(`${adapter.name}: exactly ${cap} LLM calls with max_tool_iterations = ${cap}`, async (ctx) => {
          const run = await setupRun(`cap-${cap}`, adapter);
          if (!requireBuilt(ctx, run)) return;
          const { unexpected, stale } = judge(capViolations(run, cap), knownFor(KNOWN, adapter.name, `cap-${cap}`));
          expect(unexpected).toEqual([]);
          expect(stale).toEqual([]);
        }, MATRIX_TIMEOUT_MS);
      }
    }
  });

  describe.concurrent("hostile fixtures are caught", () => {
    const cases = [
      { name: "cap-plus-one", served: (n: number) => n + 1 },
      { name: "cap-minus-one", served: (n: number) => n - 1 },
      { name: "uncapped", served: () => SAFETY_LIMIT },
    ] as const;
    for (const c of cases) {
      for (const cap of CAPS) {
        it(`${c.name} fails with max_tool_iterations = ${cap} (served ${c.served(cap)})`, async () => {
          const run = await wireRun({ adapter: fixtureEntry(c.name), ...setupOptions(`cap-${cap}`) });
          expect(capViolations(run, cap)).toEqual([
            `served ${c.served(cap)} LLM requests with max_tool_iterations = ${cap} (must be exactly ${cap})`,
          ]);
        }, FIXTURE_TIMEOUT_MS);
      }
    }
  });
});
