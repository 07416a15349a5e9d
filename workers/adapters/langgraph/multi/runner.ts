/**
 * The `langgraph-multi` runner: one item = one `invoke` of the pipeline graph, on a throwaway
 * in-memory checkpointer (so the state reached before an exception can still be read back). Built
 * on the parent's public pieces (`loadFramework` in ../index.ts).
 */
import { randomUUID } from "node:crypto";
import { HumanMessage, type AIMessage, type BaseMessage } from "@langchain/core/messages";
import { MemorySaver } from "@langchain/langgraph";
import type { AdapterConfig, AgentResultInput, ArenaSpec, Json, WorkItem } from "../../../../contract/protocol.ts";
import type { BuildContext, Runner } from "../../../../contract/adapter.ts";
import type { LangGraphFramework } from "../index.ts";
import { pipelineGraph, pipelineRecursionLimit } from "./graph.ts";

export function buildPipelineRunner(arena: ArenaSpec, config: AdapterConfig, ctx: BuildContext, lg: LangGraphFramework): Runner {
  const { canonicalTools, chatModel, legError, rawArgumentsById, summariseLeg } = lg;
  const model = chatModel(config);
  return {
    async run(item: WorkItem): Promise<AgentResultInput> {
      const raw = new Map<string, string>();
      const graph = pipelineGraph({
        model,
        systemPrompt: arena.systemPrompt,
        tools: canonicalTools(arena.tools, ctx.tools, (id) => (id === undefined ? undefined : raw.get(id))),
        maxCalls: config.maxToolIterations,
        checkpointer: new MemorySaver(),
        onReply: (reply: AIMessage) => {
          for (const [id, args] of rawArgumentsById([reply])) raw.set(id, args);
        },
      }, lg);
      const threadConfig = { configurable: { thread_id: `${item.id}-${randomUUID()}` } };
      let error: string | null = null;
      try {
        await graph.invoke({ messages: [new HumanMessage(item.input)] }, {
          ...threadConfig,
          recursionLimit: pipelineRecursionLimit(config.maxToolIterations),
        });
      } catch (err) {
        error = legError(err);
      }
      const state = (await graph.getState(threadConfig)).values as {
        messages?: BaseMessage[];
        llmCalls?: number;
        promptTokens?: number;
        completionTokens?: number;
        error?: string | null;
      };
      const summary = summariseLeg(state.messages ?? [], new Set());
      return {
        output_text: summary.last_content,
        tool_calls: summary.tool_calls,
        prompt_tokens: state.promptTokens ?? 0,
        completion_tokens: state.completionTokens ?? 0,
        llm_calls: state.llmCalls ?? 0,
        error: error ?? state.error ?? null,
        raw: summary.invalid_tool_calls.length > 0 ? ({ invalid_tool_calls: summary.invalid_tool_calls } as Json) : null,
      };
    },
  };
}
