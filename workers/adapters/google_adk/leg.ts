/**
 * One leg's result, read off the events ADK yielded during it (harness.md §3). ADK does not sum
 * usage: each model response's event carries that call's `usageMetadata` (the model class fills
 * it), so the leg's usage is the sum over the events of this leg — a resumed leg's events only,
 * never the restored session's. ADK reports the call cap, a model error (HTTP status, timeout) and
 * a tool it cannot find as an error event, not an exception; those become the leg's `error`.
 */
import type { Event } from "@google/adk";
import { isControlTool, isSuspendTool } from "../../../contract/tools/registry.ts";
import type { AgentResultInput, Json } from "../../../contract/protocol.ts";
import { RAW_ARGUMENTS } from "./model.ts";

import { MAX_ITERATIONS_ERROR } from "../../../contract/texts.ts";

export { MAX_ITERATIONS_ERROR };
/** The long-running call ADK raises for a tool that requires confirmation. */
export const CONFIRMATION_CALL = "adk_request_confirmation";

export interface Pause {
  readonly ids: string[];
  readonly summary: string;
}

const count = (v: unknown) => (typeof v === "number" && Number.isFinite(v) ? v : 0);

function textOf(event: Event): string {
  return (event.content?.parts ?? []).map((p) => (typeof p.text === "string" && !p.thought ? p.text : "")).join("");
}

/** The model's replies among the events: the model class puts usage on every one, nothing else has it. */
function replies(events: readonly Event[]): Event[] {
  return events.filter((e) => e.usageMetadata !== undefined && !e.partial);
}

/** How ADK reports a failure it caught: an event with an error code or message (no exception). */
export function isErrorEvent(event: Event): boolean {
  return event.errorCode !== undefined || event.errorMessage !== undefined;
}

/** ADK's cap message (an Error raised before the call that would exceed it), for this leg's budget. */
export function isCapMessage(message: string | undefined, maxCalls: number): boolean {
  return message === `Max number of llm calls limit of ${maxCalls} exceeded`;
}

/** The error that ended the leg, classifiable by the harness: the cap, or the real error's class and text. */
export function errorText(event: Event, captured: Error | undefined, maxCalls: number): string {
  const message = captured?.message ?? event.errorMessage;
  if (isCapMessage(message, maxCalls)) return MAX_ITERATIONS_ERROR;
  if (!captured) return `${event.errorCode ?? "UNKNOWN_ERROR"}: ${event.errorMessage ?? ""}`;
  const code = (captured.cause as { code?: unknown } | undefined)?.code;
  return `${captured.name}: ${captured.message}${typeof code === "string" ? ` (${code})` : ""}`;
}

/** The confirmation requests a paused leg ends with, and the summary the model gave the pause tool. */
export function pauseOf(events: readonly Event[]): Pause | undefined {
  const ids: string[] = [];
  const summaries: string[] = [];
  for (const event of events) {
    for (const part of event.content?.parts ?? []) {
      const call = part.functionCall;
      if (call?.name !== CONFIRMATION_CALL || !call.id || !event.longRunningToolIds?.includes(call.id)) continue;
      ids.push(call.id);
      const original = (call.args?.originalFunctionCall ?? {}) as { args?: Record<string, unknown> };
      const value = original.args?.summary ?? original.args?.note;
      if (typeof value === "string" && value !== "") summaries.push(value);
    }
  }
  return ids.length > 0 ? { ids, summary: summaries.join("\n") } : undefined;
}

export interface LegEnd {
  readonly events: readonly Event[];
  /** Errors ADK caught and turned into error events (onModelErrorCallback), in order. */
  readonly errors: readonly Error[];
  readonly maxCalls: number;
}

export function summarise({ events, errors, maxCalls }: LegEnd): AgentResultInput & { pause?: Pause } {
  const answers = replies(events);
  let prompt = 0;
  let completion = 0;
  let lastText = "";
  const toolCalls: { name: string; arguments: string }[] = [];
  for (const reply of answers) {
    prompt += count(reply.usageMetadata?.promptTokenCount);
    completion += count(reply.usageMetadata?.candidatesTokenCount);
    lastText = textOf(reply) || lastText;
    for (const part of reply.content?.parts ?? []) {
      const call = part.functionCall;
      if (!call?.name || isSuspendTool(call.name) || isControlTool(call.name)) continue;
      const raw = part.partMetadata?.[RAW_ARGUMENTS];
      toolCalls.push({ name: call.name, arguments: typeof raw === "string" ? raw : JSON.stringify(call.args ?? {}) });
    }
  }
  const usage = { prompt_tokens: prompt, completion_tokens: completion, llm_calls: answers.length, tool_calls: toolCalls };
  // ADK goes on after some error events (README, findings 3 and 7); the runner stops reading at the
  // first one, so it is the last event, and it carries the first error ADK caught.
  const failed = events.find(isErrorEvent);
  if (failed) {
    const error = errorText(failed, errors[0], maxCalls);
    const raw: Json = { error, ...(errors[0]?.stack ? { stack: errors[0].stack } : {}) };
    return { ...usage, output_text: lastText, error, raw };
  }
  const pause = pauseOf(events);
  if (pause) return { ...usage, output_text: lastText, suspended: true, suspend_request: pause.summary, pause };
  const last = answers.at(-1);
  return { ...usage, output_text: last ? textOf(last) : "" };
}
