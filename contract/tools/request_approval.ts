/**
 * The `request_approval` suspend tool (shared spec, tools.md §7): an adapter pauses the run at the
 * call and the human's decision becomes its result; the body only exposes one that did not.
 */
import { pyStr } from "@agentic-arena/py-semantics";
import { defineTool } from "./define.ts";

export const requestApprovalTool = defineTool({
  name: "request_approval",
  description: "Ask a human to approve a consequential action before you take it. Call this and stop; you will be told the decision.",
  parameters: {
    summary: { type: "string", description: "What you want approved.", required: true },
  },
  pause: { request: "summary" },
  run: ({ summary }) => `NOT APPROVED - the agent did not pause for a decision on: ${pyStr(summary)}`,
});
