/**
 * The arena's tools as Strands `FunctionTool`s, derived from the canonical specs (tools.md §1).
 *
 * A `FunctionTool` given a plain JSON Schema sends it as the `parameters` of the Chat Completions
 * tool unmodified and validates nothing (only a zod schema is validated), so every parameter, type,
 * description and `k`'s default reach the wire exactly as the baseline sends them.
 *
 * Execution goes through the shared `dispatch` with the model's own argument string when the
 * stream gave us one (Strands hands the tool only `JSON.parse`d input, which would turn `3.0` into
 * `3`); a string result becomes a text block the provider sends as the tool message verbatim.
 *
 * The pause tools raise a Strands interrupt instead of running: the first call stops the agent
 * with `stopReason: 'interrupt'`; after a resume with the decision as the interrupt's response,
 * the same call returns `Decision: <decision>.` (the text the baseline appends).
 */
import { FunctionTool, type JSONSchema, type ToolContext } from "@strands-agents/sdk";
import { isSuspendTool, namesFor } from "../../../contract/tools/registry.ts";
import { descriptionOf, jsonSchemaOf, type ToolName } from "../../../contract/tools/specs.ts";
import type { Toolbox } from "../../../contract/adapter.ts";
import { decisionText } from "../../../contract/texts.ts";

export { decisionText };

/** The name every pause interrupt carries; the resume answers exactly these. */
export const PAUSE_INTERRUPT = "arena_pause";

export interface PauseReason {
  readonly tool: string;
  readonly summary: string;
}


/** What the tools report back to the leg: the task calls they ran, with the arguments they ran on. */
export interface ToolHooks {
  /** The model's raw argument string for a tool use, when the stream carried it. */
  rawArguments(toolUseId: string): string | undefined;
}

function summaryOf(input: unknown): string {
  const args = (input ?? {}) as { summary?: unknown; note?: unknown };
  const value = args.summary ?? args.note;
  return typeof value === "string" ? value : "";
}

/** A fresh copy of the canonical parameters schema, handed over as is. */
function canonicalSchema(name: ToolName): JSONSchema {
  return structuredClone(jsonSchemaOf(name)) as JSONSchema;
}

function pauseTool(name: ToolName): FunctionTool {
  return new FunctionTool({
    name,
    description: descriptionOf(name),
    inputSchema: canonicalSchema(name),
    callback: (input: unknown, context: ToolContext) => {
      const reason: PauseReason = { tool: name, summary: summaryOf(input) };
      // Throws on the first call (the agent stops); returns the decision once the resume answered it.
      const response = context.interrupt({ name: PAUSE_INTERRUPT, reason: { ...reason } });
      return decisionText(String(response));
    },
  });
}

function taskTool(name: ToolName, toolbox: Toolbox, hooks: ToolHooks): FunctionTool {
  return new FunctionTool({
    name,
    description: descriptionOf(name),
    inputSchema: canonicalSchema(name),
    callback: (input: unknown, context: ToolContext) => {
      const raw = hooks.rawArguments(context.toolUse.toolUseId);
      return toolbox.dispatch(name, raw ?? input);
    },
  });
}

export function arenaTools(declared: readonly string[], toolbox: Toolbox, hooks: ToolHooks): FunctionTool[] {
  return namesFor(declared).map((name) => (isSuspendTool(name) ? pauseTool(name) : taskTool(name, toolbox, hooks)));
}
