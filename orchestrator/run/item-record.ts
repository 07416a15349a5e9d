/**
 * How a driven item becomes its record: the pure mapping from what the legs returned, the score
 * and the witness's violations to an ItemRecord (and from an exception of ours to a `harness`
 * error). No I/O, no state: the session calls these and journals the result.
 */
import type { Item } from "../arena/schemas.ts";
import type { ItemRecord, LegRecord } from "../report/record.ts";
import type { RuleViolation } from "../witness/types.ts";
import type { DrivenItem, DrivenLeg } from "./drive.ts";

export function workItem(item: Item, checkpointDir: string) {
  return { id: item.id, input: item.input, resume_with: item.resume_with, checkpointDir };
}

function legRecord(leg: DrivenLeg): LegRecord {
  return {
    prompt_tokens: leg.result.prompt_tokens,
    completion_tokens: leg.result.completion_tokens,
    llm_calls: leg.result.llm_calls,
    tool_calls: leg.result.tool_calls.map((c) => c.name),
    suspended: leg.result.suspended,
    latency_s: Math.round(leg.seconds * 10_000) / 10_000,
    ...(leg.served ? { served: leg.served } : {}),
    ...(leg.resumeStateBytes !== undefined ? { resume_state_bytes: leg.resumeStateBytes } : {}),
  };
}

/**
 * The item as recorded. Tokens and LLM calls are what the gateway served (every attempt), when it
 * recorded the item; latency is the harness's own clock. The adapter's own figures are kept as
 * `reported`, and a mismatch is the witness's `usage-reported` violation.
 */
export function itemRecord(
  item: Item,
  repeat: number,
  driven: DrivenItem,
  score: { passed: boolean; checks: ItemRecord["checks"] },
  violations: readonly RuleViolation[],
): ItemRecord {
  const m = driven.merged;
  const served = driven.served;
  return {
    repeat,
    item_id: item.id,
    passed: score.passed,
    checks: score.checks,
    output_text: m.output_text ?? "",
    tool_calls: m.tool_calls.map((c) => c.name),
    prompt_tokens: served?.prompt_tokens ?? m.prompt_tokens,
    completion_tokens: served?.completion_tokens ?? m.completion_tokens,
    latency_s: Math.round(driven.wallSeconds * 10_000) / 10_000,
    llm_calls: served?.llm_calls ?? m.llm_calls,
    error: m.error,
    ...(m.error && driven.errorClass ? { error_class: driven.errorClass } : {}),
    ...(m.suspends > 0
      ? { suspends: m.suspends, tool_calls_before_suspend: m.tool_calls_before_suspend.map((c) => c.name) }
      : {}),
    ...(served ? { served } : {}),
    reported: { prompt_tokens: m.prompt_tokens, completion_tokens: m.completion_tokens, llm_calls: m.llm_calls, latency_s: m.latency_s },
    ...(violations.length > 0 ? { violations: [...violations] } : {}),
    ...(driven.legs.length > 1 ? { legs: driven.legs.map(legRecord) } : {}),
    ...(driven.traceback ? { traceback: driven.traceback } : {}),
  };
}

/** An item that did nothing: no output, no calls, no usage, not passed. */
export function blankItemRecord(itemId: string, repeat: number): ItemRecord {
  return {
    repeat,
    item_id: itemId,
    passed: false,
    checks: [],
    output_text: "",
    tool_calls: [],
    prompt_tokens: 0,
    completion_tokens: 0,
    latency_s: 0,
    llm_calls: 0,
    error: null,
  };
}

/** Our own exception while handling an item: recorded as a `harness` error, and the run goes on. */
export function harnessErrorRecord(item: Item, repeat: number, err: unknown): ItemRecord {
  const text = err instanceof Error ? `${err.name}: ${err.message}` : `Error: ${String(err)}`;
  return {
    ...blankItemRecord(item.id, repeat),
    error: `HarnessError: ${text}`,
    error_class: "harness",
    ...(err instanceof Error && err.stack ? { traceback: err.stack } : {}),
  };
}
