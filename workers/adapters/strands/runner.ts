/**
 * The `strands` runner: one leg = one invocation of a fresh `Agent` (the SDK's own loop) on the
 * build's model. The cap is `limits.turns`; a pause is a tool interrupt, and what crosses to the
 * resume (in another process on the durable arena) is the agent's own JSON snapshot plus the ids
 * of the interrupts to answer.
 */
import { Agent, type AgentResult, type InterruptResponseContentData, type Snapshot } from "@strands-agents/sdk";
import type { OpenAIModel } from "@strands-agents/sdk/models/openai";
import type { AdapterConfig, AgentResultInput, ArenaSpec, Json, WorkItem } from "../../../contract/protocol.ts";
import type { BuildContext, Decision, Runner } from "../../../contract/adapter.ts";
import { errorText, LegLog, StreamWatchdog, textOf } from "./leg.ts";
import { arenaTools, PAUSE_INTERRUPT, type PauseReason } from "./tools.ts";

import { MAX_ITERATIONS_ERROR } from "../../../contract/texts.ts";

export { MAX_ITERATIONS_ERROR };

/** `resume_state`: the snapshot (messages, interrupt state with the paused tool execution) and what to answer. */
interface PausedRun {
  readonly snapshot: Snapshot;
  readonly interrupts: readonly string[];
}

function parsePaused(state: Json): PausedRun | string {
  if (state === null || typeof state !== "object" || Array.isArray(state)) return "resume_state is not an object";
  const { snapshot, interrupts } = state as Record<string, Json>;
  if (snapshot === null || typeof snapshot !== "object" || Array.isArray(snapshot)) return "resume_state has no snapshot";
  if (!Array.isArray(interrupts) || interrupts.length === 0 || !interrupts.every((i) => typeof i === "string")) {
    return "resume_state names no interrupt to answer";
  }
  return { snapshot: snapshot as unknown as Snapshot, interrupts: interrupts as string[] };
}

export interface StrandsParts {
  readonly arena: ArenaSpec;
  readonly config: AdapterConfig;
  readonly ctx: BuildContext;
  readonly model: OpenAIModel;
}

function newAgent(parts: StrandsParts, log: LegLog): Agent {
  const agent = new Agent({
    model: parts.model,
    // The arena's prompt verbatim: the provider sends it as the first (system) message.
    systemPrompt: parts.arena.systemPrompt,
    tools: arenaTools(parts.arena.tools, parts.ctx.tools, log),
    // The console printer writes every token to stdout; nothing reads it.
    printer: false,
  });
  log.attach(agent);
  return agent;
}

async function drive(agent: Agent, log: LegLog, input: Parameters<Agent["stream"]>[0], turns: number): Promise<AgentResultInput> {
  const usage = () => ({ prompt_tokens: log.promptTokens, completion_tokens: log.completionTokens, llm_calls: log.llmCalls });
  let result: AgentResult;
  try {
    result = await agent.invoke(input, { limits: { turns }, cancelSignal: log.watchdog.signal });
  } catch (err) {
    // The SDK raised (a transport failure after the retries, arguments it could not parse, …):
    // the item ends with `error`, keeping this leg's usage and the tools that did run.
    return { output_text: log.lastText, tool_calls: log.toolCalls, ...usage(), error: errorText(err), raw: { stack: String((err as Error)?.stack ?? "") } };
  } finally {
    log.watchdog.stop();
  }
  const common = { tool_calls: log.toolCalls, ...usage() };
  switch (result.stopReason) {
    case "interrupt": {
      const pauses = (result.interrupts ?? []).filter((i) => i.name === PAUSE_INTERRUPT);
      const snapshot = agent.takeSnapshot({ preset: "session" });
      return {
        ...common,
        output_text: log.lastText,
        suspended: true,
        suspend_request: pauses.map((i) => (i.reason as PauseReason | undefined)?.summary ?? "").filter(Boolean).join("\n"),
        // Parsed back from its own JSON text: exactly what a store would have kept.
        resume_state: { snapshot: JSON.parse(JSON.stringify(snapshot)) as Json, interrupts: pauses.map((i) => i.id) },
      };
    }
    case "limitTurns":
      return { ...common, output_text: log.lastText, error: MAX_ITERATIONS_ERROR };
    case "cancelled":
      return {
        ...common,
        output_text: log.lastText,
        error: log.watchdog.fired ? `TimeoutError: ${String((log.watchdog.signal.reason as Error)?.message)}` : "cancelled",
      };
    default:
      return { ...common, output_text: textOf(result.lastMessage) };
  }
}

export function buildStrandsRunner(parts: StrandsParts): Runner {
  const { config } = parts;
  const idleMs = config.requestTimeoutS * 1000;
  return {
    run(item: WorkItem) {
      const log = new LegLog(new StreamWatchdog(idleMs));
      return drive(newAgent(parts, log), log, item.input, config.maxToolIterations);
    },
    async resume(_item: WorkItem, state: Json, decision: Decision) {
      const paused = parsePaused(state);
      if (typeof paused === "string") return { error: `cannot resume: ${paused}` };
      const log = new LegLog(new StreamWatchdog(idleMs));
      const agent = newAgent(parts, log);
      try {
        agent.loadSnapshot(paused.snapshot);
      } catch (err) {
        return { error: `cannot resume: ${errorText(err)}` };
      }
      const answers: InterruptResponseContentData[] = paused.interrupts.map((interruptId) => ({
        interruptResponse: { interruptId, response: decision },
      }));
      // The resumed invocation's first cycle runs the paused tools without a model call, and Strands
      // counts it as a turn: one more turn than the budget leaves the leg its full N model calls.
      return drive(agent, log, answers, config.maxToolIterations + 1);
    },
  };
}
