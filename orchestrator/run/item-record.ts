/**
 * How a driven item becomes its record: the pure mapping from what the legs returned, the score
 * and the witness's violations to an ItemRecord (and from an exception of ours to a `harness`
 * error). No I/O, no state: the session calls these and journals the result.
 */
import type { Item } from "../arena/schemas.ts";
import type { ItemRecord, LegRecord } from "../report/record.ts";
import type { ServedResult } from "../witness/served.ts";
import type { RuleViolation } from "../witness/types.ts";
import type { DrivenItem, DrivenLeg } from "./drive.ts";

export function workItem(item: Item, checkpointDir: string) {
  return { id: item.id, input: item.input, resume_with: item.resume_with, checkpointDir };
}

/** The served result as the scorer and the record read it (names only, as records keep them). */
export interface ScoredResult {
  readonly outputText: string;
  readonly toolNames: readonly string[];
  readonly beforeSuspend: readonly string[];
  /** Per answered leg, in order: its served task calls. */
  readonly legToolNames: readonly (readonly string[])[];
}

/**
 * The served result in the merge's terms (harness.md §5): every leg's calls in order, and the first
 * leg's as what ran before the pause — only when the item paused, as the merge sets it.
 */
export function scoredResult(served: ServedResult, suspends: number): ScoredResult {
  const legToolNames = served.legs.map((l) => l.calls.map((c) => c.name));
  return {
    outputText: served.answer,
    toolNames: served.toolCalls.map((c) => c.name),
    beforeSuspend: suspends > 0 ? (legToolNames[0] ?? []) : [],
    legToolNames,
  };
}

function legRecord(leg: DrivenLeg, servedCalls: readonly string[] | undefined): LegRecord {
  return {
    prompt_tokens: leg.result.prompt_tokens,
    completion_tokens: leg.result.completion_tokens,
    llm_calls: leg.result.llm_calls,
    tool_calls: servedCalls ? [...servedCalls] : leg.result.tool_calls.map((c) => c.name),
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
  scored?: ScoredResult,
): ItemRecord {
  const m = driven.merged;
  const served = driven.served;
  const reportedCalls = m.tool_calls.map((c) => c.name);
  return {
    repeat,
    item_id: item.id,
    passed: score.passed,
    checks: score.checks,
    output_text: scored?.outputText ?? m.output_text ?? "",
    tool_calls: scored ? [...scored.toolNames] : reportedCalls,
    prompt_tokens: served?.prompt_tokens ?? m.prompt_tokens,
    completion_tokens: served?.completion_tokens ?? m.completion_tokens,
    latency_s: Math.round(driven.wallSeconds * 10_000) / 10_000,
    llm_calls: served?.llm_calls ?? m.llm_calls,
    error: m.error,
    ...(m.error && driven.errorClass ? { error_class: driven.errorClass } : {}),
    ...(m.suspends > 0
      ? { suspends: m.suspends, tool_calls_before_suspend: scored ? [...scored.beforeSuspend] : m.tool_calls_before_suspend.map((c) => c.name) }
      : {}),
    ...(served ? { served } : {}),
    reported: {
      prompt_tokens: m.prompt_tokens,
      completion_tokens: m.completion_tokens,
      llm_calls: m.llm_calls,
      latency_s: m.latency_s,
      // The adapter's own word on what it answered, kept beside the served result it is scored on.
      ...(scored ? { output_text: m.output_text ?? "", tool_calls: reportedCalls } : {}),
    },
    ...(violations.length > 0 ? { violations: [...violations] } : {}),
    ...(driven.legs.length > 1 ? { legs: legRecords(driven, scored) } : {}),
    ...(driven.traceback ? { traceback: driven.traceback } : {}),
  };
}

/**
 * Each answered leg's record, its calls the served ones: `driven.legs` holds the answered legs
 * only, while the witness saw every leg sent, so the two are aligned by `answered`.
 */
function legRecords(driven: DrivenItem, scored: ScoredResult | undefined): LegRecord[] {
  const servedCalls = scored ? driven.witnessed.flatMap((leg, i) => (leg.answered ? [scored.legToolNames[i] ?? []] : [])) : undefined;
  return driven.legs.map((leg, i) => legRecord(leg, servedCalls?.[i]));
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
