/**
 * The baseline's tools: the canonical specs of the arena's tools, sent unmodified (tools.md §1–§2),
 * and every call run through the shared `dispatch` with its arguments exactly as received.
 */
import type { Toolbox } from "../../../contract/adapter.ts";
import type { ArenaSpec } from "../../../contract/protocol.ts";
import { specsFor } from "../../../contract/tools/registry.ts";
import type { ToolSpec } from "../../../contract/tools/specs.ts";
import type { Message, WireToolCall } from "./model.ts";

export function arenaTools(arena: ArenaSpec): ToolSpec[] {
  return specsFor(arena.tools);
}

/** Run one call; its result string, unmodified, is the tool message the transcript gets. */
export function toolMessage(tools: Toolbox, call: WireToolCall): Message {
  return { role: "tool", tool_call_id: call.id, content: tools.dispatch(call.name, call.arguments) };
}
