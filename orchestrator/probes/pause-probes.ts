/**
 * §12 The pause is observed by the harness: every resumable adapter on human_in_the_loop (ours
 * and the reference's, real dataset and script) passes every item, suspends exactly once per
 * item, never lists the pause tool as an executed call, and books exactly the approved rooms,
 * after the pause. An adapter without resume is reported `unsupported`, never as failing items.
 */
import { loadArena } from "../arena/load.ts";
import type { Arena } from "../arena/schemas.ts";
import { arenaDir, bothRoots, type DataRoot } from "./data-roots.ts";
import { pauseViolations } from "./judges/pause.ts";
import { holds, includes, type HostileCase, type Probe } from "./types.ts";

const arenas = new Map<string, Arena>();
/** The human_in_the_loop arena of a data root (loaded once). */
export function hitlArena(root: DataRoot): Arena {
  const dir = arenaDir(root, "human_in_the_loop");
  let arena = arenas.get(dir);
  if (!arena) arenas.set(dir, (arena = loadArena(dir)));
  return arena;
}

const rootOf = (probeCase: string) => probeCase.slice("hitl-".length) as DataRoot;
const OURS = ["hitl-ours"];

/** Exactly one violation per item of our arena matching `test`. */
const perItem = (violations: readonly string[], test: (v: string) => boolean, what: string) => {
  const n = hitlArena("ours").items.length;
  const k = violations.filter(test).length;
  return holds(k === n, `${what} on ${k} of ${n} items: ${JSON.stringify(violations)}`);
};

const notSuspended = (v: string) => /: suspended 0 times \(expected exactly once\)/.test(v);

export const pause: Probe = {
  id: "pause",
  section: "§12",
  rule: "the pause is observed by the harness: one suspend per item, the pause tool never an executed call, bookings only after approval",
  setup: () => bothRoots().map((root) => ({ id: `hitl-${root}`, setups: [`pause:${root}` as const], pauses: true })),
  judge: ({ probeCase, runs }) => pauseViolations(runs[0]!.record, hitlArena(rootOf(probeCase))),
  hostile: [
    {
      fixture: "runs-through",
      shows: "executes request_approval and carries on: never suspends, fails on every item",
      cases: OURS,
      expect: ({ violations }) => [
        ...perItem(violations, notSuspended, "not suspended"),
        ...includes(violations, `0/${hitlArena("ours").items.length} items passed`),
      ],
    },
    {
      fixture: "prose-pause",
      shows: "says it needs approval instead of suspending: fails suspended on every item",
      cases: OURS,
      expect: ({ violations }) => perItem(violations, (v) => /: suspended 0 times/.test(v), "not suspended"),
    },
    {
      fixture: "logs-pause",
      shows: "lists request_approval in tool_calls: caught although the scorecard stays green",
      cases: OURS,
      expect: ({ runs, violations }) => [
        ...holds(runs[0]!.record.items.every((i) => i.passed), "an item failed (the fixture should pass every item)"),
        ...perItem(violations, (v) => v.endsWith(": request_approval appears in tool_calls (a pause tool is not an executed tool)"), "request_approval listed"),
      ],
    },
  ] satisfies HostileCase[],
};
