/**
 * The arena's canonical tools as LangChain tools. Each one is built from the canonical spec
 * (tools.md §1): the JSON Schema object is handed to LangChain as is (it accepts JSON Schema as
 * well as zod), so name, description, every parameter, type, description and default reach the
 * wire unchanged. Executing a task tool goes through the shared `dispatch` with the arguments
 * string the model sent; a suspend tool calls LangGraph's `interrupt()` instead.
 */
import { tool, type StructuredToolInterface } from "@langchain/core/tools";
import { interrupt } from "@langchain/langgraph";
import type { Toolbox } from "../../../contract/adapter.ts";
import { decisionText } from "../../../contract/texts.ts";
import { isSuspendTool, namesFor, pauseRequestOf } from "../../../contract/tools/registry.ts";
import { descriptionOf, jsonSchemaOf, type ToolName } from "../../../contract/tools/specs.ts";

/** What a suspend tool hands to `interrupt()`: the harness's `suspend_request` comes from it. */
export interface PauseRequest {
  readonly tool: string;
  readonly summary: string;
}

/**
 * Finds the arguments string the model sent for a tool call. LangChain keeps only the parsed
 * object on `tool_calls` but leaves the raw wire form in `additional_kwargs.tool_calls`.
 */
export type RawArguments = (callId: string | undefined) => string | undefined;

/** Told about every task-tool execution as it happens (the runner's per-leg log). */
export type OnExecute = (call: { id: string | undefined; name: string; arguments: string }) => void;

function canonicalTool(
  name: ToolName,
  toolbox: Toolbox,
  rawArguments: RawArguments,
  onExecute?: OnExecute,
): StructuredToolInterface {
  // A private copy: LangChain caches converted schemas by object identity; the canonical specs are frozen.
  const schema = structuredClone(jsonSchemaOf(name)) as unknown as Record<string, unknown>;
  const fields = { name, description: descriptionOf(name), schema };
  if (isSuspendTool(name)) {
    return tool((args: unknown) => {
      const pause: PauseRequest = { tool: name, summary: pauseRequestOf(args) };
      // First pass: throws GraphInterrupt and the graph stops with the checkpoint saved.
      // On `Command({resume})` the tool node re-runs and interrupt() returns the decision, and
      // the model reads it as the baseline words it.
      return decisionText(interrupt(pause));
    }, fields);
  }
  return tool((args: unknown, config?: { toolCall?: { id?: string } }) => {
    const id = config?.toolCall?.id;
    const raw = rawArguments(id);
    onExecute?.({ id, name, arguments: raw ?? JSON.stringify(args ?? {}) });
    return toolbox.dispatch(name, raw ?? args);
  }, fields);
}

/** One LangChain tool per advertised name, in registry order (`namesFor`). */
export function canonicalTools(
  declared: readonly string[],
  toolbox: Toolbox,
  rawArguments: RawArguments,
  onExecute?: OnExecute,
): StructuredToolInterface[] {
  return namesFor(declared).map((name) => canonicalTool(name, toolbox, rawArguments, onExecute));
}
