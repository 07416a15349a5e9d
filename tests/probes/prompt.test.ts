/**
 * §1 The arena prompt reaches the model: the sentinel sentence is in the message text of every
 * served request (every stage of a pipeline). Mock mode replays correct turns whatever the prompt
 * said, so a hard-coded prompt is visible only here.
 */
import { describe, expect, it } from "vitest";
import { promptViolations } from "./checks/contract.ts";
import { judge, knownFor, type KnownFindings } from "./checks/known.ts";
import { probeAdapters, SENTINEL_SENTENCE } from "./support.ts";
import {
  fixtureEntry,
  requireBuilt,
  setupRun,
  wireRun,
  SENTINEL_ARENA,
  MATRIX_TIMEOUT_MS,
  FIXTURE_TIMEOUT_MS,
} from "./wire-runs.ts";

/** Real adapters' known §1 findings (adapter → case → expected violation). Empty: every adapter passes. */
const KNOWN: KnownFindings = {};

describe("§1 the arena prompt reaches the model", () => {
  it("the baseline is in the matrix", () => {
    expect(probeAdapters().map((a) => a.name)).toContain("vanilla");
  });

  describe.concurrent("every adapter", () => {
    for (const adapter of probeAdapters()) {
      it(`${adapter.name}: the sentinel sentence is in every request`, async (ctx) => {
        const run = await setupRun("sentinel", adapter);
        if (!requireBuilt(ctx, run)) return;
        const { unexpected, stale } = judge(promptViolations(run, SENTINEL_SENTENCE), knownFor(KNOWN, adapter.name, "sentinel"));
        expect(unexpected).toEqual([]);
        expect(stale).toEqual([]);
      }, MATRIX_TIMEOUT_MS);
    }
  });

  it("hostile: hardcoded-prompt (a fixed prompt written for another arena) fails", async () => {
    const run = await wireRun({ adapter: fixtureEntry("hardcoded-prompt"), arena: SENTINEL_ARENA });
    const v = promptViolations(run, SENTINEL_SENTENCE);
    expect(run.bodies.length).toBeGreaterThan(0);
    expect(v).toHaveLength(run.bodies.length);
    expect(v.every((x) => x.includes("the arena prompt is missing")), v.join("\n")).toBe(true);
  }, FIXTURE_TIMEOUT_MS);
});
