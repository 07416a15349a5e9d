/**
 * The setups of probes.md §10 and §12–§15: real arenas (ours, or the reference's) with their own
 * datasets and scripts, run as a bench runs them. Named `<family>:<root>[:<narrowing>]`:
 *
 * - `usage:<root>:<arena>`: §10's items (tu-01, ma-01, hitl-01, dur-01). On the reference the four
 *   lanes share one orchestrator run; on ours the single-leg and the pause lanes run apart, so a
 *   fixture that breaks one kind of leg pays only for that kind.
 * - `pause:<root>`: every item of human_in_the_loop (§12).
 * - `durable:<root>`: durable_state across a real restart (§13, and §14 reads the same run):
 *   dur-01 on the reference; dur-01 and dur-10 on ours, one at a time (so the second item's first
 *   leg lands on the process that ran the first one's resume). `durable:ours:dur-01` is one item, and
 *   `durable:ours:dur-01:same-process` resumes it on the worker that paused (the in-memory cheat's
 *   control, never a bench setting).
 * - `rag:<root>`: every item of rag (§15's walk).
 * - `witness:<root>:<arena>`: every item of tool_use (multi_agent for a pipeline variant), judged on
 *   the served-wire rules every run checks (served-probes.ts): enough requests per worker that a
 *   fixture honest at first shows what it does later.
 */
import { arenaDir, corpusOf, type DataRoot } from "./data-roots.ts";
import { adapterOf, single, type SetupPlan } from "./plan.ts";
import type { SetupName } from "./setups.ts";
import { wireRunMany } from "./wire.ts";

export interface UsageCase {
  readonly id: string;
  readonly arena: string;
  readonly item: string;
  readonly legs: 1 | 2;
}

/** §10: a single leg, a pipeline's single leg (several agents' calls), and the two pause arenas per leg. */
export const USAGE_CASES: readonly UsageCase[] = [
  { id: "single-leg", arena: "tool_use", item: "tu-01", legs: 1 },
  { id: "single-leg-pipeline", arena: "multi_agent", item: "ma-01", legs: 1 },
  { id: "hitl-per-leg", arena: "human_in_the_loop", item: "hitl-01", legs: 2 },
  { id: "durable-per-leg", arena: "durable_state", item: "dur-01", legs: 2 },
];

export const usageSetup = (root: DataRoot, c: UsageCase) => `usage:${root}:${c.arena}` as const;

/** Items of the durable setups; every item of ours has the same two-search, save, calculate shape. */
export const DURABLE_ITEMS: Readonly<Record<DataRoot, readonly string[]>> = { reference: ["dur-01"], ours: ["dur-01", "dur-10"] };

const isRoot = (s: string | undefined): s is DataRoot => s === "ours" || s === "reference";

function usagePlan(root: DataRoot, arena: string): SetupPlan {
  const pauses = (c: UsageCase) => c.legs === 2;
  const members = root === "reference" ? USAGE_CASES : USAGE_CASES.filter((c) => pauses(c) === pauses(USAGE_CASES.find((u) => u.arena === arena)!));
  const group = root === "reference" ? "usage:reference" : `usage:ours:${pauses(members[0]!) ? "pauses" : "single"}`;
  const options = { arenas: members.map((c) => ({ arena: arenaDir(root, c.arena), items: [c.item] })), corpusPath: corpusOf(root), concurrency: 2 };
  return {
    group,
    runs: [options],
    run: async (subject, ctx) => {
      const runs = await ctx.shared(() => wireRunMany({ adapter: adapterOf(subject), ...options }));
      return Object.fromEntries(members.map((c, i) => [usageSetup(root, c), runs[i]!]));
    },
  };
}

/** The plan of a §10/§12–§15 setup, or undefined for a name of another family. */
export function dataPlan(name: SetupName): SetupPlan | undefined {
  const [family, root, ...rest] = name.split(":");
  if (!isRoot(root)) return undefined;
  const corpusPath = corpusOf(root);
  switch (family) {
    case "usage":
      if (rest.length === 1 && USAGE_CASES.some((c) => c.arena === rest[0])) return usagePlan(root, rest[0]!);
      return undefined;
    // Whole arenas of independent items: two in flight, as a bench on two cores runs them.
    case "pause":
      return rest.length === 0 ? single(name, { arena: arenaDir(root, "human_in_the_loop"), corpusPath, concurrency: 2 }) : undefined;
    case "rag":
      return rest.length === 0 ? single(name, { arena: arenaDir(root, "rag"), corpusPath, concurrency: 2 }) : undefined;
    case "witness":
      return rest.length === 1 && (rest[0] === "tool_use" || rest[0] === "multi_agent")
        ? single(name, { arena: arenaDir(root, rest[0]), corpusPath, concurrency: 2 })
        : undefined;
    case "durable": {
      const arena = arenaDir(root, "durable_state");
      if (rest.length === 0) return single(name, { arena, items: DURABLE_ITEMS[root], corpusPath });
      if (root !== "ours" || rest[0] !== "dur-01" || rest.length > 2 || (rest[1] !== undefined && rest[1] !== "same-process")) return undefined;
      return single(name, { arena, items: ["dur-01"], corpusPath, ...(rest[1] ? { reuseWorkerAcrossPause: true } : {}) });
    }
    default:
      return undefined;
  }
}
