/**
 * The `save_progress` suspend tool (shared spec, tools.md §7): an adapter checkpoints and pauses
 * the run at the call; the body only exposes one that did not.
 */
import { pyStr } from "@agentic-arena/py-semantics";
import { defineTool } from "./define.ts";

export const saveProgressTool = defineTool({
  name: "save_progress",
  description: "Checkpoint what you have gathered so far, then stop. You will be resumed and can carry on from where you left off.",
  parameters: {
    note: { type: "string", description: "What you have established so far.", required: true },
  },
  pause: { request: "note" },
  run: ({ note }) => `NOT CHECKPOINTED - the adapter did not suspend at: ${pyStr(note)}`,
});
