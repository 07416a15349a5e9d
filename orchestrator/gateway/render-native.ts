/** Native Chat Completions rendering (gateway.md §6): the assistant message and the response body. */
import { dumpsPy, type PyDict, type PyValue } from "@agentic-arena/py-semantics";
import type { Turn } from "../arena/schemas.ts";
import { toolCallId } from "./ids.ts";
import type { Usage } from "./usage.ts";

export type FinishReason = "stop" | "tool_calls";

export interface Rendered {
  /** The assistant message exactly as sent (and recorded), keys in wire order. */
  readonly message: PyDict;
  readonly finishReason: FinishReason;
}

/** Wire `arguments`: a scripted string verbatim, anything else as Python `json.dumps`. */
export function argumentsString(args: PyValue): string {
  return typeof args === "string" ? args : dumpsPy(args);
}

export function renderNative(turn: Turn): Rendered {
  if (turn.kind === "content") return contentMessage(turn.content);
  const calls: PyValue[] = turn.tool_calls.map(
    (c): PyDict =>
      new Map<string, PyValue>([
        ["id", c.id ?? toolCallId()],
        ["type", "function"],
        [
          "function",
          new Map<string, PyValue>([
            ["name", c.name],
            ["arguments", argumentsString(c.arguments)],
          ]),
        ],
      ]),
  );
  return {
    message: new Map<string, PyValue>([
      ["role", "assistant"],
      ["content", null],
      ["tool_calls", calls],
    ]),
    finishReason: "tool_calls",
  };
}

export function contentMessage(content: string): Rendered {
  return {
    message: new Map<string, PyValue>([
      ["role", "assistant"],
      ["content", content],
    ]),
    finishReason: "stop",
  };
}

/** Values shared by a response and all chunks of its stream. */
export interface ResponseMeta {
  readonly id: string;
  /** Unix seconds. */
  readonly created: number;
  /** The request's `model` as sent (any JSON value), or `"mock-model"` when absent. */
  readonly model: PyValue;
}

export function usageDict(u: Usage): PyDict {
  return new Map<string, PyValue>([
    ["prompt_tokens", BigInt(u.prompt_tokens)],
    ["completion_tokens", BigInt(u.completion_tokens)],
    ["total_tokens", BigInt(u.prompt_tokens + u.completion_tokens)],
  ]);
}

export function completionBody(meta: ResponseMeta, r: Rendered, usage: Usage): PyDict {
  return new Map<string, PyValue>([
    ["id", meta.id],
    ["object", "chat.completion"],
    ["created", BigInt(meta.created)],
    ["model", meta.model],
    [
      "choices",
      [
        new Map<string, PyValue>([
          ["index", 0n],
          ["message", r.message],
          ["finish_reason", r.finishReason],
        ]),
      ],
    ],
    ["usage", usageDict(usage)],
  ]);
}
