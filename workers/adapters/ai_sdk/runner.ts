/**
 * Run and resume on the SDK's own agent loop (`ToolLoopAgent`, i.e. `generateText` with tools),
 * one leg → one AgentResult (harness.md §3): the cap, the pause and its stateless resume, per-leg
 * usage, and errors as an item error that keeps the leg's usage.
 */
import { isStepCount, ToolLoopAgent, type ModelMessage, type StopCondition, type ToolSet } from "ai";
import type { BuildContext, Decision, Runner } from "../../../contract/adapter.ts";
import type { AdapterConfig, AgentResultInput, ArenaSpec, Json } from "../../../contract/protocol.ts";
import { fromJs, pyTypeName } from "@agentic-arena/py-semantics";
import { errorRaw, errorText, LegLog, plainJson, summaryOf, type AnyResult } from "./leg.ts";
import { chatModel, MAX_RETRIES } from "./model.ts";
import { arenaTools, decisionText, pauseApprovals } from "./tools.ts";

import { MAX_ITERATIONS_ERROR } from "../../../contract/texts.ts";

export { MAX_ITERATIONS_ERROR };

/** How a leg is put together; a pipeline variant swaps in its lead's prompt, delegates and budget. */
export interface LegPlan {
  readonly arena: ArenaSpec;
  readonly config: AdapterConfig;
  readonly ctx: BuildContext;
  /** Sub-agent tool names the lead holds (they are not task calls). */
  readonly delegates?: readonly string[];
  readonly instructions?: string;
  readonly extraTools?: (log: LegLog) => ToolSet;
  /** Default: `isStepCount(max_tool_iterations)`, a budget per leg that counts this agent's calls. */
  readonly stopWhen?: (log: LegLog) => StopCondition<ToolSet>;
}

/** The resume state: the message list as plain JSON, and the approvals waiting for the decision. */
interface PauseState {
  readonly messages: ModelMessage[];
  readonly approval_ids: string[];
}

/** The lead agent, built per leg: its model wrapper records this leg's raw tool arguments. */
function leadAgent(plan: LegPlan, log: LegLog): ToolLoopAgent<never, ToolSet> {
  const { arena, config, ctx } = plan;
  return new ToolLoopAgent({
    model: chatModel(config, log.recordRaw),
    instructions: plan.instructions ?? arena.systemPrompt,
    tools: { ...arenaTools(arena.tools, ctx.tools, log.rawArguments), ...plan.extraTools?.(log) },
    toolApproval: pauseApprovals(arena.tools),
    // generateText's default is one step (the tools of the first call run, and no answer follows);
    // ToolLoopAgent's is 20. A step is one model call, so this is exactly the budget.
    stopWhen: plan.stopWhen?.(log) ?? isStepCount(config.maxToolIterations),
    temperature: config.temperature,
    maxRetries: MAX_RETRIES,
    telemetry: { isEnabled: false },
  });
}

function outcome(plan: LegPlan, log: LegLog, messages: ModelMessage[], result: AnyResult): AgentResultInput {
  const base = { tool_calls: log.toolCalls, ...log.usage() };
  const pending = result.content.filter((p) => p.type === "tool-approval-request" && !p.isAutomatic);
  if (pending.length > 0) {
    const first = pending[0] as { toolCall?: { input?: unknown } };
    const state: PauseState = {
      messages: [...messages, ...result.responseMessages],
      approval_ids: pending.map((p) => (p as { approvalId: string }).approvalId),
    };
    return { output_text: log.lastText, ...base, suspended: true, suspend_request: summaryOf(first.toolCall?.input), resume_state: plainJson(state) };
  }
  // The loop ends with tool calls answered but no answer when the stop condition cut it short.
  const last = result.steps.at(-1);
  if (last && last.toolCalls.length > 0) {
    const error = log.started >= plan.config.maxToolIterations ? MAX_ITERATIONS_ERROR : `the SDK stopped with finish reason ${result.finishReason}`;
    return { output_text: log.lastText, ...base, error };
  }
  return { output_text: result.text, ...base };
}

async function leg(plan: LegPlan, messages: ModelMessage[]): Promise<AgentResultInput> {
  const log = new LegLog(plan.delegates);
  try {
    const result = await log.generate(leadAgent(plan, log), messages, true);
    return outcome(plan, log, messages, result);
  } catch (err) {
    // A transport failure after the retries, a timeout, an invalid resume state: the item ends
    // with `error`, keeping the usage of every call that was served.
    return { output_text: log.lastText, tool_calls: log.toolCalls, ...log.usage(), error: errorText(err), raw: errorRaw(err) };
  }
}

function pauseState(state: Json): PauseState | undefined {
  if (state === null || typeof state !== "object" || Array.isArray(state)) return undefined;
  const { messages, approval_ids: ids } = state;
  if (!Array.isArray(messages) || !Array.isArray(ids) || !ids.every((id) => typeof id === "string")) return undefined;
  return { messages: messages as unknown as ModelMessage[], approval_ids: ids as string[] };
}

/**
 * The decision answers every pending approval: approved, the SDK runs the pause tool (whose result
 * is `Decision: approve.`) before its first model call; denied, the model reads the denial reason.
 */
function resumeMessages(state: PauseState, decision: Decision): ModelMessage[] {
  const approved = decision === "approve";
  const content = state.approval_ids.map((approvalId) => ({
    type: "tool-approval-response" as const,
    approvalId,
    approved,
    ...(approved ? {} : { reason: decisionText(decision) }),
  }));
  return [...state.messages, { role: "tool", content }];
}

export function buildRunner(plan: LegPlan): Runner {
  return {
    run: (item) => leg(plan, [{ role: "user", content: item.input }]),
    async resume(_item, state, decision) {
      const paused = pauseState(state);
      if (!paused) return { error: `cannot resume: unusable state ${pyTypeName(fromJs(state))}` };
      return leg(plan, resumeMessages(paused, decision));
    },
  };
}
