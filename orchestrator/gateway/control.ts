/** The control-tool names the gateway reacts to; the registry owns them, §5.2 names one. */
import { HANDOFF_PREFIX, isControlTool as registryIsControlTool } from "../../contract/tools/registry.ts";

export { HANDOFF_PREFIX };

/** The tool whose presence turns a content turn into a call (gateway.md §5.2). */
export const FINAL_ANSWER = "final_answer";

/** `final_answer` or a handoff: tools that do not count as holding an arena tool (§4.1). */
export function isControlTool(name: string): boolean {
  return registryIsControlTool(name);
}
