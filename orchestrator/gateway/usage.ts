/**
 * Usage accounting identical to the reference (gateway.md §7): characters / 4 over the Python
 * `json.dumps` text of `messages` + `tools`. Not a tokenizer; what matters is that every port and
 * every framework is billed by the same rule, so the published numbers stay comparable.
 */
import { dumpsPy, type PyDict, type PyValue } from "@agentic-arena/py-semantics";
import { codePointLength, pyJsonLength, truthy } from "./py-helpers.ts";

export interface Usage {
  readonly prompt_tokens: number;
  readonly completion_tokens: number;
}

/** `max(1, floor(codePoints(s) / 4))`. */
export function estimate(s: string): number {
  return estimateFromLength(codePointLength(s));
}

function estimateFromLength(codePoints: number): number {
  return Math.max(1, Math.floor(codePoints / 4));
}

/** The billed prompt text: `pyJson(messages) + pyJson(tools)` with the `[]` and `null` rules. */
export function promptText(body: PyDict): string {
  const messages = body.has("messages") ? (body.get("messages") as PyValue) : [];
  const tools = body.get("tools");
  return dumpsPy(messages) + (truthy(tools) ? dumpsPy(tools as PyValue) : "[]");
}

export function promptTokens(body: PyDict): number {
  // dumpsPy escapes everything outside ASCII, so its length already is the code-point count.
  const messages = body.has("messages") ? (body.get("messages") as PyValue) : [];
  const tools = body.get("tools");
  return estimateFromLength(pyJsonLength(messages) + (truthy(tools) ? pyJsonLength(tools as PyValue) : 2));
}

/** A rendered assistant message's completion tokens: its text, else its rendered tool calls. */
export function completionTokens(message: PyDict): number {
  const content = message.get("content");
  if (typeof content === "string" && content !== "") return estimate(content);
  return estimateFromLength(pyJsonLength(message.get("tool_calls") ?? []));
}
