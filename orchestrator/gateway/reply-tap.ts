/**
 * What a provider's reply served, read as it passes through the proxy: the billed usage and the
 * assistant message, from a whole JSON completion or from an SSE stream fed chunk by chunk. The
 * bytes themselves are never changed here; a reply that cannot be read just yields no usage.
 */
import { parsePyJson, type PyDict, type PyValue } from "@agentic-arena/py-semantics";
import { asDict, asList } from "./py-helpers.ts";
import type { Usage } from "./usage.ts";

export interface Tapped {
  /** The provider's `usage`; zeros when the reply carried none (a stream without include_usage). */
  readonly usage: Usage;
  /** Whether the reply carried a usage object at all. */
  readonly usageSeen: boolean;
  /** The assistant message (`choices[0]`), reassembled from deltas for a stream. */
  readonly message: PyDict;
  /** Whether the body parsed as a JSON object (a stream is judged chunk by chunk, and counts as readable). */
  readonly readable: boolean;
}

const NO_USAGE: Usage = { prompt_tokens: 0, completion_tokens: 0 };

function count(v: PyValue | undefined): number {
  if (typeof v === "bigint") return v < 0n ? 0 : Number(v);
  return typeof v === "number" && Number.isFinite(v) && v >= 0 ? Math.floor(v) : 0;
}

function usageOf(v: PyValue | undefined): Usage | undefined {
  const u = asDict(v);
  return u === undefined ? undefined : { prompt_tokens: count(u.get("prompt_tokens")), completion_tokens: count(u.get("completion_tokens")) };
}

function parse(text: string): PyDict | undefined {
  try {
    return asDict(parsePyJson(text));
  } catch {
    return undefined;
  }
}

const lenient = new TextDecoder("utf-8");

/** A non-streamed completion body. */
export function tapJson(bytes: Uint8Array): Tapped {
  const body = parse(lenient.decode(bytes));
  const usage = usageOf(body?.get("usage"));
  const first = asDict(asList(body?.get("choices"))?.[0]);
  return { usage: usage ?? NO_USAGE, usageSeen: usage !== undefined, message: asDict(first?.get("message")) ?? new Map(), readable: body !== undefined };
}

interface CallParts {
  id: PyValue;
  type: PyValue;
  name: string;
  args: string;
}

/**
 * An SSE stream, fed as it arrives (gateway.md §8 is the shape; real providers add fields). Holds
 * only the line being received and the message so far, never the stream. The last `usage` wins:
 * some providers repeat a running total on every chunk.
 */
export class StreamTap {
  #decoder = new TextDecoder("utf-8");
  #line = "";
  #data: string[] = [];
  #usage: Usage | undefined;
  #role: PyValue = "assistant";
  #content: string | null = null;
  #calls = new Map<number, CallParts>();
  /** `data: [DONE]` went by: the reply is complete, whatever follows. */
  done = false;

  push(chunk: Uint8Array): void {
    this.#feed(this.#decoder.decode(chunk, { stream: true }));
  }

  /** The upstream ended: flush a last event that had no blank line after it. */
  end(): void {
    this.#feed(`${this.#decoder.decode()}\n\n`);
  }

  result(): Tapped {
    const message = new Map<string, PyValue>([
      ["role", this.#role],
      ["content", this.#content],
    ]);
    if (this.#calls.size > 0) {
      const calls = [...this.#calls.entries()].sort((a, b) => a[0] - b[0]);
      message.set(
        "tool_calls",
        calls.map(([, c]): PyValue => new Map<string, PyValue>([["id", c.id], ["type", c.type], ["function", new Map<string, PyValue>([["name", c.name], ["arguments", c.args]])]])),
      );
    }
    return { usage: this.#usage ?? NO_USAGE, usageSeen: this.#usage !== undefined, message, readable: true };
  }

  #feed(text: string): void {
    let from = 0;
    for (let nl = text.indexOf("\n"); nl !== -1; nl = text.indexOf("\n", from)) {
      let line = this.#line + text.slice(from, nl);
      this.#line = "";
      from = nl + 1;
      if (line.endsWith("\r")) line = line.slice(0, -1);
      if (line === "") this.#dispatch();
      else if (line.startsWith("data:")) this.#data.push(line.slice(line.startsWith("data: ") ? 6 : 5));
      // Other fields (event:, id:, retry:) and comments do not carry the completion.
    }
    this.#line += text.slice(from);
  }

  #dispatch(): void {
    if (this.#data.length === 0) return;
    const data = this.#data.join("\n");
    this.#data = [];
    if (data.trim() === "[DONE]") {
      this.done = true;
      return;
    }
    const event = parse(data);
    if (event === undefined) return;
    this.#usage = usageOf(event.get("usage")) ?? this.#usage;
    const delta = asDict(asDict(asList(event.get("choices"))?.[0])?.get("delta"));
    if (delta !== undefined) this.#merge(delta);
  }

  #merge(delta: PyDict): void {
    const role = delta.get("role");
    if (typeof role === "string") this.#role = role;
    const content = delta.get("content");
    if (typeof content === "string") this.#content = (this.#content ?? "") + content;
    for (const [i, raw] of (asList(delta.get("tool_calls")) ?? []).entries()) {
      const call = asDict(raw);
      if (call === undefined) continue;
      const index = call.get("index");
      const key = typeof index === "bigint" || typeof index === "number" ? Number(index) : i;
      const parts = this.#calls.get(key) ?? { id: null, type: "function", name: "", args: "" };
      if (call.has("id") && call.get("id") !== null) parts.id = call.get("id") as PyValue;
      if (typeof call.get("type") === "string") parts.type = call.get("type") as PyValue;
      const fn = asDict(call.get("function"));
      const name = fn?.get("name");
      const args = fn?.get("arguments");
      if (typeof name === "string") parts.name += name;
      if (typeof args === "string") parts.args += args;
      this.#calls.set(key, parts);
    }
  }
}
