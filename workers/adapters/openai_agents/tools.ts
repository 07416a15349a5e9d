/**
 * The arena's tools as SDK function tools, derived from the canonical specs (tools.md §1).
 *
 * Non-strict with the canonical JSON Schema handed over as is: the SDK sends a raw schema with
 * `strict: false` unmodified, so every parameter, type, description and `k`'s default reach the
 * wire exactly as the baseline sends them, plus one `"strict": false` key per tool. (Strict mode
 * would force `k` into `required`, add `additionalProperties: false`, and a zod schema would add
 * `$schema` and safe-integer bounds: see README.md.)
 *
 * Execution goes through the shared `dispatch` with the model's own argument string, so the tool
 * sees exactly what the model sent (dispatch parses it with Python semantics, as for every
 * adapter) and its result string reaches the model unmodified.
 */
import { tool, type FunctionTool } from "@openai/agents";
import type { Toolbox } from "../../../contract/adapter.ts";
import { decisionText } from "../../../contract/texts.ts";
import { isSuspendTool, namesFor } from "../../../contract/tools/registry.ts";
import { descriptionOf, jsonSchemaOf, type ToolName } from "../../../contract/tools/specs.ts";

/**
 * A deep, mutable copy of the canonical parameters schema (the SDK keeps a reference to it). The
 * SDK's type insists on an `additionalProperties` key the canonical spec does not have; the cast
 * keeps the schema exactly canonical instead of adding one.
 */
function canonicalParameters(name: ToolName): { type: "object"; properties: Record<string, any>; required: string[]; additionalProperties: true } {
  return structuredClone(jsonSchemaOf(name)) as any;
}

export function arenaTools(declared: readonly string[], toolbox: Toolbox): FunctionTool<any, any, string>[] {
  return namesFor(declared).map((name) => {
    const pause = isSuspendTool(name);
    return tool({
      name,
      description: descriptionOf(name),
      parameters: canonicalParameters(name),
      strict: false,
      // The pause: the SDK stops the run with an interruption instead of running the tool. On
      // resume an approval runs the body below, which returns the text the baseline appends on
      // resume (harness.md §7); a denial travels as the rejection message instead. It never
      // executes the canonical pause tool, whose body only exists to expose an adapter that failed
      // to intercept it.
      needsApproval: pause,
      execute: pause
        ? async () => decisionText("approve")
        : async (input, _context, details) => {
            const raw = details?.toolCall?.arguments;
            return toolbox.dispatch(name, typeof raw === "string" ? raw : input);
          },
    });
  });
}
