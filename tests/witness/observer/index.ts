/**
 * An adapter that only looks around: everything adapter code can observe of its worker (its
 * environment, argv, working directory, TMPDIR, the config and arena it was built with, the item
 * and checkpoint folder each leg is given, and the call stacks its build and legs run on),
 * answered as the item's output text, so the run record carries it out without the adapter
 * writing a file. The indistinguishable test compares what it saw in a probe run and in a bench run.
 */
import os from "node:os";
import type { Adapter, WorkItem } from "../../../contract/adapter.ts";

const stack = () => (new Error("observer").stack ?? "").split("\n").slice(1).map((l) => l.trim());

function around() {
  return { env: { ...process.env }, argv: process.argv, execArgv: process.execArgv, cwd: process.cwd(), tmpdir: os.tmpdir() };
}

const adapter: Adapter = {
  name: "observer",
  libVersion: "test (observes its worker)",
  build(arena, config) {
    const built = { ...around(), config, arena, stack: stack() };
    const leg = async (item: WorkItem) => {
      const sync = stack();
      await Promise.resolve();
      const seen = { built, leg: { ...around(), item, stack: sync, asyncStack: stack() } };
      return { output_text: JSON.stringify(seen) };
    };
    // Resumable, so pause arenas build it too; it never suspends, so resume never runs.
    return { run: leg, resume: leg };
  },
};
export default adapter;
