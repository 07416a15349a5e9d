/**
 * mock_script.json → the normalised {@link MockScript}. The loader throws on the first shape
 * problem; the validator reports them all, alongside its own checks (matches, declared tools, …).
 * The rules are arena-format.md §4: missing `arguments` = `{}`, a string is kept verbatim, a turn
 * with both keys is a tool-call turn, a turn with neither is content `""`.
 */
import { pyStr, pyTypeName, type JsonLines, type PyDict, type PyValue } from "@agentic-arena/py-semantics";
// Types only: the shapes are checked here field by field, and `arena validate` (which uses this
// module but not the loader) then need not load zod.
import type { MockScript, ScriptedToolCall, Turn } from "./schemas.ts";
import { pyTruthy } from "@agentic-arena/py-semantics";

export interface ShapeProblem {
  readonly line: number;
  /** Locator such as `scenarios[2].turns[0]`; `""` for the document itself. */
  readonly field: string;
  readonly text: string;
}

/** gateway.md §3: served when the script has no `default`. */
export const BUILTIN_DEFAULT_TURNS: readonly Turn[] = [{ kind: "content", content: "I don't know." }];

export function mustBeObject(v: PyValue): string {
  return `must be an object, got ${pyTypeName(v)}`;
}

/** Normalises one `turns` list; appends shape problems and returns the turns it could read. */
export function normaliseTurns(raw: PyValue | undefined, where: string, lines: JsonLines, parentLine: number, problems: ShapeProblem[]): Turn[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) {
    problems.push({ line: parentLine, field: where, text: `'turns' must be a list, got ${pyTypeName(raw)}` });
    return [];
  }
  const listLine = lines.of(raw) ?? parentLine;
  const turns: Turn[] = [];
  raw.forEach((t, j) => {
    const field = `${where}.turns[${j}]`;
    if (!(t instanceof Map)) {
      problems.push({ line: listLine, field, text: mustBeObject(t) });
      return;
    }
    const turn = normaliseTurn(t, field, lines, lines.of(t) ?? listLine, problems);
    if (turn) turns.push(turn);
  });
  return turns;
}

function normaliseTurn(t: PyDict, field: string, lines: JsonLines, line: number, problems: ShapeProblem[]): Turn | undefined {
  const before = problems.length;
  if (t.has("tool_calls")) {
    const calls = t.get("tool_calls")!;
    if (!Array.isArray(calls)) {
      problems.push({ line: lines.ofKey(t, "tool_calls") ?? line, field, text: `'tool_calls' must be a list, got ${pyTypeName(calls)}` });
      return undefined;
    }
    const out: ScriptedToolCall[] = [];
    calls.forEach((c, k) => {
      const call = normaliseCall(c, `${field}.tool_calls[${k}]`, lines, lines.of(calls) ?? line, problems);
      if (call) out.push(call);
    });
    return problems.length === before ? { kind: "tool_calls", tool_calls: out } : undefined;
  }
  const content = t.has("content") ? t.get("content")! : "";
  if (typeof content !== "string") {
    problems.push({ line: lines.ofKey(t, "content") ?? line, field, text: `'content' must be a string, got ${pyTypeName(content)}` });
    return undefined;
  }
  return { kind: "content", content };
}

function normaliseCall(c: PyValue, field: string, lines: JsonLines, listLine: number, problems: ShapeProblem[]): ScriptedToolCall | undefined {
  if (!(c instanceof Map)) {
    problems.push({ line: listLine, field, text: mustBeObject(c) });
    return undefined;
  }
  const line = lines.of(c) ?? listLine;
  const name = c.get("name");
  if (typeof name !== "string" || name === "") {
    const text = name === undefined || name === "" ? "tool call has no 'name'" : `'name' must be a string, got ${pyTypeName(name)}`;
    problems.push({ line: lines.ofKey(c, "name") ?? line, field, text });
    return undefined;
  }
  const id = c.get("id");
  if (id !== undefined && typeof id !== "string") {
    problems.push({ line: lines.ofKey(c, "id") ?? line, field, text: `'id' must be a string, got ${pyTypeName(id)}` });
    return undefined;
  }
  const call: ScriptedToolCall = { name, arguments: c.has("arguments") ? c.get("arguments")! : new Map() };
  if (id !== undefined) call.id = id;
  return call;
}

/** The whole script, for the loader: returns the first problem instead of a script when there is one. */
export function normaliseScript(root: PyValue, lines: JsonLines): { script: MockScript } | { problem: ShapeProblem } {
  const problems: ShapeProblem[] = [];
  const fail = (p: ShapeProblem) => ({ problem: p });
  if (!(root instanceof Map)) return fail({ line: 1, field: "", text: `expected a JSON object, got ${pyTypeName(root)}` });
  const rawScenarios = root.get("scenarios") ?? [];
  if (!Array.isArray(rawScenarios)) {
    return fail({ line: lines.ofKey(root, "scenarios") ?? 1, field: "", text: "'scenarios' must be a non-empty list" });
  }
  const scenarios = [];
  for (const [i, s] of rawScenarios.entries()) {
    const where = `scenarios[${i}]`;
    if (!(s instanceof Map)) return fail({ line: lines.of(rawScenarios) ?? 1, field: where, text: mustBeObject(s) });
    const match = s.get("match");
    const fault = s.get("deliberate_fault");
    scenarios.push({
      match: match === undefined || match === null ? "" : pyStr(match),
      deliberate_fault: pyTruthy(fault) ? pyStr(fault!) : "",
      turns: normaliseTurns(s.get("turns"), where, lines, lines.of(s) ?? 1, problems),
    });
    if (problems.length > 0) return fail(problems[0]!);
  }
  let defaultTurns: readonly Turn[] = BUILTIN_DEFAULT_TURNS;
  if (root.has("default")) {
    const d = root.get("default")!;
    if (!(d instanceof Map)) return fail({ line: lines.ofKey(root, "default") ?? 1, field: "default", text: mustBeObject(d) });
    defaultTurns = normaliseTurns(d.get("turns"), "default", lines, lines.of(d) ?? 1, problems);
    if (problems.length > 0) return fail(problems[0]!);
  }
  return { script: { scenarios, default: { turns: [...defaultTurns] } } };
}
