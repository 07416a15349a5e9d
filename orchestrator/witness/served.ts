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
import type { WitnessedLeg } from "./types.ts";
import type { Body } from "./wire.ts";
import { messageText } from "./wire.ts";

export interface ServedResult {
  /** What the scorer reads: see {@link servedAnswer}. */
  readonly answer: string;
  /** Task tool calls in served replies, every leg, in order (control, handoff, delegate and pause calls excluded). */
  readonly toolCalls: readonly NormalCall[];
  /** Per leg: the task calls it was served, and the pause tool its replies called (if any). */
  readonly legs: readonly { readonly calls: readonly NormalCall[]; readonly pauseTool?: string }[];
}

function replies(leg: WitnessedLeg): Body[] {
  return (leg.exchanges ?? []).map((x) => x.reply).filter((r): r is Body => r !== null && typeof r === "object");
}

/**
 * A leg's task calls as the model asked for them. A pause call ends its reply: the calls batched
 * after it never run (they are answered with the paused-sibling text), so they are not the
 * agent's. Control tools, handoffs and declared delegates are the framework's, not task calls.
 */
function legCalls(leg: WitnessedLeg, delegates: readonly string[]): { calls: NormalCall[]; pauseTool?: string } {
  const calls: NormalCall[] = [];
  let pauseTool: string | undefined;
  for (const reply of replies(leg)) {
    for (const call of callsOf(reply)) {
      if (isSuspendTool(call.name)) {
        pauseTool ??= call.name;
        break;
      }
      if (!isControlTool(call.name, delegates)) calls.push(call);
    }
  }
  return pauseTool ? { calls, pauseTool } : { calls };
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
  const perLeg = legs.map((leg) => legCalls(leg, delegates));
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
