/**
 * What one leg observed, across every agent it ran (a pipeline's sub-agents included): model calls
 * started (the budget), usage, the task tool calls, the raw arguments the model sent, and the
 * lead agent's last text. Usage is each finished `generate`'s `totalUsage` (its `usage` is the last
 * step only); a `generate` that threw has no result, so its finished steps' usage is summed instead.
 */
import type { Agent, GenerateTextResult, LanguageModelUsage, ModelMessage, StepResult, ToolSet } from "ai";
import { isControlTool, isSuspendTool } from "../../../contract/tools/registry.ts";
import type { Json } from "../../../contract/protocol.ts";

export interface ToolCall {
  readonly name: string;
  readonly arguments: string;
}

type AnyAgent = Agent<never, ToolSet, any, any>;
type AnyStep = StepResult<ToolSet, any>;
export type AnyResult = GenerateTextResult<ToolSet, any, any>;

export class LegLog {
  /** Model calls started in this leg, by any agent: what a shared budget counts. */
  started = 0;
  prompt = 0;
  completion = 0;
  calls = 0;
  readonly toolCalls: ToolCall[] = [];
  /** The lead agent's last non-empty text (the baseline's `last_content`). */
  lastText = "";
  readonly #raw = new Map<string, string>();
  readonly #delegates: readonly string[];

  constructor(delegates: readonly string[] = []) {
    this.#delegates = delegates;
  }

  readonly recordRaw = (toolCallId: string, rawArguments: string): void => {
    this.#raw.set(toolCallId, rawArguments);
  };

  readonly rawArguments = (toolCallId: string): string | undefined => this.#raw.get(toolCallId);

  usage() {
    return { prompt_tokens: this.prompt, completion_tokens: this.completion, llm_calls: this.calls };
  }

  /** Run one agent's loop, metering it; `lead` marks the agent whose text is the leg's answer. */
  async generate(agent: AnyAgent, messages: ModelMessage[], lead: boolean): Promise<AnyResult> {
    const finished: AnyStep[] = [];
    try {
      const result = await agent.generate({
        messages,
        onStepStart: () => {
          this.started += 1;
        },
        onStepEnd: (step: AnyStep) => {
          finished.push(step);
          this.#logStep(step, lead);
        },
      });
      this.#add(result.totalUsage, result.steps.length);
      return result;
    } catch (err) {
      for (const step of finished) this.#add(step.usage, 1);
      throw err;
    }
  }

  #add(usage: LanguageModelUsage, calls: number): void {
    this.prompt += usage.inputTokens ?? 0;
    this.completion += usage.outputTokens ?? 0;
    this.calls += calls;
  }

  /**
   * Every task-tool call of the step in the model's order, with the model's own argument string:
   * also a call the SDK could not parse or does not know (it answers those itself). Pause tools,
   * handoffs, control tools and delegates are not task calls.
   */
  #logStep(step: AnyStep, lead: boolean): void {
    for (const call of step.toolCalls) {
      if (call.providerExecuted || isSuspendTool(call.toolName) || isControlTool(call.toolName, this.#delegates)) continue;
      this.toolCalls.push({ name: call.toolName, arguments: this.#raw.get(call.toolCallId) ?? JSON.stringify(call.input ?? {}) });
    }
    if (lead && step.text) this.lastText = step.text;
  }
}

/** What approval was asked for: the pause call's `summary` (request_approval) or `note` (save_progress). */
export function summaryOf(input: unknown): string {
  if (input === null || typeof input !== "object" || Array.isArray(input)) return "";
  const value = (input as Record<string, unknown>).summary ?? (input as Record<string, unknown>).note;
  return typeof value === "string" ? value : "";
}

/** `Name: message`, with the HTTP status when the SDK kept one (so a 5xx reads as the provider's failure). */
export function errorText(err: unknown): string {
  if (!(err instanceof Error)) return `Error: ${String(err)}`;
  const last = (err as { lastError?: unknown }).lastError;
  const status = statusOf(err) ?? statusOf(last);
  return `${err.name}: ${err.message}${status === undefined ? "" : ` (status code ${status})`}`;
}

function statusOf(err: unknown): number | undefined {
  const status = (err as { statusCode?: unknown } | undefined)?.statusCode;
  return typeof status === "number" ? status : undefined;
}

/** The stack for the record's `raw`: the leg returns normally, so the traceback would be lost. */
export function errorRaw(err: unknown): Json {
  return err instanceof Error ? { error: errorText(err), stack: err.stack ?? "" } : { error: errorText(err) };
}

/** A value as plain JSON: the SDK's messages may carry `undefined` fields, which JSON drops. */
export function plainJson(value: unknown): Json {
  return JSON.parse(JSON.stringify(value)) as Json;
}
