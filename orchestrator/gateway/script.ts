/**
 * Turns a {@link ScriptSource} into the compiled form the request path reads: match strings
 * lower-cased once, turns normalised. Validation (non-empty matches, last turn is content, …) is
 * the arena loader's job; the gateway replays whatever it is given, the way the reference does.
 */
import { readFileSync } from "node:fs";
import { fromJs, parsePyJson, pyStr, type PyValue } from "@agentic-arena/py-semantics";
import type { ScriptedToolCall, Turn } from "../arena/schemas.ts";
import type { ScriptSource } from "./options.ts";

export interface CompiledScenario {
  /** `lower(str(match))`; empty never matches. */
  readonly match: string;
  readonly turns: readonly Turn[];
}

export interface CompiledScript {
  readonly scenarios: readonly CompiledScenario[];
  readonly defaultTurns: readonly Turn[];
}

/** gateway.md §3: used when the script has no `default`, and for any scenario without turns. */
export const BUILTIN_DEFAULT_TURN: Turn = { kind: "content", content: "I don't know." };

export function compileScript(source: ScriptSource): CompiledScript {
  if (typeof source === "string") return compileRaw(parsePyJson(readFileSync(source, "utf8")), source);
  if (source instanceof Map) return compileRaw(source, "script");
  return compilePlain(source as { readonly [key: string]: unknown });
}

/**
 * A JS object: either the loader's normalised MockScript (turns carry `kind`, arguments are already
 * PyValues and must not be re-read, or `3.0` would turn into `3`) or the raw file shape as a literal.
 */
function compilePlain(source: { readonly [key: string]: unknown }): CompiledScript {
  const scenariosRaw = source["scenarios"];
  if (scenariosRaw !== undefined && scenariosRaw !== null && !Array.isArray(scenariosRaw)) {
    throw new TypeError("script: 'scenarios' must be a list");
  }
  const scenarios: CompiledScenario[] = [];
  for (const s of (scenariosRaw ?? []) as unknown[]) {
    if (s === null || typeof s !== "object") continue;
    const { match, turns } = s as { match?: unknown; turns?: unknown };
    scenarios.push({
      match: match === undefined || match === null ? "" : pyStr(fromJs(match)).toLowerCase(),
      turns: plainTurns(turns),
    });
  }
  const def = source["default"] as { turns?: unknown } | undefined | null;
  const defaultTurns = def !== undefined && def !== null && typeof def === "object" ? plainTurns(def.turns) : [BUILTIN_DEFAULT_TURN];
  return { scenarios, defaultTurns };
}

function plainTurns(v: unknown): Turn[] {
  if (!Array.isArray(v)) return [];
  return v.map((t: unknown) => {
    if (t !== null && typeof t === "object" && !(t instanceof Map) && "kind" in t) return t as Turn;
    return compileTurn(fromJs(t));
  });
}

function compileRaw(raw: PyValue, where: string): CompiledScript {
  if (!(raw instanceof Map)) throw new TypeError(`${where}: a mock script must be an object`);
  const scenariosRaw = raw.get("scenarios");
  const scenarios: CompiledScenario[] = [];
  if (Array.isArray(scenariosRaw)) {
    for (const s of scenariosRaw) {
      if (!(s instanceof Map)) continue;
      const match = s.get("match");
      scenarios.push({
        match: match === undefined || match === null ? "" : pyStr(match).toLowerCase(),
        turns: compileTurns(s.get("turns")),
      });
    }
  } else if (scenariosRaw !== undefined && scenariosRaw !== null) {
    throw new TypeError(`${where}: 'scenarios' must be a list`);
  }
  const def = raw.get("default");
  const defaultTurns = def instanceof Map ? compileTurns(def.get("turns")) : [BUILTIN_DEFAULT_TURN];
  return { scenarios, defaultTurns };
}

function compileTurns(v: PyValue | undefined): Turn[] {
  if (!Array.isArray(v)) return [];
  return v.map(compileTurn);
}

function compileTurn(t: PyValue): Turn {
  if (!(t instanceof Map)) return { kind: "content", content: "" };
  const kind = t.get("kind");
  const calls = t.get("tool_calls");
  // A raw turn with both keys is a tool-call turn (arena-format.md §4).
  if (kind === "tool_calls" || (kind === undefined && calls !== undefined)) {
    return { kind: "tool_calls", tool_calls: Array.isArray(calls) ? calls.map(compileCall) : [] };
  }
  const content = t.get("content");
  return { kind: "content", content: typeof content === "string" ? content : content == null ? "" : pyStr(content) };
}

function compileCall(c: PyValue): ScriptedToolCall {
  if (!(c instanceof Map)) return { name: pyStr(c), arguments: new Map() };
  const name = c.get("name");
  const args = c.get("arguments");
  const id = c.get("id");
  const call: ScriptedToolCall = {
    name: typeof name === "string" ? name : name == null ? "" : pyStr(name),
    arguments: args === undefined ? new Map() : args,
  };
  if (typeof id === "string" && id !== "") call.id = id;
  return call;
}
