/** `arena run`: selected arenas × frameworks, in mock or live mode. */
import type { Command } from "../command.ts";
import { RUN_FLAGS, runFlow } from "../run-flow.ts";

export const runCommand: Command = {
  name: "run",
  summary: "run arenas × frameworks and write the run record, scorecards and summary",
  common: ["arenas-dir", "arena", "corpus"],
  flags: {
    ...RUN_FLAGS,
    item: { type: "string", multiple: true, valueName: "ID", description: "only these items (a partial run: no scorecard)" },
  },
  run(ctx) {
    const items = Array.isArray(ctx.flags.item) ? (ctx.flags.item as string[]) : [];
    return runFlow(ctx, { items });
  },
};
