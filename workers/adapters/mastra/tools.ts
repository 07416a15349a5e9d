/**
 * The arena's canonical tools as Mastra tools. Each is built from the canonical spec (tools.md §1):
 * Mastra accepts a JSON Schema object as `inputSchema`, so name, description and every parameter
 * (type, description, default) come from the spec unchanged; Mastra adds `$schema` and
 * `additionalProperties: false` on the wire (README, Findings). A task tool runs through the
 * shared `dispatch` with the argument string the model sent; a pause tool is a Mastra approval
 * tool (`requireApproval`), so Mastra itself stops the run before it executes.
 */
import { createTool } from "@mastra/core/tools";
import { isSuspendTool, namesFor } from "../../../contract/tools/registry.ts";
import { descriptionOf, jsonSchemaOf, type ToolName } from "../../../contract/tools/specs.ts";
import type { Toolbox } from "../../../contract/adapter.ts";
import type { LegLedger } from "./ledger.ts";
import { decisionText } from "../../../contract/texts.ts";

export { decisionText };


interface ToolContext {
  readonly agent?: { readonly toolCallId?: string };
}

function canonicalTool(name: ToolName, toolbox: Toolbox, ledger: LegLedger) {
  // A private copy: the canonical specs are frozen, and Mastra annotates the schema it is given.
  const inputSchema: unknown = structuredClone(jsonSchemaOf(name));
  const common = { id: name, description: descriptionOf(name), inputSchema: inputSchema as any };
  if (isSuspendTool(name)) {
    // Runs only when the call is approved; a declined call gets the decline reason instead.
    return createTool({ ...common, requireApproval: true, execute: async () => decisionText("approve") });
  }
  return createTool({
    ...common,
    execute: async (input: unknown, context?: ToolContext) => {
      const raw = ledger.argumentsOf(context?.agent?.toolCallId);
      return toolbox.dispatch(name, raw ?? JSON.stringify(input ?? {}));
    },
  });
}

/** One Mastra tool per advertised name, keyed by name, in registry order (`namesFor`). */
export function canonicalTools(declared: readonly string[], toolbox: Toolbox, ledger: LegLedger) {
  return Object.fromEntries(namesFor(declared).map((name) => [name, canonicalTool(name, toolbox, ledger)]));
}
