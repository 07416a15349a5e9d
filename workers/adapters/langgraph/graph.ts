/**
 * The agent as an explicit LangGraph graph: a messages state, an LLM node and LangGraph's
 * prebuilt `ToolNode`, joined by the prebuilt `toolsCondition` edge.
 *
 *   START → agent ─(tool calls)→ tools → agent …
 *                 └(no tool calls)→ END
 *
 * The arena prompt is the system message of every model call, verbatim; the state holds the
 * conversation from the user message on, so every request replays the whole transcript.
 */
import type { StructuredToolInterface } from "@langchain/core/tools";
import { SystemMessage, type AIMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
import type { ChatOpenAI } from "@langchain/openai";
import { freshId } from "./history.ts";

export interface AgentGraphOptions {
  readonly model: ChatOpenAI;
  readonly systemPrompt: string;
  readonly tools: readonly StructuredToolInterface[];
  readonly checkpointer: BaseCheckpointSaver;
  /** Sees every reply before it enters the state (the runner indexes the raw tool arguments). */
  readonly onReply?: (reply: AIMessage) => void;
}

export function agentGraph({ model, systemPrompt, tools, checkpointer, onReply }: AgentGraphOptions) {
  const llm = tools.length > 0 ? model.bindTools([...tools]) : model;
  const system = new SystemMessage(systemPrompt);
  return new StateGraph(MessagesAnnotation)
    .addNode("agent", async (state: typeof MessagesAnnotation.State) => {
      const reply = await llm.invoke([system, ...state.messages]);
      onReply?.(reply);
      return { messages: [freshId(reply)] };
    })
    .addNode("tools", new ToolNode([...tools]))
    .addEdge(START, "agent")
    .addConditionalEdges("agent", toolsCondition, ["tools", END])
    .addEdge("tools", "agent")
    .compile({ checkpointer });
}

/**
 * LangGraph's cap counts super-steps, not model calls: every agent step and every tool step is
 * one. The loop may run `recursionLimit + 1` steps from the one after the checkpoint it starts
 * at. A fresh leg spends the first on writing its input (`__start__`), then agent, tools, agent,
 * tools, … so `2N` allows exactly N model calls and still runs the tools the N-th call asked for
 * (as the baseline does) before the (N+1)-th is stopped. A resumed leg has no input step (the
 * interrupted tools step re-runs first), so the same N calls need `2N - 1`. Both measured on the
 * wire (tests/adapters/langgraph.wire.test.ts).
 */
export function recursionLimitFor(maxCalls: number, resumed: boolean): number {
  return 2 * maxCalls - (resumed ? 1 : 0);
}
