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
import { drawCanary, drawCaps, pick, PROBE_SEED } from "./canary.ts";
import { drawArenaId, drawCalculation, drawItemId, drawReply, drawRequest, drawRoundTrip, drawSentinel, searchTruth, type RoundTrip, type Sentinel } from "./draws.ts";
import type { InlineArena, SetupRunOptions } from "./wire.ts";

/** §1/§2's sentinel in this process's draw (judges draw again from each run's own seed: sentinelOf). */
export const SENTINEL: Sentinel = drawSentinel(PROBE_SEED, "sentinel");
/** The sentinel's prompt and its collapsed sentence (the adapters' own suites reuse them). */
export const SENTINEL_PROMPT = SENTINEL.prompt;
export const SENTINEL_SENTENCE = SENTINEL.sentence;
/** §8: this run's canary model and temperature (drawn per run: canary.ts). */
export const CANARY = drawCanary();
/** §3: this run's two different non-default budgets, so a hard-coded one cannot pass both. */
export const CAPS = drawCaps();
/** §7's arenas (the first three are required by the spec; the rest are cheap). */
export const SCHEMA_ARENAS = ["tool_use", "human_in_the_loop", "durable_state", "rag", "resilience", "multi_agent"] as const;

/** The sentinel a run drawn with `seed` was given (§1 judges against it). */
export const sentinelOf = (seed: string): Sentinel => drawSentinel(seed, "sentinel");
/** The round trip a run drawn with `seed` was given (§4–§6 judge against it). */
export const roundTripOf = (seed: string): RoundTrip => drawRoundTrip(seed, "round-trip");
/** `dispatch("search", args)` on the round trip's arguments: what §4–§6 expect on the wire. */
export const roundTripTruth = (seed: string): string => searchTruth(roundTripOf(seed).args);

/** §1/§2: an arena with `search` whose prompt asks for one word, and a model that says it. */
export function sentinelArena(seed: string): InlineArena {
  const s = sentinelOf(seed);
  return {
    id: drawArenaId(seed, "sentinel"),
    tools: ["search"],
    prompt: s.prompt,
    items: [{ id: drawItemId(seed, "sentinel"), input: drawRequest(seed, "sentinel") }],
    script: { default: { turns: [{ content: s.word }] } },
  };
}

/** §4–§6 (and §9): one search on the model's arguments, then an answer. */
export function roundTripArena(seed: string): InlineArena {
  const r = roundTripOf(seed);
  return {
    id: drawArenaId(seed, "round-trip"),
    tools: ["search"],
    prompt: drawSentinel(seed, "round-trip").prompt,
    items: [{ id: drawItemId(seed, "round-trip"), input: r.input }],
    script: { default: { turns: [{ tool_calls: [{ name: "search", arguments: r.args }] }, { content: r.answer }] } },
  };
}

/** §3: a model that never stops asking for the calculator. */
export function capArena(seed: string): InlineArena {
  const c = drawCalculation(seed, "cap");
  return {
    id: drawArenaId(seed, "cap"),
    tools: ["calculator"],
    prompt: drawSentinel(seed, "cap").prompt,
    items: [{ id: drawItemId(seed, "cap"), input: c.input }],
    script: { default: { turns: [{ tool_calls: [{ name: "calculator", arguments: { expr: c.expr } }] }] } },
  };
}

/**
 * §7/§8: a real arena's id, tools, prompt and durability, one of its own items (drawn), and one
 * scripted answer: what a bench of that arena is handed, up to which item comes first.
 */
export function schemaArena(id: string, seed: string = PROBE_SEED): InlineArena {
  const arena = loadArena(path.join(DEFAULT_ARENAS_DIR, id));
  const item = pick(seed, `schema:${id}/item`, arena.items);
  return {
    id,
    tools: arena.declaredTools,
    prompt: arena.systemPromptIntent,
    durable: arena.durable,
    items: [{ id: item.id, input: item.input, resume_with: item.resume_with || "approve" }],
    script: { default: { turns: [{ content: drawReply(seed, `schema:${id}`) }] } },
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
export function setupOptions(setup: SetupName, seed: string = PROBE_SEED): SetupRunOptions {
  if (setup === "sentinel") return { arena: sentinelArena(seed), legDeadlineMs: LEG_DEADLINE_MS, seed };
  if (setup === "round-trip") return { arena: roundTripArena(seed), legDeadlineMs: LEG_DEADLINE_MS, seed };
  if (setup.startsWith("cap-")) {
    // The run may error or throw, but it must end.
    return { arena: capArena(seed), config: { maxToolIterations: Number(setup.slice(4)) }, legDeadlineMs: LEG_DEADLINE_MS, seed };
  }
  if (setup.startsWith("schema:")) {
    // §8 shares these runs: the canary model and a non-zero temperature, max_tool_iterations 3.
    const canary = drawCanary(seed);
    const config: Partial<ArenaConfig> = { model: canary.model, temperature: canary.temperature, maxToolIterations: 3 };
    return { arena: schemaArena(setup.slice(7), seed), config, legDeadlineMs: LEG_DEADLINE_MS, seed };
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
