/**
 * An adapter that only looks around: everything adapter code can observe of its worker (its
 * environment, argv, working directory, TMPDIR, the config and arena it was built with), answered
 * as the item's output text, so the run record carries it out without the adapter writing a file.
 * The indistinguishable test compares what it saw in a probe run and in a bench run.
 */
import os from "node:os";
import type { Adapter } from "../../../contract/adapter.ts";

const adapter: Adapter = {
  name: "observer",
  libVersion: "test (observes its worker)",
  build(arena, config) {
    const seen = { env: { ...process.env }, argv: process.argv, execArgv: process.execArgv, cwd: process.cwd(), tmpdir: os.tmpdir(), config, arena };
    return { run: async () => ({ output_text: JSON.stringify(seen) }) };
  },
};
export default adapter;
