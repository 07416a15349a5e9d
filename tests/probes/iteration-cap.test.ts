/**
 * §3 The iteration cap is exactly `max_tool_iterations` LLM calls: against a gateway that never
 * stops asking for a tool, the served request count must equal the cap — with 4 and with 7, so a
 * hard-coded budget cannot pass both. The run may end in an error; it must end by itself.
 */
import { describe, expect, it } from "vitest";
import { UNCAPPED_LIMIT } from "../../orchestrator/probes/contract-probes.ts";
import { capViolations } from "../../orchestrator/probes/judges/contract.ts";
import { SAFETY_LIMIT } from "../../fixtures/adapters/uncapped/index.ts";
import { describeProbe } from "./registry-suite.ts";
import { syntheticRun } from "./wire-runs.ts";

describe("§3 the judge", () => {
  it("the check: served count must equal the cap, and a run cut off at the leg deadline did not end", () => {
    const bodies = (n: number) => Array.from({ length: n }, () => ({ model: "m", messages: [] }));
    expect(capViolations(syntheticRun(bodies(4)), 4)).toEqual([]);
    expect(capViolations(syntheticRun(bodies(5)), 4)).toEqual(["served 5 LLM requests with max_tool_iterations = 4 (must be exactly 4)"]);
    expect(
      capViolations(syntheticRun(bodies(4), [{ error: "worker did not answer within 60.0s" }]), 4)[0],
    ).toMatch(/did not end by itself/);
  });


  it("the registry expects uncapped to stop at the fixture's own safety limit", () => {
    expect(UNCAPPED_LIMIT).toBe(SAFETY_LIMIT);
  });
});

describeProbe("iteration-cap", { fixtures: ["cap-plus-one", "cap-minus-one", "uncapped", "probe-sniffer"] });
