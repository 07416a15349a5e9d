/**
 * The request bodies the gateway benchmark sends, built from the repo's tool_use arena so that
 * every reply takes the path a real run's does: the arena's system prompt, its first question and
 * the canonical tool specs (tools.md §1) as the baseline sends them, serialized the way Python's
 * json.dumps would.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadArena } from "../../orchestrator/arena/load.ts";
import type { Arena } from "../../orchestrator/arena/schemas.ts";
import { dumpsPy, fromJs, parsePyJson, type PyValue } from "@agentic-arena/py-semantics";
import { specsFor } from "../../contract/tools/registry.ts";

export interface ToolUseRequest {
  arena: Arena;
  question: string;
  tools: PyValue;
  /** A turn-0 request: system prompt, user question, both tools. */
  body: string;
}

export const ARENA_TOOLS = ["search", "calculator"];

export function loadToolUseRequest(): ToolUseRequest {
  const arena = loadArena(path.join(path.dirname(fileURLToPath(import.meta.url)), "../../arenas/tool_use"));
  const question = arena.items[0]?.input ?? "";
  const tools = fromJs(specsFor(ARENA_TOOLS));
  const body = dumpsPy(
    new Map([
      ["model", "mock-model"],
      [
        "messages",
        [
          new Map([
            ["role", "system"],
            ["content", arena.systemPrompt],
          ]),
          new Map([
            ["role", "user"],
            ["content", question],
          ]),
        ],
      ],
      ["temperature", 0.0],
      ["stream", false],
      ["tools", tools],
      ["tool_choice", "auto"],
    ]),
  );
  return { arena, question, tools, body };
}

/** What the gateway bills for `body`: a quarter of the json.dumps length of its messages plus tools. */
export function expectedPromptTokens({ body, tools }: ToolUseRequest): number {
  const messagesChars = dumpsPy((parsePyJson(body) as Map<string, PyValue>).get("messages") as PyValue).length;
  return Math.floor((messagesChars + dumpsPy(tools).length) / 4);
}

/** A canonical (Python json.dumps) tool_use transcript of about `bytes` bytes; `at` is where 6 index digits go. */
export function bigBody({ arena, question, tools }: ToolUseRequest, bytes: number): { buf: Buffer; at: number } {
  const msg = (kv: [string, PyValue][]) => new Map<string, PyValue>(kv);
  const messages: PyValue[] = [msg([["role", "system"], ["content", arena.systemPrompt]]), msg([["role", "user"], ["content", `${question} [run 000000]`]])];
  const observation = "The search returned a long passage about arithmetic and towers. ".repeat(55);
  for (let i = 0, size = 0; size < bytes - 8000; i++) {
    const call = msg([["id", `call_${String(i).padStart(8, "0")}`], ["type", "function"], ["function", msg([["name", "search"], ["arguments", `{"query": "step ${i}"}`]])]]);
    messages.push(msg([["role", "assistant"], ["content", null], ["tool_calls", [call]]]), msg([["role", "tool"], ["tool_call_id", `call_${String(i).padStart(8, "0")}`], ["content", observation]]));
    size += observation.length + 250;
  }
  const buf = Buffer.from(dumpsPy(msg([["model", "mock-model"], ["messages", messages], ["tools", tools]])));
  return { buf, at: buf.indexOf("[run 000000]") + 5 };
}
