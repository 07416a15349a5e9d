/**
 * Every canonical tool, keyed by name, in registry (= advertised) order (shared spec, tools.md §1).
 * The `satisfies` clause is the join: a name without a definition, a definition filed under
 * another name, or a definition without a body does not compile.
 */
import { boundaryActionTool } from "./boundary_action.ts";
import { bookRoomTool } from "./book_room.ts";
import { calculatorTool } from "./calculator.ts";
import type { ToolDefinition } from "./define.ts";
import { requestApprovalTool } from "./request_approval.ts";
import { saveProgressTool } from "./save_progress.ts";
import { searchTool } from "./search.ts";
import { searchRoomsTool } from "./search_rooms.ts";

export type ToolName =
  | "boundary_action"
  | "search"
  | "calculator"
  | "search_rooms"
  | "request_approval"
  | "save_progress"
  | "book_room";

export const CANONICAL_TOOLS = Object.freeze({
  boundary_action: boundaryActionTool,
  search: searchTool,
  calculator: calculatorTool,
  search_rooms: searchRoomsTool,
  request_approval: requestApprovalTool,
  save_progress: saveProgressTool,
  book_room: bookRoomTool,
} satisfies { readonly [N in ToolName]: ToolDefinition<N> });

export const TOOL_NAMES: readonly ToolName[] = Object.freeze(Object.keys(CANONICAL_TOOLS) as ToolName[]);

export function isToolName(name: string): name is ToolName {
  return Object.hasOwn(CANONICAL_TOOLS, name);
}

/** The definition of a canonical tool; undefined for any other name (never an inherited property). */
export function toolDefinition(name: string): ToolDefinition | undefined {
  return isToolName(name) ? CANONICAL_TOOLS[name] : undefined;
}
