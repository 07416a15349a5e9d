/**
 * §13 Durable across a real restart, for every resumable adapter, on the harness path: the worker
 * that paused is SIGKILLed and leg 2 runs in a fresh process built from the same adapter and config,
 * sharing nothing but the JSON resume_state and the checkpoint directory. Leg 2 must succeed and
 * continue (leg tools [search, search] then [calculator]), reaching the answer (498 on the
 * reference dur-01; each item's own number on our durable_state). State bytes and the files each
 * adapter leaves in the checkpoint directory are written to `runs/findings/durable.json`.
 * (tests/run/durable-restart.test.ts holds the baseline and the fixtures to the scorecard; here
 * the same fixtures prove this probe fails.)
 */
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { FIXTURES } from "../../fixtures/catalogue.ts";
import { OUR_ARENAS } from "../support/run.ts";
import { describeWithReference, REFERENCE_ARENAS, REFERENCE_CORPUS } from "../support/reference.ts";
import { durableFinding, durableViolations, expectationsFor, type DurableExpectation, type DurableFinding } from "./checks/durable.ts";
import { proceed } from "../../orchestrator/probes/built.ts";
import { judge, knownFor, KNOWN_FINDINGS } from "../../orchestrator/probes/known.ts";
import { unsupportedViolations, WITHOUT_RESUME } from "./checks/pause.ts";
import { probeAdapters, probeRun } from "./support.ts";
import { writeFindings } from "./findings-file.ts";

/** Real adapters' known durable findings (adapter → case → expected violations). Empty: all pass. */
const KNOWN = KNOWN_FINDINGS["durable"]!; // kept with the registry (orchestrator/probes/known.ts)

const REF_DUR01: DurableExpectation = { itemId: "dur-01", answer: "498", legTools: [["search", "search"], ["calculator"]] };
const OUR_DURABLE = path.join(OUR_ARENAS, "durable_state");

const findings: DurableFinding[] = [];
/** Every resumable adapter on the reference dur-01 and on our items. */
const expectedRows = probeAdapters().filter((a) => !WITHOUT_RESUME.has(a.name)).length * 2;

afterAll(() => {
  if (findings.length === 0) return;
  findings.sort((a, b) => a.adapter.localeCompare(b.adapter) || a.arena.localeCompare(b.arena));
  writeFindings("durable", "tests/probes/durable.test.ts", {
    note: "Not gated: resume_state bytes (leg 1, min–max over items) and the files each adapter left in its harness-owned checkpoint_dir.",
    // False when the file ran filtered, the reference was absent, or a run did not finish.
    complete: findings.length === expectedRows,
    rows: findings,
  });
});

function suite(arenaLabel: string, dir: string, wants: () => DurableExpectation[], options: { items?: string[]; corpusPath?: string }) {
  for (const adapter of probeAdapters()) {
    const title = WITHOUT_RESUME.has(adapter.name) ? "reported unsupported (no resume API)" : "leg 2 in a fresh process resumes and answers";
    it(`${adapter.name}: ${title}`, async (ctx) => {
      const run = await probeRun({
        adapter,
        arena: dir,
        ...(options.items ? { items: options.items } : {}),
        ...(options.corpusPath ? { corpusPath: options.corpusPath } : {}),
      });
      if (!proceed(ctx, run.framework)) return;
      if (WITHOUT_RESUME.has(adapter.name)) {
        expect(unsupportedViolations(run.framework)).toEqual([]);
        return;
      }
      const v = durableViolations(run, wants());
      findings.push(durableFinding(adapter.name, arenaLabel, run, v));
      const { unexpected, stale } = judge(v, knownFor(KNOWN, adapter.name, arenaLabel));
      expect(unexpected).toEqual([]);
      expect(stale).toEqual([]);
    }, 300_000);
  }
}

describeWithReference("§13 durable across a real restart (reference dur-01: 498)", () => {
  describe.concurrent("all adapters", () => {
    suite("reference durable_state dur-01", path.join(REFERENCE_ARENAS, "durable_state"), () => [REF_DUR01], {
      items: ["dur-01"],
      corpusPath: REFERENCE_CORPUS,
    });
  });
});

/**
 * Two of our items (every item has the same two-search, save, calculate shape): the second one's
 * leg 1 lands on the process that ran the first one's leg 2, and its leg 2 again on a fresh one.
 */
const OUR_ITEMS = ["dur-01", "dur-10"];

describe.concurrent("§13 durable across a real restart (our durable_state dur-01, dur-10)", () => {
  suite("durable_state", OUR_DURABLE, () => expectationsFor(loadArena(OUR_DURABLE)).filter((w) => OUR_ITEMS.includes(w.itemId)), {
    items: OUR_ITEMS,
  });
});

describe.concurrent("§13 hostile fixtures are caught", () => {
  const ours = expectationsFor(loadArena(OUR_DURABLE)).find((w) => w.itemId === "dur-01")!;
  const run = (name: keyof typeof FIXTURES, reuse = false) =>
    probeRun({ adapter: { name, module: FIXTURES[name].module }, arena: OUR_DURABLE, items: ["dur-01"], reuseWorkerAcrossPause: reuse });

  it("cheater (state in a module-level map) passes without the restart and fails leg 2 with it", async () => {
    const [inMemory, restarted] = await Promise.all([run("cheater", true), run("cheater")]);
    // Without a real process boundary the cheat is invisible, except that one worker served both legs.
    expect(durableViolations(inMemory, [ours])).toEqual(["every request came from 1 worker(s): the resume did not run in a fresh process"]);
    const v = durableViolations(restarted, [ours]);
    expect(v, v.join("\n")).toEqual([`dur-01: 1 leg(s) completed, expected 2 — leg 2 failed in the fresh process: KeyError: 'dur-01'`]);
  }, 300_000);

  it("restarter (starts over on resume) fails: leg 2 redoes both searches", async () => {
    const v = durableViolations(await run("restarter"), [ours]);
    expect(v).toEqual(['dur-01: leg 2 tools ["search","search","calculator"], expected ["calculator"] (resumed, not restarted)']);
  }, 300_000);
});
