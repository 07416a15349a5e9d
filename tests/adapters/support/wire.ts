/**
 * Reading what the gateway received the way every adapter suite judges it: requests grouped into
 * the conversation each item opened, the transcript replayed whole on every call, every tool
 * answer checked against the call it answers, the task calls an adapter reports against the
 * calls on the wire, and what the model is shown after a fault.
 */
import path from "node:path";
import { toJs } from "@agentic-arena/py-semantics";
import { expect } from "vitest";
import { loadArena } from "../../../orchestrator/arena/load.ts";
import type { GatewayRecords, RequestRecord } from "../../../orchestrator/gateway/index.ts";
import type { ItemRecord } from "../../../orchestrator/report/record.ts";
import { dispatch } from "../../../contract/tools/dispatch.ts";
import { isSuspendTool } from "../../../contract/tools/registry.ts";
import { loadCorpus } from "../../../contract/tools/search.ts";
import { OUR_ARENAS, OUR_CORPUS } from "../../support/run.ts";

/** A served request body as plain JSON; messages stay loose because each framework shapes them its own way. */
export type Body = { model: string; messages: any[]; tools?: any[]; [k: string]: unknown };

/** What a tool message answers: the function of the assistant's call with the same id. */
export type ToolCall = { name: string; arguments: string };

/** Judges one tool message's content; `where` names the call for the failure message. */
export type AnswerJudge = (call: ToolCall, content: any, where: string) => void;

/** The requests one framework sent in one arena (several frameworks can share a gateway; the tag says whose). */
export function requestsOf(gateway: GatewayRecords | undefined, adapter: string, arena: string): RequestRecord[] {
  return (gateway?.requests ?? []).filter((r) => r.tag.startsWith(`${adapter}__${arena}__`));
}

export const bodiesOf = (requests: readonly RequestRecord[]): Body[] => requests.map((r) => toJs(r.body) as Body);

/** A user message's text, whether the framework sent a string or text parts. */
const userText = (m: any): string => (typeof m.content === "string" ? m.content : m.content.map((p: any) => p.text ?? "").join(""));

/** Requests grouped into conversations by their first user message (the item input), in arrival order. */
export function conversations<B extends Record<string, any>>(bodies: readonly B[]): Map<string, B[]> {
  const out = new Map<string, B[]>();
  for (const body of bodies) {
    const input = userText(body.messages.find((m: any) => m.role === "user"));
    out.set(input, [...(out.get(input) ?? []), body]);
  }
  return out;
}

/** The requests of one item (the gateway picks scenarios by the first user message, so do we). */
export function itemBodies<B extends Record<string, any>>(bodies: readonly B[], input: string): B[] {
  return conversations(bodies).get(input) ?? [];
}

/** Every tool message of one request answers an assistant call in it, and passes `judge`. */
export function expectEachToolAnswer(where: string, body: Record<string, any>, judge: AnswerJudge): void {
  const calls = new Map<string, ToolCall>();
  for (const m of body.messages) for (const c of m.tool_calls ?? []) calls.set(c.id, c.function);
  for (const m of body.messages.filter((x: any) => x.role === "tool")) {
    const call = calls.get(m.tool_call_id);
    expect(call, `${where}: tool message without a call`).toBeDefined();
    judge(call!, m.content, `${where}: ${call!.name}(${call!.arguments})`);
  }
}

/** Each request starts with the previous request's messages unchanged, and every tool answer passes `judge`. */
export function expectReplayedVerbatim(arena: string, bodies: readonly Body[], judge: AnswerJudge): void {
  for (const [input, conversation] of conversations(bodies)) {
    for (const [n, body] of conversation.entries()) {
      expectEachToolAnswer(`${arena} "${input}"`, body, judge);
      if (n === 0) continue;
      const previous = conversation[n - 1]!.messages;
      expect(body.messages.slice(0, previous.length), `${arena}: "${input}" request ${n}`).toEqual(previous);
    }
  }
}

/**
 * An adapter's own report of its tool_calls (kept under `reported`; the record's are the served ones)
 * is the task calls (pause tools excluded) in its item's last request, in order.
 */
export function expectToolCallsAsOnWire(arena: string, items: readonly ItemRecord[], bodies: readonly Body[], skip: readonly string[] = []): void {
  const byInput = conversations(bodies);
  const inputs = new Map(loadArena(path.join(OUR_ARENAS, arena)).items.map((i) => [i.id, i.input]));
  for (const item of items) {
    if (skip.includes(item.item_id)) continue;
    const last = byInput.get(inputs.get(item.item_id)!)!.at(-1)!;
    const onWire = last.messages.flatMap((m) => (m.tool_calls ?? []).map((c: any) => c.function.name as string));
    expect(item.reported?.tool_calls ?? item.tool_calls, `${arena}/${item.item_id}`).toEqual(onWire.filter((name) => !isSuspendTool(name)));
  }
}

/** Each pipeline stage's system prompt and the tools it was offered, one entry per request. */
export const stagesOf = (bodies: readonly Body[]) => bodies.map((b) => [b.messages[0].content, (b.tools ?? []).map((t: any) => t.function.name).join(",")]);

let corpus: ReturnType<typeof loadCorpus> | undefined;

/**
 * The shared dispatch on our corpus: what every tool answer is held to, and the tools an
 * in-process adapter is built with (the same signature as the build context's `dispatch`).
 */
export const dispatched = (name: string, args: unknown) => dispatch(name, args, { corpus: (corpus ??= loadCorpus(OUR_CORPUS)) });

/**
 * What each item's last request shows the model in answer to its first tool call: "dispatch"
 * where that is the shared dispatch's own string, else the text the framework put there instead.
 */
export function shownAfterFault(bodies: readonly Record<string, any>[], items: readonly { id: string; input: string }[]): Record<string, string> {
  const shown: Record<string, string> = {};
  for (const { id, input } of items) {
    const mine = itemBodies(bodies, input);
    const last = mine.at(-1)!;
    const call = last.messages.find((m: any) => m.role === "assistant" && m.tool_calls)?.tool_calls?.[0];
    if (!call) {
      shown[id] = `(${mine.length} request, no tool call replayed)`;
      continue;
    }
    const reply: string = last.messages.find((m: any) => m.role === "tool" && m.tool_call_id === call.id)!.content;
    shown[id] = reply === dispatched(call.function.name, call.function.arguments) ? "dispatch" : reply;
  }
  return shown;
}
