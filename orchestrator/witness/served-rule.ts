/**
 * Rule `served-result`: what the adapter reports is what the gateway served. The record is
 * scored on the served result either way (served.ts); this rule says when the two differ, so an
 * adapter that rebuilds its answer from elsewhere is named, not merely scored lower.
 */
import { namesFor } from "../../contract/tools/registry.ts";
import { cut } from "./wire.ts";
import { isJsonObjectArgs, type NormalCall } from "./normal.ts";
import { sameAnswer, servedResult } from "./served.ts";
import type { ItemEvidence, LaneContext } from "./types.ts";

export function servedResultViolations(item: ItemEvidence, lane: LaneContext): { leg: number; detail: string }[] {
  const out: { leg: number; detail: string }[] = [];
  const served = item.served ?? servedResult(item.legs, lane.declaration, lane.delegates);
  item.legs.forEach((leg, i) => {
    const reported = leg.result;
    if (!leg.answered || !reported) return;
    const flag = (detail: string) => out.push({ leg: i + 1, detail });
    const servedLeg = served.legs[i]!;
    const names = reported.tool_calls.map((c) => c.name);
    const servedNames = servedLeg.calls.map((c) => c.name);
    if (!sameCalls(names, servedLeg.calls, lane)) {
      flag(`tool calls reported ${cut(JSON.stringify(names), 100)}, served ${cut(JSON.stringify(servedNames), 100)}`);
    }
    if (reported.suspended && !servedLeg.pauseTool) flag("the leg reports a pause, and no served reply called a pause tool");
    if (!reported.suspended && servedLeg.pauseTool && !reported.error) flag(`a served reply called ${servedLeg.pauseTool}, and the leg ran on instead of pausing`);
    const last = i === item.legs.length - 1;
    if (last && !reported.suspended && !reported.error && !sameAnswer(reported.output_text, served.answer, lane.declaration)) {
      flag(`answer reported ${cut(JSON.stringify(reported.output_text), 100)}, served ${cut(JSON.stringify(served.answer), 100)}`);
    }
  });
  return out;
}

/**
 * The reported calls are the served ones; under `refused-calls-unreported`, a served call the
 * framework refused (arguments not a JSON object, a tool the arena does not declare) may be
 * missing from the report, and nothing else may.
 */
function sameCalls(reported: readonly string[], served: readonly NormalCall[], lane: LaneContext): boolean {
  if (!lane.declaration.normalise.some((n) => n.form === "refused-calls-unreported")) {
    return reported.length === served.length && reported.every((name, i) => name === served[i]!.name);
  }
  const declared: ReadonlySet<string> = new Set(namesFor(lane.declaredTools));
  return reportedWithRefusalsLeftOut(reported, served.map((c) => ({ name: c.name, refused: !declared.has(c.name) || !isJsonObjectArgs(c.raw) })));
}

/**
 * Whether `reported` is `served` with some refused calls left out, in order. Matched as a
 * subsequence, not greedily: a refused call and the retry that follows it share a name
 * (calculator with broken JSON, then calculator again), and a greedy match would pair the report
 * with the refused one and then find the retry unreported.
 */
export function reportedWithRefusalsLeftOut(reported: readonly string[], served: readonly { name: string; refused: boolean }[]): boolean {
  // reachable[i]: the first i reported names are matched by the served calls seen so far.
  let reachable = new Set([0]);
  for (const call of served) {
    const next = new Set<number>();
    for (const i of reachable) {
      if (reported[i] === call.name) next.add(i + 1);
      if (call.refused) next.add(i);
    }
    reachable = next;
  }
  return reachable.has(reported.length);
}
