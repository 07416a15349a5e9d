/** Leg merging (harness.md §5): cost summed over legs, because a framework that pauses pays for re-sending. */
import type { AgentResult } from "../../contract/protocol.ts";

export interface MergedResult extends AgentResult {
  /** Number of legs that ended suspended. */
  readonly suspends: number;
  /** The first leg's tool calls: what the agent did before it paused. */
  readonly tool_calls_before_suspend: AgentResult["tool_calls"];
}

export function mergeLegs(legs: readonly AgentResult[]): MergedResult {
  if (legs.length === 0) throw new Error("mergeLegs needs at least one leg");
  const last = legs[legs.length - 1]!;
  if (legs.length === 1) return { ...last, suspends: 0, tool_calls_before_suspend: [] };
  const sum = (key: "prompt_tokens" | "completion_tokens" | "latency_s" | "llm_calls") =>
    legs.reduce((acc, leg) => acc + leg[key], 0);
  return {
    ...last,
    tool_calls: legs.flatMap((leg) => leg.tool_calls),
    prompt_tokens: sum("prompt_tokens"),
    completion_tokens: sum("completion_tokens"),
    latency_s: sum("latency_s"),
    llm_calls: sum("llm_calls"),
    tool_calls_before_suspend: legs[0]!.tool_calls,
    suspends: legs.filter((leg) => leg.suspended).length,
  };
}
