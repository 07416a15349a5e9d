/**
 * §14 Checkpoint writes stay inside the harness-owned directory: every resumable adapter's durable
 * run (§13's run on our durable_state, a real restart at the pause) writes nothing outside its
 * items' checkpoint_dir — judged from what the run records, exactly as in a bench: a sealed worker's
 * write elsewhere lands in a throwaway layer and is recorded on its item, a watched worker's on the lane. An
 * adapter that declares an on-disk checkpointer must have written inside checkpoint_dir.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { CHECKPOINT_STORES } from "./declarations.ts";
import { watchedWrites, writesViolations } from "./judges/writes.ts";
import { holds, type Probe } from "./types.ts";

/** The store litterbug keeps in its working directory (fixtures/adapters/litterbug; the suite pins the two equal). */
export const LITTERBUG_STORE = "litterbug-checkpoints.json";

const outside = new RegExp(`^(dur-01: a write outside checkpoint_dir was caught by the sandbox \\(wrote .*${LITTERBUG_STORE.replace(".", "\\.")}.*\\)|wrote outside checkpoint_dir: .*: created ${LITTERBUG_STORE.replace(".", "\\.")} in .*)$`);

export const checkpointWrites: Probe = {
  id: "checkpoint-writes",
  section: "§14",
  rule: "checkpoints are written only inside the harness-owned checkpoint_dir",
  setup: () => [{ id: "writes", setups: ["durable:ours"], pauses: true }],
  // An author's module declares no store here: only where it wrote is judged.
  judge: ({ runs, subject }) => writesViolations(runs[0]!, subject.catalogued || subject.name in CHECKPOINT_STORES ? CHECKPOINT_STORES[subject.name] : "any"),
  hostile: [
    {
      fixture: "litterbug",
      shows: "its store in the working directory: a write outside (caught on the item when sealed, on the lane when watched), and nothing inside",
      own: [{ id: "writes", setups: ["durable:ours:dur-01"] }],
      // Sealed, each write is caught after its leg. Watched, it is reported by every worker live while it
      // landed, beside whatever else appeared in the watched places meanwhile (the watcher cannot
      // tell who wrote: another process's temp dir is reported too).
      expect: ({ violations }) => {
        const rest = violations.slice(0, -1);
        return [
          ...holds(rest.some((v) => outside.test(v)), `the store written outside is not reported: ${JSON.stringify(violations)}`),
          ...holds(rest.every((v) => outside.test(v) || v.startsWith("wrote outside checkpoint_dir: ")), `a violation other than writes outside: ${JSON.stringify(rest)}`),
          ...holds(violations.at(-1) === "declares an on-disk checkpointer but wrote nothing inside checkpoint_dir", `the empty checkpoint_dir is not reported last: ${JSON.stringify(violations)}`),
        ];
      },
      // Watched, the write landed (in the working directory, the repository in the suites): take it away again.
      cleanup: ({ runs }) => {
        for (const p of runs.flatMap(watchedWrites)) if (path.basename(p) === LITTERBUG_STORE) rmSync(p, { force: true });
      },
    },
  ],
};
