/**
 * Renderers for text-protocol clients (gateway.md §6.1): code agents (smolagents-style
 * `<code>` blocks) and text ReAct (`Action:` / `Observation:`). They are chosen before the native
 * path and skip delegation, `final_answer` and the skip rule.
 */
import { parsePyJson, pyRepr, pyStr, type PyDict, type PyValue } from "@agentic-arena/py-semantics";
import type { Turn } from "../arena/schemas.ts";
import { argumentsString } from "./render-native.ts";

export type TextProtocol = "code" | "react";

function stopEntries(stop: PyValue | undefined): string[] {
  if (typeof stop === "string") return [stop];
  if (Array.isArray(stop)) return stop.filter((s): s is string => typeof s === "string");
  return [];
}

/** Which text protocol a tool-less request speaks, judged from its `stop` sequences. */
export function detectTextProtocol(hasTools: boolean, stop: PyValue | undefined): TextProtocol | null {
  if (hasTools) return null;
  const entries = stopEntries(stop);
  if (entries.some((s) => s.includes("</code>"))) return "code";
  if (entries.some((s) => s.toLowerCase().includes("observation"))) return "react";
  return null;
}

/** ReAct turn index: occurrences of `observation:` in every message's lower-cased `str(content)`. */
export function reactTurnIndex(messages: readonly PyValue[]): number {
  let n = 0;
  for (const m of messages) {
    if (!(m instanceof Map)) continue;
    const content = m.get("content");
    const text = (content === undefined ? "" : pyStr(content)).toLowerCase();
    for (let at = text.indexOf("observation:"); at !== -1; at = text.indexOf("observation:", at + 12)) n++;
  }
  return n;
}

/** Scripted arguments as a keyword dict: strings are parsed; anything that is not an object is `{}`. */
function argumentDict(args: PyValue): PyDict {
  let v = args;
  if (typeof v === "string") {
    try {
      v = parsePyJson(v);
    } catch {
      return new Map();
    }
  }
  return v instanceof Map ? v : new Map();
}

export function renderCodeAgent(turn: Turn): string {
  if (turn.kind === "content") {
    return `Thought: I have enough information to answer.\n<code>\nfinal_answer(${pyRepr(turn.content)})\n</code>`;
  }
  const calls = turn.tool_calls;
  const lines: string[] = [];
  calls.forEach((c, i) => {
    const variable = calls.length === 1 ? "result" : `result_${i}`;
    const kwargs = [...argumentDict(c.arguments)].map(([k, v]) => `${k}=${pyRepr(v)}`).join(", ");
    lines.push(`${variable} = ${c.name}(${kwargs})`, `print(${variable})`);
  });
  const names = calls.map((c) => c.name).join(", ");
  return `Thought: I should use the ${names} tool(s).\n<code>\n${lines.join("\n")}\n</code>`;
}

export function renderReact(turn: Turn): string {
  const call = turn.kind === "tool_calls" ? turn.tool_calls[0] : undefined;
  if (call !== undefined) {
    // The leading space continues the client's dangling `Thought:`.
    return ` I should use the ${call.name} tool.\nAction: ${call.name}\nAction Input: ${argumentsString(call.arguments)}`;
  }
  return ` I now know the final answer\nFinal Answer: ${turn.kind === "content" ? turn.content : ""}`;
}
