/**
 * A user message that is not the item's input is a framework message, allowed only in a form the
 * adapter declares (contract/declarations.ts MESSAGE_FORMS) and only built from what was served:
 * a coaching line, a scripted answer or a dataset value never fits a form, because every form's
 * content is checked against the served replies and the canonical tool outputs of this item.
 */
import type { WireDeclaration } from "../../contract/declarations.ts";
import type { NormalCall } from "./normal.ts";
import { normalArgs } from "./normal.ts";
import type { LaneContext } from "./types.ts";
import { cut, messageText, type Body } from "./wire.ts";

/** What the gateway served for the item before the request being judged. */
export interface ServedSoFar {
  /** Served replies in the normal form (normal.ts). */
  readonly replies: Set<string>;
  /** Non-empty served assistant contents. */
  readonly contents: Set<string>;
  /** Served calls by id. */
  readonly calls: Map<string, NormalCall>;
  /** Ids of calls batched after a pause call in the same reply. */
  readonly pausedSiblings: Set<string>;
}

function delegateTask(text: string, served: ServedSoFar, lane: LaneContext): boolean {
  for (const call of served.calls.values()) {
    if (!lane.delegates.includes(call.name)) continue;
    try {
      const args = JSON.parse(call.raw) as Body;
      if (args && typeof args === "object" && Object.values(args).some((v) => v === text)) return true;
    } catch {
      // An argument that is not JSON carries no task text.
    }
  }
  return false;
}

const SAID = /^\[([^\]]+)\] said: ([\s\S]*)$/;
const CALLED = /^\[([^\]]+)\] called tool `([^`]+)` with parameters: ([\s\S]*)$/;
const RETURNED = /^\[([^\]]+)\] tool `([^`]+)` returned result: ([\s\S]*)$/;

/** One part of ADK's `For context:` message, checked against what was served. */
function adkPartProblem(part: string, served: ServedSoFar, lane: LaneContext): string | undefined {
  const said = SAID.exec(part);
  if (said) return served.contents.has(said[2]!) ? undefined : `"[${said[1]}] said:" quotes text the gateway never served: ${cut(JSON.stringify(said[2]), 100)}`;
  const called = CALLED.exec(part);
  if (called) {
    const args = normalArgs(called[3]);
    const match = [...served.calls.values()].some((c) => c.name === called[2] && c.args === args);
    return match ? undefined : `"[${called[1]}] called tool" names a ${called[2]} call the gateway never served: ${cut(called[3]!, 100)}`;
  }
  const returned = RETURNED.exec(part);
  if (returned) {
    let result: unknown;
    try {
      result = (JSON.parse(returned[3]!) as Body)?.result;
    } catch {
      return `"[${returned[1]}] tool returned" is not a JSON result: ${cut(returned[3]!, 100)}`;
    }
    const match = [...served.calls.values()].some((c) => c.name === returned[2] && lane.canonical(c.name, c.raw) === result);
    return match ? undefined : `"[${returned[1]}] tool \`${returned[2]}\` returned" a result no served call's canonical output has: ${cut(JSON.stringify(result), 100)}`;
  }
  return `a part of no "For context:" form: ${cut(JSON.stringify(part), 100)}`;
}

function adkForContextProblem(message: Body, served: ServedSoFar, lane: LaneContext): string | undefined {
  const parts = Array.isArray(message.content) ? message.content.map((p: Body) => (typeof p?.text === "string" ? p.text : "")) : [messageText(message)];
  if (parts[0] !== "For context:" || parts.length < 2) return "not of the \"For context:\" form";
  for (const part of parts.slice(1)) {
    const problem = adkPartProblem(part, served, lane);
    if (problem) return problem;
  }
  return undefined;
}

/** Why a user message that is not the item's input is not a declared framework message (undefined: it is one). */
export function frameworkMessageProblem(message: Body, _input: string, served: ServedSoFar, declaration: WireDeclaration, lane: LaneContext): string | undefined {
  const text = messageText(message);
  const forms = declaration.framework_messages.map((f) => f.form);
  if (forms.length === 0) return `a user message beyond the item's input, and the adapter declares no framework messages: ${cut(JSON.stringify(text), 120)}`;
  const problems: string[] = [];
  for (const form of forms) {
    if (form === "delegate-task") {
      if (delegateTask(text, served, lane)) return undefined;
      problems.push("not the argument of a served delegate call");
    } else {
      const problem = adkForContextProblem(message, served, lane);
      if (!problem) return undefined;
      problems.push(problem);
    }
  }
  return `a user message of no declared form (${problems.join("; ")}): ${cut(JSON.stringify(text), 120)}`;
}
