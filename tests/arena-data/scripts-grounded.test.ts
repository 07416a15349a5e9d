/**
 * The scripted turns are what a correct agent would do, so the scripted tool calls — run through
 * the canonical tools over our own corpus — must really produce every graded value: a number a
 * check expects comes out of a calculator result, a search hit or the rooms table. For a search,
 * only the FIRST snippet counts, which pins that the intended corpus entry ranks first.
 */
import { describe, expect, it } from "vitest";
import type { Arena, Check, Item, Scenario } from "../../orchestrator/arena/schemas.ts";
import { dispatch } from "../../contract/tools/dispatch.ts";
import { loadCorpus } from "../../contract/tools/search.ts";
import { CORPUS_PATH, checkType, checkValue, loadProjectArenas, matchingScenarios, SUSPEND_TOOLS } from "./support.ts";

const corpus = loadCorpus(CORPUS_PATH);
const arenas = loadProjectArenas();

function isFault(out: string): boolean {
  return out.startsWith("ERROR") || out === "No results." || out.startsWith("No rooms seat");
}

interface Ran {
  readonly outputs: string[];
  /** Calculator and rooms outputs whole; search outputs cut to their first snippet. */
  readonly grounding: string[];
}

function run(scenario: Scenario): Ran {
  const outputs: string[] = [];
  const grounding: string[] = [];
  for (const turn of scenario.turns) {
    if (turn.kind !== "tool_calls") continue;
    for (const call of turn.tool_calls) {
      if (SUSPEND_TOOLS.has(call.name)) continue;
      const out = dispatch(call.name, call.arguments, { corpus });
      outputs.push(out);
      if (isFault(out)) continue;
      grounding.push(call.name === "search" ? out.split("\n\n")[0]! : out);
    }
  }
  return { outputs, grounding };
}

function numbersIn(text: string): number[] {
  return (text.match(/-?\d[\d,]*\.?\d*/g) ?? []).map((t) => Number.parseFloat(t.replaceAll(",", "")));
}

function num(v: unknown): number {
  return typeof v === "bigint" ? Number(v) : Number(v);
}

/** Graded values that must be traceable to a tool result; `null` = nothing to trace. */
function traceable(item: Item, check: Check): { kind: "number"; value: number; tol: number } | { kind: "text"; value: string } | { kind: "regex"; value: RegExp } | null {
  const type = checkType(check);
  const hasTrap = item.checks.some((c) => ["not_contains", "tool_not_used"].includes(checkType(c)));
  switch (type) {
    case "numeric_equals":
      return { kind: "number", value: num(checkValue(check)), tol: check.has("tol") ? num(check.get("tol")) : 0 };
    case "icontains":
      return { kind: "text", value: String(checkValue(check)) };
    case "json_path_equals": {
      const v = checkValue(check);
      if (typeof v === "string") return { kind: "text", value: v };
      return { kind: "number", value: num(v), tol: check.has("tol") ? num(check.get("tol")) : 0 };
    }
    case "iregex":
      // Refusal patterns (rag traps, denied bookings) describe the agent's own words, not a fact.
      return hasTrap ? null : { kind: "regex", value: new RegExp(String(checkValue(check)), "i") };
    default:
      return null;
  }
}

function grounded(ran: Ran, t: NonNullable<ReturnType<typeof traceable>>): boolean {
  return ran.grounding.some((text) => {
    if (t.kind === "number") return numbersIn(text).some((n) => Math.abs(n - t.value) <= t.tol);
    if (t.kind === "text") return text.toLowerCase().includes(t.value.toLowerCase());
    return t.value.test(text);
  });
}

function scenarioFor(arena: Arena, item: Item): Scenario {
  const [scenario] = matchingScenarios(arena, item);
  if (!scenario) throw new Error(`${arena.id}/${item.id}: no scenario`);
  return scenario;
}

describe("scripted tool calls produce the graded values", () => {
  for (const arena of arenas) {
    it(`${arena.id}: every graded fact comes from a tool result (search: its top hit)`, () => {
      const missing: string[] = [];
      for (const item of arena.items) {
        const ran = run(scenarioFor(arena, item));
        for (const check of item.checks) {
          const t = traceable(item, check);
          if (t && !grounded(ran, t)) missing.push(`${item.id}: ${checkType(check)} ${String(t.value)} not in ${JSON.stringify(ran.grounding)}`);
        }
      }
      expect(missing).toEqual([]);
    });

    it(`${arena.id}: only deliberate-fault scenarios see a fault marker, and they recover`, () => {
      for (const item of arena.items) {
        const scenario = scenarioFor(arena, item);
        const { outputs } = run(scenario);
        if (!scenario.deliberate_fault) {
          expect(outputs.filter(isFault), item.id).toEqual([]);
          continue;
        }
        // The scripted fault really is a fault (an extra argument is the one the tools tolerate)...
        if (!/extra argument/i.test(scenario.deliberate_fault)) expect(isFault(outputs[0]!), `${item.id}: ${outputs[0]}`).toBe(true);
        // ...and the call the answer rests on is not.
        expect(isFault(outputs.at(-1)!), `${item.id}: ${outputs.at(-1)}`).toBe(false);
      }
    });
  }
});
