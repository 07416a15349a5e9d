/**
 * Server-sent events for `"stream": true` (gateway.md §8). The whole reply is known up front, so
 * the stream is written in one piece; clients only see event boundaries, not timing.
 */
import { dumpsPy, type PyDict, type PyValue } from "@agentic-arena/py-semantics";
import { usageDict, type Rendered, type ResponseMeta } from "./render-native.ts";
import type { Usage } from "./usage.ts";

function chunk(meta: ResponseMeta, rest: readonly [string, PyValue][]): PyDict {
  return new Map<string, PyValue>([
    ["id", meta.id],
    ["object", "chat.completion.chunk"],
    ["created", BigInt(meta.created)],
    ["model", meta.model],
    ...rest,
  ]);
}

function delta(message: PyDict): PyDict {
  const calls = message.get("tool_calls");
  if (!Array.isArray(calls)) {
    return new Map<string, PyValue>([
      ["role", "assistant"],
      ["content", message.get("content") ?? null],
    ]);
  }
  const indexed = calls.map((c, i): PyValue => new Map<string, PyValue>([["index", BigInt(i)], ...(c as PyDict)]));
  return new Map<string, PyValue>([
    ["role", "assistant"],
    ["tool_calls", indexed],
  ]);
}

/** The full `text/event-stream` body; the usage chunk only when the client asked for it. */
export function sseBody(meta: ResponseMeta, r: Rendered, usage: Usage, includeUsage: boolean): string {
  const events: PyDict[] = [
    chunk(meta, [["choices", [new Map<string, PyValue>([["index", 0n], ["delta", delta(r.message)], ["finish_reason", null]])]]]),
    chunk(meta, [["choices", [new Map<string, PyValue>([["index", 0n], ["delta", new Map()], ["finish_reason", r.finishReason]])]]]),
  ];
  if (includeUsage) events.push(chunk(meta, [["choices", []], ["usage", usageDict(usage)]]));
  let out = "";
  for (const e of events) out += `data: ${dumpsPy(e)}\n\n`;
  return out + "data: [DONE]\n\n";
}
