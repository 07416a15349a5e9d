/** mock_script.json rules of the validator (arena-format.md §4, §7). */
import { DATA_MAX_DEPTH, parsePyJsonWithLines, PyJsonError, pyRepr, pyStr, pyTypeName, type JsonLines, type PyDict, type PyValue } from "@agentic-arena/py-semantics";
import { TOOL_NAMES } from "../../contract/tools/registry.ts";
import type { FileFindings } from "./findings.ts";
import { mustBeObject, normaliseTurns, type ShapeProblem } from "./script-shape.ts";
import { readArenaText } from "./text.ts";
import { pyTruthy } from "@agentic-arena/py-semantics";

/** A scenario as the gateway will see it, for the drift check. */
export interface ScenarioFacts {
  /** `str(match)` as written (`""` when absent). */
  readonly match: string;
  /** The raw `turns` value. */
  readonly turns: PyValue | undefined;
}

const LAST_TURN_TOOL_CALL = "last turn is a tool call, so the agent never gets a final answer and will burn max_tool_iterations";

/** Returns `undefined` when the drift check must be skipped (script missing, invalid or without scenarios). */
export function validateScript(file: string, declared: readonly string[], findings: FileFindings): ScenarioFacts[] | undefined {
  const read = readArenaText(file);
  if (read.kind === "missing") {
    findings.error(1, "missing mock_script.json");
    return undefined;
  }
  if (read.kind === "invalid") {
    findings.error(read.line, read.reason);
    return undefined;
  }
  let root: PyValue;
  let lines: JsonLines;
  try {
    ({ value: root, lines } = parsePyJsonWithLines(read.text, { maxDepth: DATA_MAX_DEPTH }));
  } catch (err) {
    if (!(err instanceof PyJsonError)) throw err;
    findings.error(err.line, `invalid JSON (${err.reason})`);
    return undefined;
  }
  if (!(root instanceof Map)) {
    findings.error(1, `expected a JSON object, got ${pyTypeName(root)}`);
    return undefined;
  }
  const shape = (p: ShapeProblem) => findings.error(p.line, p.field === "" ? p.text : `${p.field}: ${p.text}`);

  const scenarios = root.get("scenarios");
  if (!Array.isArray(scenarios) || scenarios.length === 0) {
    findings.error(lines.ofKey(root, "scenarios") ?? 1, "'scenarios' must be a non-empty list");
    return undefined;
  }
  const allowed = pyRepr(declared.filter((t) => (TOOL_NAMES as readonly string[]).includes(t)).sort());
  const seen = new Set<string>();
  const facts: ScenarioFacts[] = [];
  scenarios.forEach((s, i) => {
    const where = `scenarios[${i}]`;
    if (!(s instanceof Map)) {
      findings.error(lines.of(scenarios) ?? 1, `${where}: ${mustBeObject(s)}`);
      return;
    }
    const line = lines.of(s) ?? 1;
    const match = s.get("match");
    const matchLine = lines.ofKey(s, "match") ?? line;
    if (!pyTruthy(match)) findings.error(matchLine, `${where}: missing 'match'`);
    else {
      const text = pyStr(match!);
      if (seen.has(text.toLowerCase())) findings.error(matchLine, `${where}: duplicate match ${pyRepr(text)}`);
      seen.add(text.toLowerCase());
    }
    const turns = s.get("turns");
    if (!pyTruthy(turns)) findings.error(lines.ofKey(s, "turns") ?? line, `${where}: has no turns`);
    const problems: ShapeProblem[] = [];
    normaliseTurns(turns, where, lines, line, problems);
    problems.forEach(shape);
    if (Array.isArray(turns)) {
      if (!pyTruthy(s.get("deliberate_fault"))) undeclaredCalls(turns, where, declared, allowed, lines, findings);
      const last = turns[turns.length - 1];
      if (last instanceof Map && last.has("tool_calls")) findings.error(lines.of(last) ?? line, `${where}: ${LAST_TURN_TOOL_CALL}`);
    }
    facts.push({ match: match === undefined || match === null ? "" : pyStr(match), turns });
  });
  checkDefault(root, lines, shape);
  return facts;
}

function undeclaredCalls(turns: PyValue[], where: string, declared: readonly string[], allowed: string, lines: JsonLines, findings: FileFindings): void {
  turns.forEach((turn, j) => {
    const calls = turn instanceof Map ? turn.get("tool_calls") : undefined;
    if (!Array.isArray(calls)) return;
    for (const call of calls) {
      const name = call instanceof Map ? call.get("name") : undefined;
      if (typeof name !== "string" || name === "" || declared.includes(name)) continue;
      const line = lines.ofKey(call as PyDict, "name") ?? lines.of(turn as PyDict) ?? 1;
      findings.error(line, `${where}.turns[${j}]: calls tool ${pyRepr(name)}, which the arena does not declare (${allowed})`);
    }
  });
}

/** `default` is not checked by the original; its shape is, because the loader needs it. */
function checkDefault(root: PyDict, lines: JsonLines, shape: (p: ShapeProblem) => void): void {
  if (!root.has("default")) return;
  const d = root.get("default")!;
  if (!(d instanceof Map)) {
    shape({ line: lines.ofKey(root, "default") ?? 1, field: "default", text: mustBeObject(d) });
    return;
  }
  const problems: ShapeProblem[] = [];
  normaliseTurns(d.get("turns"), "default", lines, lines.of(d) ?? 1, problems);
  problems.forEach(shape);
}
