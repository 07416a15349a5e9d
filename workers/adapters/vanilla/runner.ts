/**
 * The reference baseline loop (harness.md §7): hand-rolled, no framework, no retries. Every
 * other adapter is compared against what this one puts on the wire, so its request bodies are
 * the canonical ones: the arena prompt, the canonical tool specs unmodified, temperature, no
 * sampling extras.
 */
import { isSuspendTool, specsFor } from "../../../contract/tools/registry.ts";
import { fromJs, pyTypeName } from "@agentic-arena/py-semantics";
import type { AdapterConfig, AgentResultInput, ArenaSpec, Json } from "../../../contract/protocol.ts";
import { chatCompletion, type ChatReply, type FetchLike } from "./model.ts";
import type { Toolbox } from "../../../contract/adapter.ts";

export type Message = Record<string, Json>;

export interface LoopDeps {
  readonly fetch?: FetchLike;
}

export const PAUSED_SIBLING_TEXT = "Not executed - the run paused for an approval decision.";

function summaryOf(rawArguments: string): string {
  try {
    const parsed = JSON.parse(rawArguments);
    const value = parsed?.summary ?? parsed?.note;
    return typeof value === "string" ? value : "";
  } catch {
    return "";
  }
}

/** The assistant turn as the baseline replays it: `content: null` when empty, arguments exactly as received. */
export function assistantTurn(reply: ChatReply): Message {
  return {
    role: "assistant",
    content: reply.content || null,
    tool_calls: reply.toolCalls.map((c) => ({
      id: c.id,
      type: "function",
      function: { name: c.name, arguments: c.arguments },
    })),
  };
}

/** Run model calls until an answer, a pause, or the per-leg budget; `messages` is extended in place. */
export async function runLeg(
  arena: ArenaSpec,
  config: AdapterConfig,
  tools: Toolbox,
  messages: Message[],
  deps: LoopDeps = {},
): Promise<AgentResultInput> {
  const specs = specsFor(arena.tools);
  const toolCalls: { name: string; arguments: string }[] = [];
  let promptTokens = 0;
  let completionTokens = 0;
  let llmCalls = 0;
  let lastContent = "";
  const usage = () => ({ prompt_tokens: promptTokens, completion_tokens: completionTokens, llm_calls: llmCalls });

  while (llmCalls < config.maxToolIterations) {
    const body: Record<string, unknown> = {
      model: config.model,
      messages,
      temperature: config.temperature,
      stream: false,
    };
    if (specs.length > 0) {
      body.tools = specs;
      body.tool_choice = "auto";
    }
    const reply = await chatCompletion(config, body, deps.fetch);
    llmCalls += 1;
    promptTokens += reply.promptTokens;
    completionTokens += reply.completionTokens;
    lastContent = reply.content || lastContent;
    if (reply.toolCalls.length === 0) {
      return { output_text: reply.content, tool_calls: toolCalls, ...usage() };
    }
    messages.push(assistantTurn(reply));
    for (const [index, call] of reply.toolCalls.entries()) {
      if (isSuspendTool(call.name)) {
        return {
          output_text: lastContent,
          tool_calls: toolCalls,
          ...usage(),
          suspended: true,
          suspend_request: summaryOf(call.arguments),
          resume_state: {
            messages,
            approval_id: call.id,
            pending_ids: reply.toolCalls.slice(index + 1).map((c) => c.id),
          },
        };
      }
      toolCalls.push({ name: call.name, arguments: call.arguments });
      messages.push({ role: "tool", tool_call_id: call.id, content: tools.dispatch(call.name, call.arguments) });
    }
  }
  return { output_text: lastContent, tool_calls: toolCalls, ...usage(), error: "max tool iterations exceeded" };
}

/** Rebuild the transcript from a resume state: the decision answers the pause, later siblings are declined. */
export function resumeMessages(state: Json, decision: string): Message[] | string {
  if (state === null || typeof state !== "object" || Array.isArray(state) || !Array.isArray(state.messages)) {
    return `cannot resume: unusable state ${pyTypeName(fromJs(state))}`;
  }
  const messages = [...(state.messages as Message[])];
  messages.push({ role: "tool", tool_call_id: state.approval_id ?? null, content: `Decision: ${decision}.` });
  const pending = Array.isArray(state.pending_ids) ? state.pending_ids : [];
  for (const id of pending) messages.push({ role: "tool", tool_call_id: id, content: PAUSED_SIBLING_TEXT });
  return messages;
}
