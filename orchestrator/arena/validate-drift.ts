/**
 * The drift check (arena-format.md §7): every item must be served by a scenario of its own in
 * mock mode. Beyond the spec, checks the matched scenario can never satisfy are errors too — a
 * dataset edited without its script (or the reverse) fails `arena validate`, not a bench run.
 * Scripted calls are counted the way the harness records them: tool-call turns up to the first
 * content turn (which ends the run), suspend tools not recorded as tool calls (harness.md §3).
 */
import { pyEquals, pyInt, PyError, pyRepr, pyStr, type PyDict, type PyValue } from "@agentic-arena/py-semantics";
import { isSuspendTool } from "../../contract/tools/registry.ts";
import { isCheckType } from "../scoring/catalogue.ts";
import type { FileFindings } from "./findings.ts";
import { isWholeCount } from "./validate-checks.ts";
import type { ItemFacts } from "./validate-dataset.ts";
import type { ScenarioFacts } from "./validate-script.ts";

const NO_MATCH = "no mock scenario matches its input — this item would silently fall through to the default scenario in mock mode";

export function validateDrift(items: readonly ItemFacts[], scenarios: readonly ScenarioFacts[], findings: FileFindings): void {
  for (const item of items) {
    const input = item.input.toLowerCase();
    const hits = scenarios.filter((s) => s.match !== "" && input.includes(s.match.toLowerCase()));
    if (hits.length === 0) {
      findings.error(item.line, `${item.label}: ${NO_MATCH}`);
      continue;
    }
    if (hits.length > 1) {
      findings.warn(item.line, `${item.label}: matches ${hits.length} scenarios ${pyRepr(hits.map((h) => h.match))}; the first one wins`);
    }
    for (const text of unsatisfiable(item, hits[0]!)) findings.error(item.line, text);
  }
}

interface Scripted {
  /** Recorded tool-call names, in order. */
  readonly calls: readonly string[];
  readonly suspends: number;
}

/** What a faithful agent replaying `turns` ends up with. */
export function scriptedCalls(turns: PyValue | undefined): Scripted {
  const calls: string[] = [];
  let suspends = 0;
  for (const turn of Array.isArray(turns) ? turns : []) {
    if (!(turn instanceof Map)) continue;
    if (!turn.has("tool_calls")) break;
    const list = turn.get("tool_calls");
    for (const call of Array.isArray(list) ? list : []) {
      const name = call instanceof Map ? call.get("name") : undefined;
      if (typeof name !== "string") continue;
      if (isSuspendTool(name)) suspends++;
      else calls.push(name);
    }
  }
  return { calls, suspends };
}

function intOr(v: PyValue | undefined, fallback: bigint): bigint | undefined {
  if (v === undefined) return fallback;
  try {
    return pyInt(v);
  } catch (err) {
    if (err instanceof PyError) return undefined; // reported by the check rules already
    throw err;
  }
}

function unsatisfiable(item: ItemFacts, scenario: ScenarioFacts): string[] {
  const scripted = scriptedCalls(scenario.turns);
  const by = `the matched mock scenario ${pyRepr(scenario.match)}`;
  const out: string[] = [];
  item.checks.forEach((check, k) => {
    if (!(check instanceof Map) || !isCheckType(check.get("type"))) return;
    const where = `${item.label}.checks[${k}]`;
    const type = check.get("type");
    if (type === "tool_used" && check.has("name")) {
      const name = pyStr(check.get("name")!);
      if (!isSuspendTool(name) && !scripted.calls.includes(name)) out.push(`${where}: 'tool_used' expects tool ${pyRepr(name)}, but ${by} never calls it`);
    } else if (type === "min_tool_calls" && check.has("value")) {
      const n = intOr(check.get("value"), 0n);
      if (n !== undefined && n > BigInt(scripted.calls.length)) {
        out.push(`${where}: 'min_tool_calls' expects >= ${n} tool calls, but ${by} scripts only ${scripted.calls.length}`);
      }
    } else if (type === "suspended") {
      const n = intOr(check.get("value"), 1n);
      if (n !== undefined && n > BigInt(scripted.suspends)) {
        const got = scripted.suspends === 0 ? "calls no suspend tool" : `calls a suspend tool only ${scripted.suspends} time(s)`;
        out.push(`${where}: 'suspended' expects the agent to pause >= ${n} time(s), but ${by} ${got}`);
      }
    } else if (type === "call_counts") {
      const text = countsMismatch(check.get("counts"), scripted.calls);
      if (text) out.push(`${where}: 'call_counts' expects ${text.expected}, but ${by} scripts ${text.got}`);
    }
  });
  return out;
}

function countsMismatch(counts: PyValue | undefined, calls: readonly string[]): { expected: string; got: string } | undefined {
  if (!(counts instanceof Map) || ![...counts.values()].every(isWholeCount)) return undefined;
  const got: PyDict = new Map();
  for (const name of counts.keys()) got.set(name, BigInt(calls.filter((c) => c === name).length));
  const same = [...counts].every(([name, n]) => pyEquals(got.get(name)!, n));
  return same ? undefined : { expected: pyRepr(counts), got: pyRepr(got) };
}
