/**
 * The transcript is append-only and faithful (issue 18): judged against what the gateway served
 * for this item, not against the request itself. Walking the item's exchanges in order (every
 * leg, across the restart), each request must
 *
 * - replay only assistant turns the gateway served for this item (after the normal form);
 * - answer only served calls, each with the canonical output of the call *as served* (a rewritten
 *   argument in the replay does not change what the tool had to return), a pause text, or the
 *   declared text of an exempt tool;
 * - carry no user message but the item's input and the declared framework messages;
 * - extend the previous request of its conversation: that request's messages, then its served
 *   reply, then the results — nothing dropped, reordered or rewritten.
 *
 * A conversation is a system text and a set of advertised tools; a second one needs declared
 * stages (a pipeline, sub-agents), and each is append-only on its own.
 */
import { DELEGATE_REPLY, type WireDeclaration } from "../../contract/declarations.ts";
import { PAUSED_SIBLING_TEXT, PAUSE_TEXTS } from "../../contract/texts.ts";
import { HANDOFF_PREFIX, isControlTool, isSuspendTool } from "../../contract/tools/registry.ts";
import { frameworkMessageProblem, type ServedSoFar } from "./framework-messages.ts";
import { callsOf, isJsonObjectArgs, normalMessage, normalReply } from "./normal.ts";
import type { ItemEvidence, LaneContext } from "./types.ts";
import { advertisedNames, cut, messages, messageText, systemTexts, type Body } from "./wire.ts";

export interface HistoryViolation {
  readonly rule: "transcript" | "tool-output" | "framework-message";
  readonly leg: number;
  readonly request: number;
  readonly detail: string;
}

interface Conversation {
  readonly messages: readonly string[];
  /** The forms the served reply may be replayed in (its normal form, and the declared one). */
  readonly reply: readonly string[];
}

/** A served reply as the transcript may replay it: its normal form, and the form the declaration allows. */
function replyForms(reply: unknown, declaration: WireDeclaration): string[] {
  const normal = normalReply(reply);
  if (normal === undefined) return [];
  const forms = [normal];
  if (declaration.history.some((h) => h.form === "non-object-arguments-as-empty-object")) {
    const r = reply as Body;
    const calls = Array.isArray(r.tool_calls) ? r.tool_calls : [];
    const emptied = calls.map((c: Body) => (isJsonObjectArgs(c?.function?.arguments) ? c : { ...c, function: { ...c?.function, arguments: "{}" } }));
    const lenient = normalReply({ ...r, tool_calls: emptied });
    if (lenient !== undefined && lenient !== normal) forms.push(lenient);
  }
  return forms;
}

const conversationKey = (body: Body) => JSON.stringify([systemTexts(body), advertisedNames(body)]);

function exemptText(name: string, declaration: WireDeclaration): string | undefined {
  const entry = declaration.exempt_results.find((e) => e.tool === name || (e.tool === `${HANDOFF_PREFIX}*` && name.startsWith(HANDOFF_PREFIX)));
  if (!entry) return undefined;
  return entry.text.replaceAll("{agent}", () => name.slice(HANDOFF_PREFIX.length));
}

export function historyViolations(item: ItemEvidence, lane: LaneContext): HistoryViolation[] {
  const out: HistoryViolation[] = [];
  const declaration = lane.declaration;
  const served: ServedSoFar = { replies: new Set(), contents: new Set(), calls: new Map(), pausedSiblings: new Set() };
  const conversations = new Map<string, Conversation>();
  let request = 0;
  item.legs.forEach((leg, legIndex) => {
    for (const exchange of leg.exchanges ?? []) {
      request += 1;
      const flag = (rule: HistoryViolation["rule"], detail: string) => out.push({ rule, leg: legIndex + 1, request, detail });
      const body = exchange.request;
      const all = messages(body);
      for (const m of all) {
        if (m.role === "assistant" && !served.replies.has(normalMessage(m))) {
          flag("transcript", `an assistant turn the gateway never served for this item: ${cut(JSON.stringify({ content: m.content ?? null, tool_calls: callsOf(m).map(({ id, name, args }) => ({ id, name, args })) }), 140)}`);
        } else if (m.role === "tool") {
          toolMessage(m, served, declaration, lane, flag);
        } else if (m.role === "user" && messageText(m) !== item.input) {
          const problem = frameworkMessageProblem(m, item.input, served, declaration, lane);
          if (problem) flag("framework-message", problem);
        }
      }
      const normal = all.map(normalMessage);
      const key = conversationKey(body);
      const before = conversations.get(key);
      if (before) {
        const problem = appendProblem(before, normal);
        if (problem) flag("transcript", problem);
      } else if (conversations.size > 0 && !declaration.stages) {
        flag("transcript", `starts a second conversation (another system text or tool set) and the adapter declares no stages`);
      }
      const reply = replyForms(exchange.reply, declaration);
      conversations.set(key, { messages: normal, reply });
      if (reply.length > 0) remember(exchange.reply as Body, reply, served);
    }
  });
  return out;
}

/** The previous request of the conversation, then its served reply, must open this one. */
function appendProblem(before: Conversation, now: readonly string[]): string | undefined {
  const prefix = before.messages;
  for (let i = 0; i < prefix.length; i++) {
    if (now[i] === prefix[i]) continue;
    if (now[i] === undefined) return `drops the history: ${prefix.length - now.length} of the previous request's ${prefix.length} message(s) are gone`;
    return `rewrites the history: message ${i + 1} differs from the previous request's (${cut(now[i]!, 100)} where it was ${cut(prefix[i]!, 100)})`;
  }
  if (before.reply.length > 0 && now.length > prefix.length && !before.reply.includes(now[prefix.length]!)) {
    return `the served reply does not follow the history it answered (message ${prefix.length + 1} is ${cut(now[prefix.length]!, 100)})`;
  }
  return undefined;
}

function remember(reply: Body, forms: readonly string[], served: ServedSoFar): void {
  for (const form of forms) served.replies.add(form);
  const text = messageText(reply);
  if (text !== "") served.contents.add(text);
  let paused = false;
  for (const call of callsOf(reply)) {
    served.calls.set(call.id, call);
    if (paused) served.pausedSiblings.add(call.id);
    if (isSuspendTool(call.name)) paused = true;
  }
}

function toolMessage(m: Body, served: ServedSoFar, declaration: WireDeclaration, lane: LaneContext, flag: (rule: HistoryViolation["rule"], detail: string) => void): void {
  const id = String(m.tool_call_id ?? "");
  const call = served.calls.get(id);
  const seen = messageText(m);
  if (!call) {
    flag("transcript", `a tool message answers ${JSON.stringify(id)}, a call the gateway never served for this item`);
    return;
  }
  // A pause call is answered with the decision (its form is the pause probes'), its batched siblings with the paused-sibling text.
  if (isSuspendTool(call.name)) return;
  if (served.pausedSiblings.has(id) && seen === PAUSED_SIBLING_TEXT) return;
  if (isControlTool(call.name, lane.delegates)) {
    const expected = exemptText(call.name, declaration);
    if (expected === undefined) flag("tool-output", `${call.name} is answered with ${cut(JSON.stringify(seen), 80)}, and the adapter declares no result text for it`);
    else if (expected === DELEGATE_REPLY ? !served.contents.has(seen) : seen !== expected) {
      flag("tool-output", `${call.name}: expected ${expected === DELEGATE_REPLY ? "the sub-agent's served reply" : cut(JSON.stringify(expected), 80)}, seen ${cut(JSON.stringify(seen), 80)}`);
    }
    return;
  }
  if (PAUSE_TEXTS.has(seen) && !served.pausedSiblings.has(id)) {
    flag("tool-output", `${call.name}(${cut(call.args, 60)}) is answered with a pause text, and no pause call came before it`);
    return;
  }
  const expected = lane.canonical(call.name, call.raw);
  if (seen !== expected) flag("tool-output", `${call.name}(${cut(call.args, 60)}): expected ${cut(JSON.stringify(expected), 80)}, seen ${cut(JSON.stringify(seen), 80)}`);
}
