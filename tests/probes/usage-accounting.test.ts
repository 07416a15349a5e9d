/**
 * §10 Usage accounting: every adapter's reported (prompt_tokens, completion_tokens, llm_calls)
 * equals what the gateway served — for a single leg, and per leg on the pause arenas, where the
 * classic bugs live (a leg counted twice, a leg dropped). The durable leg runs across a real
 * restart (a fresh worker process). Each hostile fixture must fail.
 *
 * Served usage is attributed through each worker's own tagged base URL, so an item whose requests
 * reached the gateway proves the adapter used the configured `base_url` (harness.md §1 maps that
 * field here); an item with nothing served is a violation.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../fixtures/catalogue.ts";
import { OUR_ARENAS } from "../support/run.ts";
import { describeWithReference, REFERENCE_ARENAS, REFERENCE_CORPUS } from "../support/reference.ts";
import { proceed } from "../../orchestrator/probes/built.ts";
import { judge, knownFor, KNOWN_FINDINGS } from "../../orchestrator/probes/known.ts";
import { unsupportedViolations, WITHOUT_RESUME } from "./checks/pause.ts";
import { pinViolations, usageViolations, type UsageExpectation } from "./checks/usage.ts";
import { probeAdapters, probeRun, probeRunMany, type ProbeRun } from "./support.ts";

/**
 * Real adapters' known usage-accounting findings (adapter → case → expected violation). Empty:
 * every real adapter reports what it was served.
 */
const KNOWN = KNOWN_FINDINGS["usage-accounting"]!; // kept with the registry (orchestrator/probes/known.ts)

interface Case {
  readonly id: string;
  readonly arena: string;
  readonly item: string;
  readonly expect: UsageExpectation;
}

/** One orchestrator run per adapter covers every case (four lanes, one scorer). */
const CASES: readonly Case[] = [
  { id: "single-leg", arena: "tool_use", item: "tu-01", expect: { legs: 1 } },
  // The pipeline variants' own arena (a single leg with several agents' calls).
  { id: "single-leg-pipeline", arena: "multi_agent", item: "ma-01", expect: { legs: 1 } },
  { id: "hitl-per-leg", arena: "human_in_the_loop", item: "hitl-01", expect: { legs: 2 } },
  { id: "durable-per-leg", arena: "durable_state", item: "dur-01", expect: { legs: 2 } },
];

/** The baseline on the reference data (probes.md §10). */
const PINS: Readonly<Record<string, { total: [number, number, number]; legs?: [number, number, number][] }>> = {
  "tu-01": { total: [616, 35, 2] },
  "hitl-01": { total: [2119, 117, 4], legs: [[907, 74, 2], [1212, 43, 2]] },
  "dur-01": { total: [3581, 149, 5], legs: [[1763, 104, 3], [1818, 45, 2]] },
};

function runCases(adapter: { name: string; module: string }, reference: boolean): Promise<ProbeRun[]> {
  const root = reference ? REFERENCE_ARENAS : OUR_ARENAS;
  return probeRunMany({
    adapter,
    arenas: CASES.map((c) => ({ arena: path.join(root, c.arena), items: [c.item] })),
    concurrency: 2,
    ...(reference ? { corpusPath: REFERENCE_CORPUS } : {}),
  });
}

function suite(reference: boolean) {
  for (const adapter of probeAdapters()) {
    describe.concurrent(adapter.name, () => {
      let runs: Promise<ProbeRun[]> | undefined;
      const shared = () => (runs ??= runCases(adapter, reference));
      CASES.forEach((c, index) => {
        it(`${c.id}: ${c.arena} ${c.item} — reported equals served${c.expect.legs === 2 ? ", per leg" : ""}`, async (ctx) => {
          const run = (await shared())[index]!;
          if (!proceed(ctx, run.framework)) return;
          if (c.expect.legs === 2 && WITHOUT_RESUME.has(adapter.name)) {
            // No resume API (declared): "unsupported" on a pause arena, not a usage bug.
            expect(unsupportedViolations(run.framework)).toEqual([]);
            return;
          }
          const { unexpected, stale } = judge(usageViolations(run, c.expect), knownFor(KNOWN, adapter.name, c.id));
          expect(unexpected).toEqual([]);
          expect(stale).toEqual([]);
          if (reference && adapter.name === "vanilla" && PINS[c.item]) expect(pinViolations(run, c.item, PINS[c.item]!)).toEqual([]);
        }, 300_000);
      });
    });
  }
}

it("§10 the baseline is in the matrix", () => {
  expect(probeAdapters().map((a) => a.name)).toContain("vanilla");
});

// The spec's setups are the reference items (with the baseline's numbers pinned); the fixtures
// below prove the probe on our own arenas, so it can fail even where the reference is absent.
describeWithReference("§10 usage accounting (reference arenas, baseline pinned)", () => {
  suite(true);
});

describe.concurrent("§10 hostile fixtures are caught", () => {
  const fixture = (name: keyof typeof FIXTURES) => ({ name, module: FIXTURES[name].module });
  const PAUSES = [["human_in_the_loop", "hitl-01"], ["durable_state", "dur-01"]] as const;
  /** One run per fixture covers both pause arenas. */
  const onPauses = (name: keyof typeof FIXTURES) =>
    probeRunMany({ adapter: fixture(name), arenas: PAUSES.map(([arena, item]) => ({ arena: path.join(OUR_ARENAS, arena), items: [item] })), concurrency: 2 });

  it("under-reporter (reports only the last call) fails the single leg", async () => {
    const run = await probeRun({ adapter: fixture("under-reporter"), arena: path.join(OUR_ARENAS, "tool_use"), items: ["tu-01"] });
    const v = usageViolations(run, { legs: 1 });
    expect(v.some((x) => /^tu-01: reported \(\d+, \d+, 1\) in total but the gateway served \(\d+, \d+, 2\)/.test(x)), v.join("\n")).toBe(true);
  }, 300_000);

  it("cumulative-resume (leg 2 includes leg 1) fails leg 2 on human_in_the_loop and durable_state", async () => {
    const runs = await onPauses("cumulative-resume");
    PAUSES.forEach(([, item], i) => {
      const v = usageViolations(runs[i]!, { legs: 2 });
      expect(v.some((x) => x.startsWith(`${item}: leg 2 reported`)), v.join("\n")).toBe(true);
      expect(v.some((x) => x.startsWith(`${item}: leg 1 reported`))).toBe(false);
    });
  }, 300_000);

  it("leg-dropper (leg 2 reports zero) fails leg 2 on human_in_the_loop and durable_state", async () => {
    const runs = await onPauses("leg-dropper");
    PAUSES.forEach(([, item], i) => {
      const v = usageViolations(runs[i]!, { legs: 2 });
      expect(v.some((x) => x.startsWith(`${item}: leg 2 reported (0, 0, 0)`)), v.join("\n")).toBe(true);
    });
  }, 300_000);
});
