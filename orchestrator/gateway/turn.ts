/**
 * Which scripted turn a native tool-calling request gets (gateway.md §4, §4.1) and the rewrites
 * applied to it (§5). Everything is read from the request transcript: the gateway keeps no state.
 */
import { parsePyJson, type PyDict, type PyValue } from "@agentic-arena/py-semantics";
import type { Turn } from "../arena/schemas.ts";
import { FINAL_ANSWER, HANDOFF_PREFIX, isControlTool } from "./control.ts";
import { asDict, asList, dumpsSortedKeys } from "./py-helpers.ts";
import { BUILTIN_DEFAULT_TURN } from "./script.ts";

/** A tool the request advertises: its `function.name` and the whole spec object it came from. */
export interface AdvertisedTool {
  readonly name: string;
  readonly spec: PyDict;
}

/** `tools[i].function.name` in order, skipping entries without a string name. */
export function advertisedTools(tools: readonly PyValue[]): AdvertisedTool[] {
  const out: AdvertisedTool[] = [];
  for (const t of tools) {
    if (!(t instanceof Map)) continue;
    const name = asDict(t.get("function"))?.get("name");
    if (typeof name === "string") out.push({ name, spec: t });
  }
  return out;
}

export function assistantCount(messages: readonly PyValue[]): number {
  let n = 0;
  for (const m of messages) if (m instanceof Map && m.get("role") === "assistant") n++;
  return n;
}

/** `turns[min(index, len − 1)]`; the built-in "I don't know." for a scenario without turns. */
export function turnAt(turns: readonly Turn[], index: number): Turn {
  if (turns.length === 0) return BUILTIN_DEFAULT_TURN;
  return turns[Math.min(index, turns.length - 1)] as Turn;
}

/** §4.1: from `index`, the first content turn at or after it, else the last turn. */
export function skipToContent(turns: readonly Turn[], index: number): Turn {
  if (turns.length === 0) return BUILTIN_DEFAULT_TURN;
  for (let i = Math.min(index, turns.length - 1); i < turns.length; i++) {
    const t = turns[i] as Turn;
    if (t.kind === "content") return t;
  }
  return turns[turns.length - 1] as Turn;
}

/** §4.1 "holds none of the arena's tools". */
export function holdsNoArenaTools(advertised: readonly AdvertisedTool[], arenaTools: ReadonlySet<string> | null): boolean {
  if (arenaTools === null) return advertised.every((t) => isControlTool(t.name));
  return advertised.every((t) => !arenaTools.has(t.name));
}

export interface RewriteContext {
  readonly advertised: readonly AdvertisedTool[];
  readonly messages: readonly PyValue[];
  /** Task text handed to a delegate: first user text, plus forwardContext when set. */
  readonly taskText: string;
  readonly arenaTools: ReadonlySet<string> | null;
}

/** §5: delegation first; only without an unused delegate candidate the `final_answer` rewrite. */
export function applyRewrites(turn: Turn, ctx: RewriteContext): Turn {
  const delegate = firstUnusedDelegate(ctx);
  if (delegate !== undefined) {
    if (turn.kind === "tool_calls") return turn;
    return { kind: "tool_calls", tool_calls: [{ name: delegate.name, arguments: delegate.arguments }] };
  }
  if (turn.kind === "content" && ctx.advertised.some((t) => t.name === FINAL_ANSWER)) {
    return { kind: "tool_calls", tool_calls: [{ name: FINAL_ANSWER, arguments: new Map([["answer", turn.content]]) }] };
  }
  return turn;
}

/**
 * §5.1 candidates: first every handoff (`transfer_to_*`), then, only when the arena's tools are
 * known, every other advertised tool outside them and `final_answer` (a sub-agent advertised as a
 * tool, e.g. `writer`); each group in advertised order.
 */
function delegateCandidates(ctx: RewriteContext): AdvertisedTool[] {
  const handoffs = ctx.advertised.filter((t) => t.name.startsWith(HANDOFF_PREFIX));
  const { arenaTools } = ctx;
  if (arenaTools === null) return handoffs;
  const declared = ctx.advertised.filter((t) => !t.name.startsWith(HANDOFF_PREFIX) && !arenaTools.has(t.name) && t.name !== FINAL_ANSWER);
  return [...handoffs, ...declared];
}

function firstUnusedDelegate(ctx: RewriteContext): { name: string; arguments: PyDict } | undefined {
  for (const tool of delegateCandidates(ctx)) {
    const args = fillArguments(tool.spec, ctx.taskText);
    if (!alreadyUsed(tool.name, args, ctx.messages)) return { name: tool.name, arguments: args };
  }
  return undefined;
}

/** §5.1: each required parameter gets its first enum value, the task text (strings) or `{}`. */
export function fillArguments(spec: PyDict, taskText: string): PyDict {
  const params = asDict(asDict(spec.get("function"))?.get("parameters"));
  const required = asList(params?.get("required")) ?? [];
  const properties = asDict(params?.get("properties"));
  const out: PyDict = new Map();
  for (const name of required) {
    if (typeof name !== "string") continue;
    const prop = asDict(properties?.get(name));
    const choices = asList(prop?.get("enum"));
    if (choices !== undefined && choices.length > 0) out.set(name, choices[0] as PyValue);
    else if (prop?.get("type") === "string") out.set(name, taskText);
    else out.set(name, new Map());
  }
  return out;
}

/** §5.1 "already used": a matching earlier call, or the call replayed as prose by the client. */
export function alreadyUsed(tool: string, filled: PyDict, messages: readonly PyValue[]): boolean {
  const byNameOnly = filled.size === 0;
  let wanted: string | undefined;
  const prose = [`'name': '${tool}'`, `"name": "${tool}"`];
  for (const m of messages) {
    if (!(m instanceof Map) || m.get("role") !== "assistant") continue;
    for (const call of asList(m.get("tool_calls")) ?? []) {
      const fn = asDict(asDict(call)?.get("function"));
      if (fn?.get("name") !== tool) continue;
      if (byNameOnly) return true;
      const raw = fn.get("arguments");
      if (typeof raw !== "string") continue;
      let parsed: PyValue;
      try {
        parsed = parsePyJson(raw);
      } catch {
        continue;
      }
      wanted ??= dumpsSortedKeys(filled);
      if (dumpsSortedKeys(parsed) === wanted) return true;
    }
    const text = contentText(m.get("content"));
    if (text !== "" && (text.includes(prose[0] as string) || text.includes(prose[1] as string))) return true;
  }
  return false;
}

/** A string content, or the concatenated `text` of content parts. */
function contentText(content: PyValue | undefined): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  let out = "";
  for (const part of content) {
    const text = asDict(part)?.get("text");
    if (typeof text === "string") out += text;
  }
  return out;
}
