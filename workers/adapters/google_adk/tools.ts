/**
 * The arena's tools as ADK `FunctionTool`s, built from the canonical specs (tools.md §1).
 *
 * `parameters` is the canonical JSON Schema handed over as is (FunctionTool accepts a Schema object
 * and only validates zod schemas), so ADK neither rewrites nor validates it; the model class sends
 * it back out unchanged. A task tool runs the shared `dispatch` on the arguments string the model
 * sent, read from the function-call part ADK stored in the session (model.ts, RAW_ARGUMENTS).
 *
 * The pause tools use `requireConfirmation: true`: ADK does not run them, answers the call with an
 * `adk_request_confirmation` request and ends the invocation; on resume a confirmation runs the body
 * below (never the canonical pause tool), a rejection is answered by ADK itself (README, findings).
 */
import { FunctionTool, type Context } from "@google/adk";
import { isSuspendTool, namesFor } from "../../../contract/tools/registry.ts";
import { descriptionOf, jsonSchemaOf } from "../../../contract/tools/specs.ts";
import type { Toolbox } from "../../../contract/adapter.ts";
import { RAW_ARGUMENTS } from "./model.ts";

type Schema = NonNullable<ConstructorParameters<typeof FunctionTool>[0]["parameters"]>;

/** What the model reads as an approved pause tool's result: the text the baseline appends. */
export const APPROVED_TEXT = "Decision: approve.";

/** The arguments string of the call `context` is running, from the call's part in the session. */
export function rawArguments(context: Context | undefined): string | undefined {
  const id = context?.functionCallId;
  const events = context?.invocationContext.session.events ?? [];
  if (!id) return undefined;
  for (let i = events.length - 1; i >= 0; i--) {
    for (const part of events[i]!.content?.parts ?? []) {
      const raw = part.functionCall?.id === id ? part.partMetadata?.[RAW_ARGUMENTS] : undefined;
      if (typeof raw === "string") return raw;
    }
  }
  return undefined;
}

export function arenaTools(declared: readonly string[], toolbox: Toolbox): FunctionTool[] {
  return namesFor(declared).map((name) => {
    // A private copy: the canonical specs are frozen, and the type is Gemini's (UPPERCASE) Schema.
    const parameters = structuredClone(jsonSchemaOf(name)) as unknown as Schema;
    if (isSuspendTool(name)) {
      return new FunctionTool({ name, description: descriptionOf(name), parameters, requireConfirmation: true, execute: () => APPROVED_TEXT });
    }
    return new FunctionTool({
      name,
      description: descriptionOf(name),
      parameters,
      execute: (args, context) => toolbox.dispatch(name, rawArguments(context) ?? args),
    });
  });
}
