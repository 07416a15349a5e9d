/**
 * §10 Usage accounting: reported usage equals served usage, for a single leg and per leg on the
 * pause arenas, across a real restart on durable_state; the baseline's numbers pinned on the
 * reference items. The probe is the registry's (orchestrator/probes/accounting-probes.ts); its
 * setups (usage:<root>:<arena>) are in orchestrator/probes/data-setups.ts.
 */
import { describe, expect, it } from "vitest";
import { usageViolations } from "../../orchestrator/probes/judges/usage.ts";
import { describeProbe } from "./registry-suite.ts";
import { syntheticRun } from "./wire-runs.ts";

describe("§10 the judge", () => {
  it("a leg's report against what was served during it, the item's total, and what no item claimed", () => {
    const served = { prompt_tokens: 10, completion_tokens: 2, llm_calls: 1 };
    const leg = (reported: typeof served) => ({ ...reported, tool_calls: [], suspended: false, served });
    const run = syntheticRun([{}, {}], [{ item_id: "p-01", prompt_tokens: 20, completion_tokens: 4, llm_calls: 2, served: { prompt_tokens: 20, completion_tokens: 4, llm_calls: 2 }, legs: [leg(served), leg({ prompt_tokens: 0, completion_tokens: 0, llm_calls: 0 })] }]);
    expect(usageViolations({ ...run, servedUsage: { prompt_tokens: 20, completion_tokens: 4, llm_calls: 2 } }, 2)).toEqual([
      "p-01: leg 2 reported (0, 0, 0) but the gateway served (10, 2, 1) during it",
    ]);
    expect(usageViolations({ ...run, servedUsage: { prompt_tokens: 30, completion_tokens: 4, llm_calls: 3 } }, 1)).toEqual([
      "p-01: expected 1 leg(s), got 2",
      "p-01: leg 2 reported (0, 0, 0) but the gateway served (10, 2, 1) during it",
      "the gateway served (30, 4, 3) but only (20, 4, 2) was attributed to items",
    ]);
  });
});

describeProbe("usage-accounting", { fixtures: ["under-reporter", "cumulative-resume", "leg-dropper"] });
