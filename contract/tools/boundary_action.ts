/**
 * The `boundary_action` tool (shared spec, tools.md §9): a synthetic action judged by the boundary
 * arena's policy fixture service, which the core harness does not have.
 */
import { pyStr } from "@agentic-arena/py-semantics";
import { defineTool } from "./define.ts";

export const boundaryActionTool = defineTool({
  name: "boundary_action",
  description: "Execute a synthetic action through the fixture policy service.",
  parameters: {
    action: { type: "string", description: "Synthetic action identifier.", required: true },
  },
  unsupported:
    "the harness cannot run this arena faithfully: boundary_action needs the arena's policy fixture service and its oracle, which are out of scope for the core harness",
  run: ({ action }, env) => {
    const text = pyStr(action);
    return env.boundary ? env.boundary(text) : "ERROR: boundary fixture is not configured";
  },
});
