/**
 * One leg's account of what the model actually served, kept by a Mastra processor hook
 * (`processLLMResponse`, called once per model response received in this process, before any tool
 * of that response runs). It is the usage source, and where the tools find the argument string the
 * model sent.
 *
 * Why not Mastra's own figures: across a tool-approval pause Mastra moves the pausing call's usage
 * to the resumed leg (the step "finishes" there), and a resumed run's `totalUsage` / `steps` cover
 * the whole run, so neither is a per-leg number (README, Findings).
 */
import { isSuspendTool } from "../../../contract/tools/registry.ts";

export interface TaskCall {
  readonly name: string;
  readonly arguments: string;
}

interface Chunk {
  readonly type: string;
  readonly payload?: Record<string, any>;
}

function count(v: unknown): number {
  return typeof v === "number" && Number.isFinite(v) ? v : 0;
}

export class LegLedger {
  promptTokens = 0;
  completionTokens = 0;
  llmCalls = 0;
  /** Task-tool calls the model made this leg, in order, with the argument string as sent. */
  readonly calls: TaskCall[] = [];
  /** The text of the last response that had any. */
  lastText = "";
  private readonly rawArguments = new Map<string, string>();

  /** The input processor Mastra calls after every model response. */
  readonly processor = {
    id: "arena-leg-ledger",
    processLLMResponse: (args: { chunks: readonly Chunk[]; fromCache: boolean }) => {
      if (!args.fromCache) this.record(args.chunks);
    },
  };

  /** The argument string the model sent for a call, if it was served in this leg. */
  argumentsOf(toolCallId: string | undefined): string | undefined {
    return toolCallId === undefined ? undefined : this.rawArguments.get(toolCallId);
  }

  private record(chunks: readonly Chunk[]): void {
    this.llmCalls += 1;
    let text = "";
    const deltas = new Map<string, string>();
    for (const { type, payload = {} } of chunks) {
      if (type === "text-delta") text += String(payload.text ?? "");
      else if (type === "tool-call-delta") {
        const id = String(payload.toolCallId);
        deltas.set(id, (deltas.get(id) ?? "") + String(payload.argsTextDelta ?? ""));
      } else if (type === "tool-call") {
        const id = String(payload.toolCallId);
        // Without deltas (a provider that sends the call whole) the parsed form is all there is.
        const raw = deltas.get(id) ?? JSON.stringify(payload.args ?? {});
        this.rawArguments.set(id, raw);
        const name = String(payload.toolName ?? "");
        if (!isSuspendTool(name)) this.calls.push({ name, arguments: raw });
      } else if (type === "finish") {
        const usage = payload.output?.usage ?? payload.usage ?? {};
        this.promptTokens += count(usage.inputTokens);
        this.completionTokens += count(usage.outputTokens);
      }
    }
    if (text !== "") this.lastText = text;
  }

  usage() {
    return { prompt_tokens: this.promptTokens, completion_tokens: this.completionTokens, llm_calls: this.llmCalls };
  }
}
