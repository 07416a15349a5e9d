/**
 * The `openai_agents` runner: one run leg on the SDK's own loop (`Runner.run`), turned into an
 * AgentResult (harness.md §3): the iteration cap mapped onto `maxTurns`, per-leg usage, the task
 * tools the SDK executed, the pause (a tool-approval interruption) and its serialised `RunState`.
 */
import {
  MaxTurnsExceededError,
  RunContext,
  RunState,
  Runner,
  type Agent,
  type RunItem,
  type Usage,
} from "@openai/agents";
import { isControlTool, isSuspendTool, pauseRequestOf } from "../../../contract/tools/registry.ts";
import type { AdapterConfig, AgentResultInput, Json } from "../../../contract/protocol.ts";
import type { Decision, Runner as HarnessRunner } from "../../../contract/adapter.ts";
import { decisionText, MAX_ITERATIONS_ERROR } from "../../../contract/texts.ts";

interface UsageSnapshot {
  readonly prompt: number;
  readonly completion: number;
  readonly requests: number;
}

function snapshot(usage: Usage | undefined): UsageSnapshot {
  return { prompt: usage?.inputTokens ?? 0, completion: usage?.outputTokens ?? 0, requests: usage?.requests ?? 0 };
}

function legUsage(before: UsageSnapshot, after: UsageSnapshot) {
  return {
    prompt_tokens: after.prompt - before.prompt,
    completion_tokens: after.completion - before.completion,
    llm_calls: after.requests - before.requests,
  };
}

function messageText(item: RunItem): string {
  if (item.type !== "message_output_item") return "";
  const content = (item.rawItem as { content?: unknown }).content;
  if (!Array.isArray(content)) return "";
  return content.map((part: any) => (part?.type === "output_text" && typeof part.text === "string" ? part.text : "")).join("");
}

/** The last non-empty assistant text among `items` (the baseline's `last_content`). */
function lastText(items: readonly RunItem[]): string {
  for (let i = items.length - 1; i >= 0; i--) {
    const text = messageText(items[i]!);
    if (text) return text;
  }
  return "";
}

interface ToolCall {
  name: string;
  arguments: string;
}

/** A task-tool call (pause tools, handoffs and control tools are not task calls), with the model's own argument string. */
function taskCall(raw: unknown): ToolCall | undefined {
  const call = raw as { type?: string; name?: unknown } | undefined;
  if (call?.type !== "function_call" || typeof call.name !== "string") return undefined;
  if (isSuspendTool(call.name) || isControlTool(call.name)) return undefined;
  return { name: call.name, arguments: argumentsOf(call) };
}

/**
 * The task tools the SDK handled in these run items, in order: every function call it recorded,
 * including one whose arguments did not parse (its output is the SDK's error text). A call to an
 * unknown tool is not among them: the SDK raises before recording it (README.md, findings).
 */
function toolCallsOf(items: readonly RunItem[]): ToolCall[] {
  return items.flatMap((item) => {
    if (item.type !== "tool_call_item") return [];
    const call = taskCall(item.rawItem);
    return call ? [call] : [];
  });
}

function argumentsOf(raw: unknown): string {
  const args = (raw as { arguments?: unknown } | undefined)?.arguments;
  return typeof args === "string" ? args : JSON.stringify(args ?? {});
}

function errorText(err: unknown): string {
  if (err instanceof MaxTurnsExceededError) return MAX_ITERATIONS_ERROR;
  if (err instanceof Error) {
    // The `openai` client's errors keep the generic `name` "Error"; their class says what happened.
    const name = err.name === "Error" && err.constructor?.name ? err.constructor.name : err.name;
    return `${name}: ${err.message}`;
  }
  return `Error: ${String(err)}`;
}

/** A stack for the record's `raw`, so a finding keeps its traceback even though the leg returns normally. */
function errorRaw(err: unknown): Json {
  return err instanceof Error ? { error: errorText(err), stack: err.stack ?? "" } : { error: errorText(err) };
}

export interface LegOptions {
  readonly config: AdapterConfig;
  /** The agent the run starts from (a pipeline's first stage); also the root for `RunState.fromString`. */
  readonly agent: Agent<any, any>;
}

/**
 * Drive the SDK until it answers, pauses, or fails. `start` is the item input (first leg) or a
 * restored `RunState` (resume); `turnsBefore` is the state's turn counter, so that `maxTurns`
 * (which the SDK counts over the whole run, across resumes) allows exactly `maxToolIterations`
 * model calls in this leg.
 */
async function drive(
  options: LegOptions,
  start: string | RunState<any, any>,
  context: RunContext<any>,
  turnsBefore: number,
): Promise<AgentResultInput> {
  const { config, agent } = options;
  const before = snapshot(context.usage);
  const runner = new Runner({ tracingDisabled: true });
  // Fallback record of the tools the SDK started, for a leg that fails without handing back its
  // state (the run items are the primary record: they also hold calls whose arguments failed to parse).
  const started: ToolCall[] = [];
  runner.on("agent_tool_start", (_ctx, _agent, _tool, details) => {
    const call = taskCall(details.toolCall);
    if (call) started.push(call);
  });
  const maxTurns = turnsBefore + config.maxToolIterations;
  const items = (state: RunState<any, any> | undefined): RunItem[] => state?._generatedItems ?? [];
  const itemsBefore = typeof start === "string" ? 0 : items(start).length;
  try {
    const result =
      typeof start === "string"
        ? await runner.run(agent, start, { maxTurns, context })
        : await runner.run(agent, start, { maxTurns });
    const usage = legUsage(before, snapshot(context.usage));
    const legItems = items(result.state).slice(itemsBefore);
    const executed = toolCallsOf(legItems);
    const interruptions = result.interruptions ?? [];
    if (interruptions.length > 0) {
      const pause = interruptions[0]!;
      return {
        output_text: lastText(legItems),
        tool_calls: executed,
        ...usage,
        suspended: true,
        suspend_request: pauseRequestOf(argumentsOf(pause.rawItem)),
        // A JSON value (the SDK's own serialisation, parsed back), not a string of JSON.
        resume_state: JSON.parse(result.state.toString()) as Json,
      };
    }
    const final = result.finalOutput;
    return {
      output_text: typeof final === "string" ? final : final === undefined || final === null ? "" : JSON.stringify(final),
      tool_calls: executed,
      ...usage,
    };
  } catch (err) {
    // The SDK raised (the iteration cap, an unknown tool, a transport failure after its retries):
    // the item ends with `error`, keeping this leg's usage and the tools that did run.
    const state = (err as { state?: RunState<any, any> }).state ?? (typeof start === "string" ? undefined : start);
    const legItems = items(state).slice(itemsBefore);
    return {
      output_text: lastText(legItems),
      tool_calls: state ? toolCallsOf(legItems) : started,
      ...legUsage(before, snapshot(context.usage)),
      error: errorText(err),
      raw: errorRaw(err),
    };
  }
}

/** First leg: the item input as the first user message. */
export function runLeg(options: LegOptions, input: string): Promise<AgentResultInput> {
  return drive(options, input, new RunContext(), 0);
}

/** Continue a paused run from its serialised `RunState`: approve runs the pause tool's body, deny rejects with the decision as its output. */
export async function resumeLeg(options: LegOptions, state: Json, decision: Decision): Promise<AgentResultInput> {
  const text = typeof state === "string" ? state : JSON.stringify(state);
  const restored = await RunState.fromString(options.agent, text);
  const pending = restored.getInterruptions();
  if (pending.length === 0) return { error: "cannot resume: the run state has no pending approval" };
  for (const item of pending) {
    if (decision === "approve") restored.approve(item);
    else restored.reject(item, { message: decisionText(decision) });
  }
  return drive(options, restored, restored._context, restored._currentTurn);
}

/** The harness's Runner over one agent (the first stage of a pipeline): every leg runs through `drive`. */
export function legRunner(options: LegOptions): HarnessRunner {
  return {
    run: (item) => runLeg(options, item.input),
    resume: (_item, state, decision) => resumeLeg(options, state, decision),
  };
}
