/**
 * Helpers for the project-arena data tests: load every arena under `arenas/`, pick the mock
 * scenario an item would be served (gateway.md §3), and replay its scripted turns the way a
 * correct native adapter would (tools.md §7: suspend tools are intercepted, not logged).
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { loadArena } from "../../orchestrator/arena/load.ts";
import type { Arena, Check, Item, Scenario } from "../../orchestrator/arena/schemas.ts";
import type { ScoreInput } from "../../orchestrator/scoring/types.ts";
import { REPO_ROOT } from "../support/reference.ts";

export const ARENAS_ROOT = path.join(REPO_ROOT, "arenas");
export const CORPUS_PATH = path.join(ARENAS_ROOT, "corpus.json");

/** The seven arenas this project ships, with the minimum item counts the project promises. */
export const EXPECTED_ARENAS: Readonly<Record<string, number>> = {
  tool_use: 15,
  structured_output: 15,
  rag: 15,
  resilience: 8,
  multi_agent: 10,
  human_in_the_loop: 12,
  durable_state: 8,
};

export const SUSPEND_TOOLS: ReadonlySet<string> = new Set(["request_approval", "save_progress"]);

export function arenaDirs(): string[] {
  return readdirSync(ARENAS_ROOT)
    .filter((name) => statSync(path.join(ARENAS_ROOT, name)).isDirectory())
    .sort();
}

export function loadProjectArenas(): Arena[] {
  return arenaDirs().map((name) => loadArena(path.join(ARENAS_ROOT, name)));
}

/** Every scenario whose non-empty lower-cased match occurs in the lower-cased input, file order. */
export function matchingScenarios(arena: Arena, item: Item): Scenario[] {
  const haystack = item.input.toLowerCase();
  return arena.script.scenarios.filter((s) => s.match !== "" && haystack.includes(s.match.toLowerCase()));
}

export interface Replay {
  /** What the scorer would be fed for a correct adapter that walked this script. */
  readonly input: ScoreInput;
  /** The final content turn. */
  readonly answer: string;
}

/**
 * Walks the scripted turns in order. Tool calls are logged by name, except suspend tools, which
 * end the leg (the harness resumes it); calls after a suspend call in the same turn are not run
 * in that leg. The walk ends at the first content turn.
 */
export function replay(scenario: Scenario): Replay {
  const toolNames: string[] = [];
  let beforeSuspend: string[] | null = null;
  let suspends = 0;
  for (const turn of scenario.turns) {
    if (turn.kind === "content") {
      return {
        answer: turn.content,
        input: { outputText: turn.content, toolNames, beforeSuspend: beforeSuspend ?? [...toolNames], suspends, error: null },
      };
    }
    for (const call of turn.tool_calls) {
      if (SUSPEND_TOOLS.has(call.name)) {
        suspends += 1;
        beforeSuspend ??= [...toolNames];
        break;
      }
      toolNames.push(call.name);
    }
  }
  throw new Error(`scenario '${scenario.match}' never reaches a content turn`);
}

export function checkType(check: Check): string {
  return String(check.get("type"));
}

export function checkValue(check: Check): unknown {
  return check.get("value");
}
