/**
 * The arena's canonical tools as AI SDK tools (tools.md §1). The canonical `parameters` object
 * goes in through `jsonSchema()` untouched: the SDK sends a JSON-Schema tool as given (no
 * `strict`, no `additionalProperties`, no `$schema`, `required` not widened) and, with no
 * `validate` function, does not validate the model's arguments either, so a bad argument reaches
 * the canonical tool and the model reads the canonical error. A zod schema would add all of these.
 */
import { jsonSchema, tool, type ToolSet } from "ai";
import type { Toolbox } from "../../../contract/adapter.ts";
import { isSuspendTool, namesFor } from "../../../contract/tools/registry.ts";
import { descriptionOf, jsonSchemaOf } from "../../../contract/tools/specs.ts";
import { decisionText } from "../../../contract/texts.ts";

export { decisionText };


/** The arguments string the model sent for a call, by tool-call id (recorded by the model wrapper). */
export type RawArguments = (toolCallId: string) => string | undefined;

/**
 * One tool per advertised name, in registry order: the SDK sends a record's tools in insertion
 * order (only a partial `toolOrder` would sort the rest alphabetically). A task tool runs the
 * shared `dispatch` on the model's own argument string and returns its string unmodified (a
 * string output reaches the model as the tool message's content, byte for byte).
 */
export function arenaTools(declared: readonly string[], toolbox: Toolbox, raw: RawArguments): ToolSet {
  const tools: ToolSet = {};
  for (const name of namesFor(declared)) {
    tools[name] = tool({
      description: descriptionOf(name),
      // A private copy: the canonical specs are frozen.
      inputSchema: jsonSchema(structuredClone(jsonSchemaOf(name)) as Parameters<typeof jsonSchema>[0]),
      // A pause tool only runs once a human approved it (see `pauseApprovals`): the canonical
      // pause tool's body, which exists to expose an adapter that did not pause, is never run.
      execute: isSuspendTool(name)
        ? async () => decisionText("approve")
        : async (input: unknown, { toolCallId }) => toolbox.dispatch(name, raw(toolCallId) ?? JSON.stringify(input ?? {})),
    });
  }
  return tools;
}

/**
 * The pause: the SDK's call-level approval policy (ai 7 deprecates the per-tool `needsApproval`
 * for it). A call to a pause tool ends the run with a `tool-approval-request` instead of running it.
 */
export function pauseApprovals(declared: readonly string[]): Record<string, "user-approval"> {
  return Object.fromEntries(namesFor(declared).filter(isSuspendTool).map((name) => [name, "user-approval" as const]));
}
