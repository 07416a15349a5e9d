/**
 * The researcher → writer → editor pipeline of harness.md §8 as a LangGraph graph: one shared
 * message history, one budget of `max_tool_iterations` model calls for the whole item, counted in
 * the graph state (a super-step limit cannot express "the writer and editor only run while calls
 * remain").
 *
 *   START → researcher ─(tool calls)→ tools ─(calls left)→ researcher …
 *              │                        └(budget spent)→ out_of_budget → END
 *              └(answer)→ writer → editor → END     (each skipped once the budget is spent)
 */
import type { StructuredToolInterface } from "@langchain/core/tools";
import { SystemMessage, type AIMessage } from "@langchain/core/messages";
import type { BaseCheckpointSaver } from "@langchain/langgraph";
import { Annotation, END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
import type { ChatOpenAI } from "@langchain/openai";
import { MAX_ITERATIONS_ERROR, PIPELINE_ROLES, stagePrompt, type PipelineRole } from "../../../../contract/texts.ts";
import type { LangGraphFramework } from "../index.ts";

export const PipelineState = Annotation.Root({
  ...MessagesAnnotation.spec,
  /** Model calls made so far in this item (all stages), and their summed usage. */
  llmCalls: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
  promptTokens: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
  completionTokens: Annotation<number>({ reducer: (a, b) => a + b, default: () => 0 }),
  /** Set when the research loop used up the budget. */
  error: Annotation<string | null>({ reducer: (_a, b) => b, default: () => null }),
});
type State = typeof PipelineState.State;

export interface PipelineOptions {
  readonly model: ChatOpenAI;
  readonly systemPrompt: string;
  readonly tools: readonly StructuredToolInterface[];
  readonly maxCalls: number;
  readonly checkpointer: BaseCheckpointSaver;
  readonly onReply?: (reply: AIMessage) => void;
}

export function pipelineGraph(o: PipelineOptions, { freshId, messageText, replyUsage }: LangGraphFramework) {
  const researcherModel = o.tools.length > 0 ? o.model.bindTools([...o.tools]) : o.model;
  const system = (role: PipelineRole) => new SystemMessage(stagePrompt(o.systemPrompt, PIPELINE_ROLES[role]));

  /**
   * Usage is metered in the state rather than read off the history, because a writer or editor
   * reply with no text stays out of the history (as in the baseline) but was still billed.
   */
  const metered = (reply: AIMessage) => {
    const usage = replyUsage(reply);
    return { llmCalls: 1, promptTokens: usage.prompt, completionTokens: usage.completion };
  };
  const researcher = async (state: State) => {
    const reply = await researcherModel.invoke([system("researcher"), ...state.messages]);
    o.onReply?.(reply);
    return { messages: [freshId(reply)], ...metered(reply) };
  };
  // Writer and editor get no tools (no `tools` key on the wire); only a non-empty reply joins the history.
  const stage = (role: "writer" | "editor") => async (state: State) => {
    const reply = await o.model.invoke([system(role), ...state.messages]);
    return { messages: messageText(reply) ? [freshId(reply)] : [], ...metered(reply) };
  };
  const hasCalls = (state: State) => state.llmCalls < o.maxCalls;

  return new StateGraph(PipelineState)
    .addNode("researcher", researcher)
    .addNode("tools", new ToolNode([...o.tools]))
    .addNode("out_of_budget", () => ({ error: MAX_ITERATIONS_ERROR }))
    .addNode("writer", stage("writer"))
    .addNode("editor", stage("editor"))
    .addEdge(START, "researcher")
    .addConditionalEdges(
      "researcher",
      (state: State) => (toolsCondition(state) === "tools" ? "tools" : hasCalls(state) ? "writer" : END),
      ["tools", "writer", END],
    )
    .addConditionalEdges("tools", (state: State) => (hasCalls(state) ? "researcher" : "out_of_budget"), [
      "researcher",
      "out_of_budget",
    ])
    .addEdge("out_of_budget", END)
    .addConditionalEdges("writer", (state: State) => (hasCalls(state) ? "editor" : END), ["editor", END])
    .addEdge("editor", END)
    .compile({ checkpointer: o.checkpointer });
}

/** A backstop only: the budget above ends the graph first (at most 2N + 1 steps). */
export function pipelineRecursionLimit(maxCalls: number): number {
  return 2 * maxCalls + 2;
}
