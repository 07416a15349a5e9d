/**
 * The setups of probes.md §1–§9 as data: the inline arenas, scripts and config overrides, each
 * under a name. A setup run is shared by every probe that judges it (§4–§6 the same round-trip
 * run, §7 and §8 the same schema runs, §9 every one of them), so the matrix costs one run per
 * setup and adapter however many probes look at it.
 */
import path from "node:path";
import { DEFAULT_ARENAS_DIR } from "../arena/discover.ts";
import { loadArena } from "../arena/load.ts";
import type { ArenaConfig } from "../config/arena-config.ts";
import { DEFAULT_CORPUS_PATH } from "../../contract/tools/corpus-path.ts";
import { dispatch } from "../../contract/tools/dispatch.ts";
import { loadCorpus } from "../../contract/tools/search.ts";
import { drawCanary, drawCaps } from "./canary.ts";
import type { InlineArena, SetupRunOptions } from "./wire.ts";

/** The sentinel prompt of probes.md (collapses to one sentence). */
export const SENTINEL_PROMPT = "\nReply only with the word ORNITHOPTER and nothing else.\n";
export const SENTINEL_SENTENCE = "Reply only with the word ORNITHOPTER and nothing else.";
export const SENTINEL_INPUT = "Say the word.";
export const ROUND_TRIP_INPUT = "How tall is the Eiffel Tower?";
/** The round trip's scripted call; `truth` is `dispatch` on exactly these arguments. */
export const ROUND_TRIP_ARGS = { query: "Eiffel Tower" } as const;
/** §8: this run's canary model and temperature (drawn per run: canary.ts). */
export const CANARY = drawCanary();
/** §3: this run's two different non-default budgets, so a hard-coded one cannot pass both. */
export const CAPS = drawCaps();
/** §7's arenas (the first three are required by the spec; the rest are cheap). */
export const SCHEMA_ARENAS = ["tool_use", "human_in_the_loop", "durable_state", "rag", "resilience", "multi_agent"] as const;
const SCHEMA_INPUTS: Readonly<Record<string, string>> = { human_in_the_loop: "Book a room for 6 people on tuesday." };

/** §1/§2: the sentinel arena with `search`, a one-word answer. */
export const SENTINEL_ARENA: InlineArena = {
  tools: ["search"],
  prompt: SENTINEL_PROMPT,
  items: [{ id: "s-01", input: SENTINEL_INPUT }],
  script: { default: { turns: [{ content: "ORNITHOPTER" }] } },
};

/** §4–§6 (and §9): one search on the model's arguments, then an answer. */
export const ROUND_TRIP_ARENA: InlineArena = {
  tools: ["search"],
  prompt: SENTINEL_PROMPT,
  items: [{ id: "t-01", input: ROUND_TRIP_INPUT }],
  script: {
    default: { turns: [{ tool_calls: [{ name: "search", arguments: ROUND_TRIP_ARGS }] }, { content: "330 metres." }] },
  },
};

/** §3: a model that never stops asking for the calculator. */
export const CAP_ARENA: InlineArena = {
  tools: ["calculator"],
  prompt: SENTINEL_PROMPT,
  items: [{ id: "c-01", input: "loop forever" }],
  script: { default: { turns: [{ tool_calls: [{ name: "calculator", arguments: { expr: "1+1" } }] }] } },
};

/** §7/§8: a real arena's tools, prompt and durability with one scripted answer. */
export function schemaArena(id: string): InlineArena {
  const arena = loadArena(path.join(DEFAULT_ARENAS_DIR, id));
  return {
    id,
    tools: arena.declaredTools,
    prompt: arena.systemPromptIntent,
    durable: arena.durable,
    items: [{ id: `${id}-schema`, input: SCHEMA_INPUTS[id] ?? ROUND_TRIP_INPUT, resume_with: "approve" }],
    script: { default: { turns: [{ content: "330 metres." }] } },
  };
}

/** §1–§9 setups here; §10–§15 in data-setups.ts (real arenas) and transport-setups.ts. */
export type SetupName =
  | "sentinel"
  | "round-trip"
  | `cap-${number}`
  | `schema:${string}`
  | `usage:${string}`
  | `transport:${string}`
  | `pause:${string}`
  | `durable:${string}`
  | `rag:${string}`
  | `witness:${string}`;

/** Every run ends: a stuck adapter is cut off by the leg deadline, not by whoever waits on it. */
const LEG_DEADLINE_MS = 60_000;

/** The probe-run options of a named setup (one place, so every probe shares the same run). */
export function setupOptions(setup: SetupName): SetupRunOptions {
  if (setup === "sentinel") return { arena: SENTINEL_ARENA, legDeadlineMs: LEG_DEADLINE_MS };
  if (setup === "round-trip") return { arena: ROUND_TRIP_ARENA, legDeadlineMs: LEG_DEADLINE_MS };
  if (setup.startsWith("cap-")) {
    // The run may error or throw, but it must end.
    return { arena: CAP_ARENA, config: { maxToolIterations: Number(setup.slice(4)) }, legDeadlineMs: LEG_DEADLINE_MS };
  }
  if (setup.startsWith("schema:")) {
    // §8 shares these runs: the canary model and a non-zero temperature, max_tool_iterations 3.
    const config: Partial<ArenaConfig> = { model: CANARY.model, temperature: CANARY.temperature, maxToolIterations: 3 };
    return { arena: schemaArena(setup.slice(7)), config, legDeadlineMs: LEG_DEADLINE_MS };
  }
  throw new Error(`unknown setup ${setup}`);
}

/** What a probe runs: an adapter module, and how the rules apply to it. */
export interface Subject {
  readonly name: string;
  readonly module: string;
  /** A variant's own arenas (it is probed on no other schema arena); absent: every one. */
  readonly scope?: readonly string[];
  /** Held to the baseline pin (§7): the baseline, and fixtures that pose as it. */
  readonly baseline?: boolean;
  /** An unbuildable subject fails instead of being reported n/a (the baseline, ARENA_EXPECT_FRAMEWORKS, an author's own module). */
  readonly required?: boolean;
  /** Known findings apply (catalogue adapters only; an author's module or a fixture has none). */
  readonly catalogued?: boolean;
}

/** The schema arenas a subject is probed on: a variant only on its own arenas. */
export function schemaArenasFor(subject: Subject): string[] {
  return SCHEMA_ARENAS.filter((id) => !subject.scope || subject.scope.includes(id));
}

/** Every setup a subject gets in §1–§8 (what §9 checks, request by request). */
export function setupsFor(subject: Subject): SetupName[] {
  return [
    "sentinel",
    "round-trip",
    ...CAPS.map((n) => `cap-${n}` as const),
    ...schemaArenasFor(subject).map((id) => `schema:${id}` as const),
  ];
}

let truthCache: string | undefined;

/** `dispatch("search", {"query": "Eiffel Tower"})` over the corpus the probe runs use (it has the entry). */
export function roundTripTruth(): string {
  truthCache ??= dispatch("search", { ...ROUND_TRIP_ARGS }, { corpus: loadCorpus(DEFAULT_CORPUS_PATH) });
  return truthCache;
}
