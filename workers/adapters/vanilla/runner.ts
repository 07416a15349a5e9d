/**
 * The reference baseline loop (harness.md §7): hand-rolled, no framework, no retries. Every
 * other adapter is compared against what this one puts on the wire, so its request bodies are
 * the canonical ones: the arena prompt, the canonical tool specs unmodified, temperature, no
 * sampling extras. The pause is emulated: the transcript is the resume state.
 */
import type { BuildContext, Runner, Toolbox } from "../../../contract/adapter.ts";
import type { AdapterConfig, AgentResultInput, ArenaSpec, Json } from "../../../contract/protocol.ts";
import { decisionText, MAX_ITERATIONS_ERROR, PAUSED_SIBLING_TEXT } from "../../../contract/texts.ts";
import { isSuspendTool, pauseRequestOf } from "../../../contract/tools/registry.ts";
import { fromJs, pyTypeName } from "@agentic-arena/py-semantics";
import { chatCompletion, requestBody, type ChatReply, type FetchLike, type Message } from "./model.ts";
import { arenaTools, toolMessage } from "./tools.ts";

export interface LoopDeps {
  readonly fetch?: FetchLike;
}

/** A leg's usage: the sum of what each reply billed, and the number of replies. */
export class LegUsage {
  private promptTokens = 0;
  private completionTokens = 0;
  calls = 0;

  /** Count one reply, and hand it back. */
  add(reply: ChatReply): ChatReply {
    this.calls += 1;
    this.promptTokens += reply.promptTokens;
    this.completionTokens += reply.completionTokens;
    return reply;
  }

  report(): { prompt_tokens: number; completion_tokens: number; llm_calls: number } {
    return { prompt_tokens: this.promptTokens, completion_tokens: this.completionTokens, llm_calls: this.calls };
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
  const specs = arenaTools(arena);
  const toolCalls: { name: string; arguments: string }[] = [];
  const usage = new LegUsage();
  let lastContent = "";

  while (usage.calls < config.maxToolIterations) {
    const body = requestBody(config, messages, specs.length > 0 ? specs : undefined);
    const reply = usage.add(await chatCompletion(config, body, deps.fetch));
    lastContent = reply.content || lastContent;
    if (reply.toolCalls.length === 0) {
      return { output_text: reply.content, tool_calls: toolCalls, ...usage.report() };
    }
    messages.push(assistantTurn(reply));
    for (const [index, call] of reply.toolCalls.entries()) {
      if (isSuspendTool(call.name)) {
        return {
          output_text: lastContent,
          tool_calls: toolCalls,
          ...usage.report(),
          suspended: true,
          suspend_request: pauseRequestOf(call.arguments),
          resume_state: {
            messages,
            approval_id: call.id,
            pending_ids: reply.toolCalls.slice(index + 1).map((c) => c.id),
          },
        };
      }
      toolCalls.push({ name: call.name, arguments: call.arguments });
      messages.push(toolMessage(tools, call));
    }
  }
  return { output_text: lastContent, tool_calls: toolCalls, ...usage.report(), error: MAX_ITERATIONS_ERROR };
}

/** Rebuild the transcript from a resume state: the decision answers the pause, later siblings are declined. */
export function resumeMessages(state: Json, decision: string): Message[] | string {
  if (state === null || typeof state !== "object" || Array.isArray(state) || !Array.isArray(state.messages)) {
    return `cannot resume: unusable state ${pyTypeName(fromJs(state))}`;
  }
  const messages = [...(state.messages as Message[])];
  messages.push({ role: "tool", tool_call_id: state.approval_id ?? null, content: decisionText(decision) });
  const pending = Array.isArray(state.pending_ids) ? state.pending_ids : [];
  for (const id of pending) messages.push({ role: "tool", tool_call_id: id, content: PAUSED_SIBLING_TEXT });
  return messages;
}

/** A fresh transcript per item; a resume continues the one in its state with a full budget. Exported (via index.ts) so hostile fixtures can wrap the baseline with exactly one rule broken. */
export function buildVanillaRunner(arena: ArenaSpec, config: AdapterConfig, ctx: BuildContext, deps: LoopDeps = {}): Runner {
  return {
    run(item) {
      const messages: Message[] = [
        { role: "system", content: arena.systemPrompt },
        { role: "user", content: item.input },
      ];
      return runLeg(arena, config, ctx.tools, messages, deps);
    },
    async resume(_item, state, decision) {
      const messages = resumeMessages(state, decision);
      if (typeof messages === "string") return { error: messages };
      return runLeg(arena, config, ctx.tools, messages, deps);
    },
  };
}
