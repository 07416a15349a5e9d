/**
 * §13 Durable across a real restart, on the harness path: the worker that paused is SIGKILLed and
 * leg 2 runs in a fresh process built from the same adapter and config, sharing nothing but the
 * JSON resume_state and the item's checkpoint directory. Leg 2 must succeed and continue (leg tools
 * [search, search] then [calculator]), reaching the answer (498 on the reference dur-01; each
 * item's own number on ours). tests/run/durable-restart.test.ts holds the same fixtures to the
 * scorecard; here they prove the probe can fail.
 */
import { loadArena } from "../arena/load.ts";
import { arenaDir, bothRoots } from "./data-roots.ts";
import { DURABLE_ITEMS } from "./data-setups.ts";
import { durableViolations, expectationsFor, REFERENCE_DUR01, type DurableExpectation } from "./judges/durable.ts";
import { exactly, type Probe } from "./types.ts";

let ours: DurableExpectation[] | undefined;
/** Our durable_state's expectations, read from its own checks. */
function oursFor(items: readonly string[]): DurableExpectation[] {
  ours ??= expectationsFor(loadArena(arenaDir("ours", "durable_state")));
  return ours.filter((w) => items.includes(w.itemId));
}

/** What each case expects: the reference dur-01, our two items, or (fixtures) our dur-01 alone. */
function wants(probeCase: string): DurableExpectation[] {
  if (probeCase === "dur-reference") return [REFERENCE_DUR01];
  if (probeCase === "dur-ours") return oursFor(DURABLE_ITEMS.ours);
  return oursFor(["dur-01"]);
}

const ONE = "durable:ours:dur-01" as const;

export const durable: Probe = {
  id: "durable",
  section: "§13",
  rule: "durable means durable across a real restart: leg 2 in a fresh process resumes, not restarts, and answers",
  setup: () => bothRoots().map((root) => ({ id: `dur-${root}`, setups: [`durable:${root}` as const], pauses: true })),
  judge: ({ probeCase, runs }) => durableViolations(runs[0]!, wants(probeCase)),
  hostile: [
    {
      fixture: "cheater",
      shows: "state in a module-level map: passes without the restart (one worker served both legs), fails leg 2 with it",
      own: [
        { id: "dur-01:same-process", setups: [`${ONE}:same-process`] },
        { id: "dur-01", setups: [ONE] },
      ],
      expect: ({ cases }) => [
        ...exactly(cases[0]?.violations ?? [], ["every request came from 1 worker(s): the resume did not run in a fresh process"]).map((p) => `same process: ${p}`),
        ...exactly(cases[1]?.violations ?? [], ["dur-01: 1 leg(s) completed, expected 2 — leg 2 failed in the fresh process: KeyError: 'dur-01'"]).map((p) => `restarted: ${p}`),
      ],
    },
    {
      fixture: "restarter",
      shows: "starts over on resume: leg 2 redoes both searches",
      own: [{ id: "dur-01", setups: [ONE] }],
      expect: ({ violations }) => exactly(violations, ['dur-01: leg 2 tools ["search","search","calculator"], expected ["calculator"] (resumed, not restarted)']),
    },
  ],
};
