/**
 * §12 The pause is observed by the harness: every resumable adapter on human_in_the_loop (our
 * arena and the reference's, real dataset and script) passes every item, suspends exactly once per
 * item, never lists the pause tool as an executed call, and books exactly the approved rooms, after
 * the pause. An adapter without resume is reported `unsupported`, never as failing items.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { FIXTURES } from "../../fixtures/catalogue.ts";
import { OUR_ARENAS } from "../support/run.ts";
import { describeWithReference, REFERENCE_ARENAS, REFERENCE_CORPUS } from "../support/reference.ts";
import { proceed } from "../../orchestrator/probes/built.ts";
import { judge, knownFor, KNOWN_FINDINGS } from "../../orchestrator/probes/known.ts";
import { pauseViolations, unsupportedViolations, WITHOUT_RESUME } from "./checks/pause.ts";
import { probeAdapters, probeRun } from "./support.ts";

/** Real adapters' known pause findings (adapter → case → expected violations). Empty: all pass. */
const KNOWN = KNOWN_FINDINGS["pause"]!; // kept with the registry (orchestrator/probes/known.ts)

const OUR_HITL = path.join(OUR_ARENAS, "human_in_the_loop");
const REF_HITL = path.join(REFERENCE_ARENAS, "human_in_the_loop");

function suite(dir: string, probeCase: string, corpusPath?: string) {
  for (const adapter of probeAdapters()) {
    it(`${adapter.name}: ${WITHOUT_RESUME.has(adapter.name) ? "reported unsupported (no resume API)" : "every item pauses exactly once, observed by the harness"}`, async (ctx) => {
      const run = await probeRun({ adapter, arena: dir, ...(corpusPath ? { corpusPath } : {}) });
      if (!proceed(ctx, run.framework)) return;
      if (WITHOUT_RESUME.has(adapter.name)) {
        expect(unsupportedViolations(run.framework)).toEqual([]);
        return;
      }
      const v = pauseViolations(run.framework, loadArena(dir));
      const { unexpected, stale } = judge(v, knownFor(KNOWN, adapter.name, probeCase));
      expect(unexpected).toEqual([]);
      expect(stale).toEqual([]);
    }, 300_000);
  }
}

describe.concurrent("§12 the pause is observed by the harness (our human_in_the_loop)", () => {
  suite(OUR_HITL, "hitl-ours");
});

describeWithReference("§12 the pause is observed by the harness (reference human_in_the_loop)", () => {
  describe.concurrent("all adapters", () => suite(REF_HITL, "hitl-reference", REFERENCE_CORPUS));
});

describe.concurrent("§12 hostile fixtures are caught", () => {
  const arena = loadArena(OUR_HITL);
  const run = (name: keyof typeof FIXTURES) => probeRun({ adapter: { name, module: FIXTURES[name].module }, arena: OUR_HITL });
  const n = arena.items.length;

  it("runs-through (executes request_approval and carries on) never suspends: fails on every item", async () => {
    const v = pauseViolations((await run("runs-through")).framework, arena);
    const notSuspended = v.filter((x) => /: suspended 0 times \(expected exactly once\)/.test(x));
    expect(notSuspended, v.join("\n")).toHaveLength(n);
    expect(v).toContain(`0/${n} items passed`);
  }, 300_000);

  it("prose-pause (says it needs approval instead of suspending) fails suspended on every item", async () => {
    const v = pauseViolations((await run("prose-pause")).framework, arena);
    expect(v.filter((x) => /: suspended 0 times/.test(x)), v.join("\n")).toHaveLength(n);
  }, 300_000);

  it("logs-pause (lists request_approval in tool_calls) is caught although the scorecard stays green", async () => {
    const fw = (await run("logs-pause")).framework;
    expect(fw.items.every((i) => i.passed)).toBe(true);
    const v = pauseViolations(fw, arena);
    expect(v.filter((x) => x.endsWith(": request_approval appears in tool_calls (a pause tool is not an executed tool)")), v.join("\n")).toHaveLength(n);
  }, 300_000);
});
