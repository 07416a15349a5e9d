/**
 * One leg's result, read off the graph's message history (harness.md §3). LangGraph does not sum
 * usage: every AIMessage carries its own call's `usage_metadata`, so a leg's usage is the sum over
 * the AI messages that appeared during this leg — identified by message id against the history
 * the leg started from, never by position (slicing by index is how a leg gets dropped or counted
 * twice). Ids are unique because the LLM node gives every reply a fresh one (see `freshId`).
 */
import { randomUUID } from "node:crypto";
import type { BaseMessage } from "@langchain/core/messages";
import { AIMessage, ToolMessage } from "@langchain/core/messages";
import { isSuspendTool } from "../../../contract/tools/registry.ts";

export interface LegSummary {
  /** Task tools answered this leg, in order, with the arguments string the model sent. */
  readonly tool_calls: { name: string; arguments: string }[];
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
  readonly llm_calls: number;
  /** The newest non-empty reply text of this leg (the baseline's `last_content`). */
  readonly last_content: string;
  /** Tool calls the model made whose arguments LangChain could not parse (never executed). */
  readonly invalid_tool_calls: { name: string; arguments: string; error: string }[];
}

/** Plain text of a message: a string, or the text parts of a content array. */
export function messageText(message: BaseMessage): string {
  const content = message.content as unknown;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) => (typeof part?.text === "string" && part.type === "text" ? part.text : "")).join("");
  }
  return "";
}

/**
 * Replace the provider's completion id with a fresh one. ChatOpenAI uses the completion id as the
 * message id and the messages reducer replaces a message whose id it already holds, so a server
 * that repeats ids (a constant id, or a counter that restarts per process) silently overwrites an
 * earlier reply in the history. The completion id is kept in `response_metadata.completion_id`.
 */
export function freshId<T extends BaseMessage>(message: T): T {
  message.response_metadata = { ...message.response_metadata, completion_id: message.id ?? null };
  message.id = `lg-${randomUUID()}`;
  return message;
}

function count(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

/** What one reply was billed: its own `usage_metadata` (missing counts are 0). */
export function replyUsage(reply: AIMessage): { prompt: number; completion: number } {
  return { prompt: count(reply.usage_metadata?.input_tokens), completion: count(reply.usage_metadata?.output_tokens) };
}

interface WireCall {
  id?: string;
  function?: { name?: string; arguments?: string };
}

/** The arguments strings exactly as received, by tool call id, from the replies in `messages`. */
export function rawArgumentsById(messages: readonly BaseMessage[]): Map<string, string> {
  const byId = new Map<string, string>();
  for (const m of messages) {
    if (!AIMessage.isInstance(m)) continue;
    const raw = m.additional_kwargs?.tool_calls as WireCall[] | undefined;
    for (const call of raw ?? []) {
      if (typeof call?.id === "string" && typeof call.function?.arguments === "string") byId.set(call.id, call.function.arguments);
    }
  }
  return byId;
}

export interface Execution {
  readonly id: string | undefined;
  readonly name: string;
  readonly arguments: string;
}

/**
 * Summarise the messages that are new since `before` (the ids of the history the leg resumed
 * from). `tool_calls` lists every tool call this leg answered — executed, failed, or refused by
 * LangChain before it ran (unknown name, arguments rejected by the schema) — plus any execution
 * this leg whose answer never reached the history: the ToolNode runs a turn's calls together, and
 * when one of them interrupts, the whole step is discarded and re-run on resume, so a sibling of
 * the suspend call really runs twice (once here, once in the resumed leg).
 */
export function summariseLeg(
  messages: readonly BaseMessage[],
  before: ReadonlySet<string>,
  executed: readonly Execution[] = [],
): LegSummary {
  const fresh = messages.filter((m) => m.id === undefined || !before.has(m.id));
  const raw = rawArgumentsById(messages);
  const callsById = new Map<string, { name: string; args: unknown }>();
  for (const m of messages) {
    if (!AIMessage.isInstance(m)) continue;
    for (const c of m.tool_calls ?? []) if (c.id) callsById.set(c.id, { name: c.name, args: c.args });
  }

  let prompt = 0;
  let completion = 0;
  let calls = 0;
  let lastContent = "";
  const toolCalls: { name: string; arguments: string }[] = [];
  const invalid: { name: string; arguments: string; error: string }[] = [];
  for (const m of fresh) {
    if (AIMessage.isInstance(m)) {
      const usage = replyUsage(m);
      calls += 1;
      prompt += usage.prompt;
      completion += usage.completion;
      lastContent = messageText(m) || lastContent;
      for (const bad of m.invalid_tool_calls ?? []) {
        invalid.push({ name: bad.name ?? "", arguments: bad.args ?? "", error: bad.error ?? "" });
      }
    } else if (ToolMessage.isInstance(m)) {
      const call = callsById.get(m.tool_call_id);
      const name = call?.name ?? m.name ?? "";
      if (isSuspendTool(name)) continue;
      const args = raw.get(m.tool_call_id) ?? JSON.stringify(call?.args ?? {});
      toolCalls.push({ name, arguments: args });
    }
  }
  const answered = new Set(fresh.flatMap((m) => (ToolMessage.isInstance(m) ? [m.tool_call_id] : [])));
  for (const e of executed) {
    if (e.id !== undefined && answered.has(e.id)) continue;
    toolCalls.push({ name: e.name, arguments: e.arguments });
  }
  return {
    tool_calls: toolCalls,
    prompt_tokens: prompt,
    completion_tokens: completion,
    llm_calls: calls,
    last_content: lastContent,
    invalid_tool_calls: invalid,
  };
}
