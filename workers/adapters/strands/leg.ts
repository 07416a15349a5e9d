/**
 * What one leg observes of a Strands invocation, through the SDK's hooks: the model's raw tool
 * argument strings (from the stream), the task calls the SDK handed to a tool, the model calls it
 * completed, the last assistant text, and a stream-idle watchdog behind `cancelSignal`.
 */
import {
  AfterModelCallEvent,
  BeforeModelCallEvent,
  BeforeToolCallEvent,
  ModelStreamUpdateEvent,
  type Agent,
  type Message,
} from "@strands-agents/sdk";
import { isSuspendTool } from "../../../contract/tools/registry.ts";
import type { ToolHooks } from "./tools.ts";

export interface ToolCall {
  readonly name: string;
  readonly arguments: string;
}

/** The text blocks of a message, joined (the baseline's `content`). */
export function textOf(message: Message | undefined): string {
  if (!message) return "";
  return message.content.map((block) => (block.type === "textBlock" ? block.text : "")).join("");
}

/**
 * Bounds the streamed body of one model response: the `openai` client's `timeout` covers each
 * attempt only until the response headers arrive, so a provider that stalls mid-stream would hold
 * the leg until the harness's deadline. Armed from the first streamed event of a model call,
 * re-armed by every later one, disarmed when the call ends; on expiry it aborts the invocation
 * through the `cancelSignal` Strands accepts (the SDK then stops with `stopReason: 'cancelled'`).
 */
export class StreamWatchdog {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  private readonly idleMs: number;
  fired = false;

  constructor(idleMs: number) {
    this.idleMs = idleMs;
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  touch(): void {
    this.stop();
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort(new DOMException(`no streamed data for ${this.idleMs / 1000} s`, "TimeoutError"));
    }, this.idleMs);
  }

  stop(): void {
    if (this.timer !== undefined) clearTimeout(this.timer);
    this.timer = undefined;
  }
}

/** Per-leg observations; `tools` is what the leg's FunctionTools read their raw arguments from. */
export class LegLog implements ToolHooks {
  private readonly raw = new Map<string, string>();
  private current: string | undefined;
  readonly toolCalls: ToolCall[] = [];
  llmCalls = 0;
  promptTokens = 0;
  completionTokens = 0;
  lastText = "";
  readonly watchdog: StreamWatchdog;

  constructor(watchdog: StreamWatchdog) {
    this.watchdog = watchdog;
  }

  rawArguments(toolUseId: string): string | undefined {
    return this.raw.get(toolUseId);
  }

  attach(agent: Agent): void {
    agent.addHook(ModelStreamUpdateEvent, (e) => {
      this.watchdog.touch();
      const ev = e.event;
      if (ev.type === "modelContentBlockStartEvent" && ev.start?.type === "toolUseStart") {
        this.current = ev.start.toolUseId;
        this.raw.set(this.current, "");
      } else if (ev.type === "modelContentBlockDeltaEvent" && ev.delta.type === "toolUseInputDelta" && this.current) {
        this.raw.set(this.current, this.raw.get(this.current)! + ev.delta.input);
      } else if (ev.type === "modelMetadataEvent" && ev.usage) {
        // One usage chunk per served response (the provider asks for include_usage). Counted
        // here, not from the SDK's meter, because a response the SDK then rejects (arguments it
        // cannot parse) was still served and billed, and the meter never sees it.
        this.llmCalls += 1;
        this.promptTokens += ev.usage.inputTokens;
        this.completionTokens += ev.usage.outputTokens;
      }
    });
    agent.addHook(BeforeModelCallEvent, () => {
      this.current = undefined;
    });
    agent.addHook(AfterModelCallEvent, (e) => {
      this.watchdog.stop();
      if (!e.stopData) return;
      this.lastText = textOf(e.stopData.message) || this.lastText;
    });
    // Every call the SDK is about to handle, unknown names included (the baseline logs those too);
    // a pause call is not a task call, and one whose arguments did not parse never gets here.
    agent.addHook(BeforeToolCallEvent, (e) => {
      const { name, toolUseId, input } = e.toolUse;
      if (isSuspendTool(name)) return;
      this.toolCalls.push({ name, arguments: this.raw.get(toolUseId) ?? JSON.stringify(input ?? {}) });
    });
  }
}

/** `<ErrorClass>: <message>`, with the cause chain (a Strands ModelError wraps the client's error). */
export function errorText(err: unknown): string {
  const parts: string[] = [];
  let current: unknown = err;
  while (current instanceof Error && parts.length < 4) {
    const name = current.name === "Error" && current.constructor?.name ? current.constructor.name : current.name;
    parts.push(`${name}: ${current.message}`);
    current = current.cause;
  }
  return parts.length > 0 ? parts.join(" <- caused by ") : `Error: ${String(err)}`;
}
