/**
 * The scored result is the served result: the answer, the task tool calls and the pause facts
 * an item is scored on are read from the replies the gateway served for it, never from the
 * adapter's report of them. The adapter's report is compared with it (rule `served-result`), so
 * an adapter that calls honestly and then answers from elsewhere is both scored on what the
 * model said and caught.
 */
import { isControlTool, isSuspendTool } from "../../contract/tools/registry.ts";
import type { WireDeclaration } from "../../contract/declarations.ts";
import { callsOf, canonicalJson, type NormalCall } from "./normal.ts";
import type { ServedResult, WitnessedLeg } from "./types.ts";

export type { ServedResult };
import type { Body } from "./wire.ts";
import { messages, messageText } from "./wire.ts";
import { PAUSE_TEXTS } from "../../contract/texts.ts";


function replies(leg: WitnessedLeg): Body[] {
  return (leg.exchanges ?? []).map((x) => x.reply).filter((r): r is Body => r !== null && typeof r === "object");
}

/**
 * A leg's task calls as the model asked for them. The calls batched after a pause call must not
 * run (they are answered with the paused-sibling text), so they are not the agent's — unless a
 * later request answers one with a result, which shows the framework ran it. Control tools,
 * handoffs and declared delegates are the framework's, not task calls.
 */
function legCalls(leg: WitnessedLeg, delegates: readonly string[], ran: ReadonlySet<string>): { calls: NormalCall[]; pauseTool?: string } {
  const calls: NormalCall[] = [];
  let pauseTool: string | undefined;
  for (const reply of replies(leg)) {
    let paused = false;
    for (const call of callsOf(reply)) {
      if (isSuspendTool(call.name)) {
        pauseTool ??= call.name;
        paused = true;
        continue;
      }
      if (isControlTool(call.name, delegates)) continue;
      // A sibling after the pause call counts only where the wire shows it ran anyway (a finding).
      if (!paused || ran.has(call.id)) calls.push(call);
    }
  }
  return pauseTool ? { calls, pauseTool } : { calls };
}

/** Ids of calls some request answers with a result, not the paused-sibling text: they ran. */
function ranCalls(legs: readonly WitnessedLeg[]): Set<string> {
  const ran = new Set<string>();
  for (const leg of legs) {
    for (const x of leg.exchanges ?? []) {
      for (const m of messages(x.request)) {
        if (m.role === "tool" && !PAUSE_TEXTS.has(messageText(m))) ran.add(String(m.tool_call_id ?? ""));
      }
    }
  }
  return ran;
}

/**
 * The answer as served: on the item's last leg, the last non-empty assistant content the gateway
 * served (the baseline's `last_content`), or, for an adapter whose loop ends with a control tool,
 * that tool's declared argument in the last call to it.
 */
export function servedAnswer(legs: readonly WitnessedLeg[], declaration: WireDeclaration): string {
  const last = legs[legs.length - 1];
  if (!last) return "";
  const served = replies(last);
  if (declaration.answer !== "content") {
    const { tool, argument } = declaration.answer;
    const call = served.flatMap((r) => callsOf(r)).filter((c) => c.name === tool).pop();
    if (!call) return "";
    try {
      const value = (JSON.parse(call.args) as Body)?.[argument];
      return typeof value === "string" ? value : value === undefined ? "" : JSON.stringify(value);
    } catch {
      return "";
    }
  }
  for (let i = served.length - 1; i >= 0; i--) {
    const text = messageText(served[i]!);
    if (text !== "") return text;
  }
  return "";
}

export function servedResult(legs: readonly WitnessedLeg[], declaration: WireDeclaration, delegates: readonly string[]): ServedResult {
  const ran = ranCalls(legs);
  const perLeg = legs.map((leg) => legCalls(leg, delegates, ran));
  return { answer: servedAnswer(legs, declaration), toolCalls: perLeg.flatMap((l) => l.calls), legs: perLeg };
}

/** Whether the adapter's reported answer is the served one, under the declared normalisation. */
export function sameAnswer(reported: string, served: string, declaration: WireDeclaration): boolean {
  if (reported === served) return true;
  const forms = new Set(declaration.normalise.map((n) => n.form));
  let a = reported;
  let b = served;
  if (forms.has("trim")) {
    a = a.trim();
    b = b.trim();
    if (a === b) return true;
  }
  if (forms.has("json")) {
    try {
      return canonicalJson(JSON.parse(a)) === canonicalJson(JSON.parse(b));
    } catch {
      return false;
    }
  }
  return false;
}
