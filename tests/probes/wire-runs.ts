/**
 * The runs probes §1–§9 judge, reduced to what the wire showed, and the setups of probes.md
 * written once. A setup run is shared between test files (§4–§6 judge the same round-trip run,
 * §7 and §8 the same schema runs, §9 every one of them): the first file to ask runs it through
 * the real orchestrator and the others read the result, so the matrix costs one run per setup
 * and adapter however many probes look at it.
 *
 * Every run goes through a pass-through tap (tap-adapter.ts) so the probes can also read what
 * the adapter itself reported per leg — the run record keeps only tool-call names.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { isMainThread } from "node:worker_threads";
import { loadArena } from "../../orchestrator/arena/load.ts";
import type { ArenaConfig } from "../../orchestrator/config/arena-config.ts";
import type { FrameworkRecord } from "../../orchestrator/report/record.ts";
import type { AdapterEntry } from "../../orchestrator/run/session.ts";
import { findAdapter } from "../../workers/adapters/catalog.ts";
import type { Adapter } from "../../workers/adapters/types.ts";
import { namesFor } from "../../workers/tools/registry.ts";
import { REFERENCE_ARENAS, REPO_ROOT } from "../support/reference.ts";
import { OUR_ARENAS, OUR_CORPUS } from "../support/run.ts";
import { FIXTURES } from "../../fixtures/catalog.ts";
import { dispatch } from "../../workers/tools/dispatch.ts";
import { loadCorpus } from "../../workers/tools/search.ts";
import { mustBuild } from "./checks/built.ts";
import { probeRun, SENTINEL_PROMPT, type InlineArena, type ProbeRunOptions } from "./support.ts";
import type { TapEntry } from "./tap-adapter.ts";

export type Body = Record<string, any>;

/** What a probe may judge: the gateway's view of the run, plus the adapter's own per-leg reports. */
export interface WireRun {
  readonly adapter: string;
  readonly framework: FrameworkRecord;
  /** Served request bodies, plain JSON, in arrival order. */
  readonly bodies: readonly Body[];
  /** Completion attempts, faulted ones included. */
  readonly attempts: number;
  readonly servedUsage: { readonly prompt_tokens: number; readonly completion_tokens: number; readonly llm_calls: number };
  /** What each leg returned (or threw), from the tap; in leg order. */
  readonly reported: readonly TapEntry[];
}

const TAP_MODULE = fileURLToPath(new URL("./tap-adapter.ts", import.meta.url));

/**
 * Orchestrator runs in flight at once in this test file (vitest runs two files at a time). Each
 * run spawns worker processes; more than a couple at once on a small machine only makes every
 * worker miss its start-up deadline.
 */
const MAX_RUNS_IN_FLIGHT = Math.max(1, Number(process.env.ARENA_PROBE_CONCURRENCY) || 2);
let inFlight = 0;
const waiting: (() => void)[] = [];

async function limited<T>(task: () => Promise<T>): Promise<T> {
  if (inFlight >= MAX_RUNS_IN_FLIGHT) await new Promise<void>((resolve) => waiting.push(resolve));
  else inFlight += 1;
  try {
    return await task();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else inFlight -= 1;
  }
}

/** Run one adapter (real or fixture) through the real orchestrator and gateway, tapped. */
export function wireRun(options: ProbeRunOptions): Promise<WireRun> {
  return limited(() => tappedRun(options));
}

async function tappedRun(options: ProbeRunOptions): Promise<WireRun> {
  const tapDir = mkdtempSync(path.join(os.tmpdir(), "arena-tap-"));
  const tapLog = path.join(tapDir, "legs.jsonl");
  try {
    const run = await probeRun({
      ...options,
      adapter: { ...options.adapter, module: TAP_MODULE },
      workerEnv: { ...options.workerEnv, ARENA_PROBE_TAP_INNER: options.adapter.module, ARENA_PROBE_TAP_LOG: tapLog },
    });
    const reported = existsSync(tapLog)
      ? readFileSync(tapLog, "utf8")
          .split("\n")
          .filter(Boolean)
          .map((line) => JSON.parse(line) as TapEntry)
      : [];
    rmSync(run.root, { recursive: true, force: true });
    const s = run.gateway.servedUsage;
    return {
      adapter: options.adapter.name,
      framework: run.framework,
      bodies: run.bodies,
      attempts: run.gateway.attempts.length,
      servedUsage: { prompt_tokens: s.prompt_tokens, completion_tokens: s.completion_tokens, llm_calls: s.llm_calls },
      reported,
    };
  } finally {
    rmSync(tapDir, { recursive: true, force: true });
  }
}

/**
 * Test timeouts. A matrix test may queue behind every other run of its file (runs are limited to
 * a few in flight), so its timeout is a safety net, not a budget; every run also has a leg deadline.
 */
export const MATRIX_TIMEOUT_MS = 600_000;
export const FIXTURE_TIMEOUT_MS = 300_000;

// ---------------------------------------------------------------- setups (probes.md)

export const SENTINEL_INPUT = "Say the word.";
export const ROUND_TRIP_INPUT = "How tall is the Eiffel Tower?";
/** The round trip's scripted call; `truth` is `dispatch` on exactly these arguments. */
export const ROUND_TRIP_ARGS = { query: "Eiffel Tower" } as const;
export const CANARY = { model: "arena-canary-model-7", temperature: 0.7 } as const;
export const CAPS = [4, 7] as const;
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
  const arena = loadArena(path.join(OUR_ARENAS, id));
  return {
    id,
    tools: arena.declaredTools,
    prompt: arena.systemPromptIntent,
    durable: arena.durable,
    items: [{ id: `${id}-schema`, input: SCHEMA_INPUTS[id] ?? ROUND_TRIP_INPUT, resume_with: "approve" }],
    script: { default: { turns: [{ content: "330 metres." }] } },
  };
}

export type SetupName = "sentinel" | "round-trip" | `cap-${number}` | `schema:${string}`;

/** The probe-run options of a named setup (one place, so every file shares the same run). */
export function setupOptions(setup: SetupName): Omit<ProbeRunOptions, "adapter"> {
  if (setup === "sentinel") return { arena: SENTINEL_ARENA, legDeadlineMs: 60_000 };
  if (setup === "round-trip") return { arena: ROUND_TRIP_ARENA, legDeadlineMs: 60_000 };
  if (setup.startsWith("cap-")) {
    // The run may error or throw, but it must end: a stuck adapter is cut off well before the test timeout.
    return { arena: CAP_ARENA, config: { maxToolIterations: Number(setup.slice(4)) }, legDeadlineMs: 60_000 };
  }
  if (setup.startsWith("schema:")) {
    // §8 shares these runs: the canary model and a non-zero temperature, max_tool_iterations 3.
    const config: Partial<ArenaConfig> = { ...CANARY, maxToolIterations: 3 };
    return { arena: schemaArena(setup.slice(7)), config, legDeadlineMs: 60_000 };
  }
  throw new Error(`unknown setup ${setup}`);
}

/** The schema arenas an adapter is probed on: a variant only on its own arenas. */
export function schemaArenasFor(adapter: AdapterEntry): string[] {
  const scope = findAdapter(adapter.name)?.arenas;
  return SCHEMA_ARENAS.filter((id) => !scope || scope.includes(id));
}

/** Every setup run an adapter gets in §1–§8 (what §9 checks, request by request). */
export function setupsFor(adapter: AdapterEntry): SetupName[] {
  return [
    "sentinel",
    "round-trip",
    ...CAPS.map((n) => `cap-${n}` as const),
    ...schemaArenasFor(adapter).map((id) => `schema:${id}` as const),
  ];
}

// ---------------------------------------------------------------- sharing between test files

const memo = new Map<string, Promise<WireRun>>();

/** `<pid>-<start time>` of the vitest main process, or undefined when runs cannot be shared safely. */
function sessionId(): string | undefined {
  if (!process.env.VITEST || process.env.VITEST_MODE === "WATCH") return undefined;
  const pid = isMainThread ? process.ppid : process.pid;
  const start = processStart(pid);
  return start === undefined ? undefined : `${pid}-${start}`;
}

function processStart(pid: number): string | undefined {
  try {
    // Field 22 of /proc/<pid>/stat (after the parenthesised command name) is the start time.
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

const CACHE_ROOT = path.join(REPO_ROOT, "runs", "probe-cache");
let swept = false;

/** Remove caches of vitest runs that have ended. */
function sweep(current: string): void {
  if (swept) return;
  swept = true;
  for (const name of existsSync(CACHE_ROOT) ? readdirSync(CACHE_ROOT) : []) {
    if (name === current) continue;
    const [pid, start] = name.split("-");
    if (processStart(Number(pid)) !== start) rmSync(path.join(CACHE_ROOT, name), { recursive: true, force: true });
  }
}

async function sharedAcrossFiles(session: string, key: string, compute: () => Promise<WireRun>): Promise<WireRun> {
  sweep(session);
  const dir = path.join(CACHE_ROOT, session);
  mkdirSync(dir, { recursive: true });
  const hash = createHash("sha256").update(key).digest("hex").slice(0, 32);
  const done = path.join(dir, `${hash}.json`);
  const failed = path.join(dir, `${hash}.err`);
  try {
    mkdirSync(path.join(dir, `${hash}.lock`));
  } catch {
    // Another file is running (or ran) this setup: wait for its result.
    const deadline = Date.now() + MATRIX_TIMEOUT_MS;
    while (Date.now() < deadline) {
      if (existsSync(done)) return JSON.parse(readFileSync(done, "utf8")) as WireRun;
      if (existsSync(failed)) throw new Error(`shared run ${key} failed in another test file: ${readFileSync(failed, "utf8")}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    throw new Error(`shared run ${key}: gave up waiting for another test file`);
  }
  try {
    const run = await compute();
    writeFileSync(`${done}.tmp`, JSON.stringify(run));
    renameSync(`${done}.tmp`, done);
    return run;
  } catch (err) {
    writeFileSync(failed, err instanceof Error ? (err.stack ?? err.message) : String(err));
    throw err;
  }
}

/** The run of `setup` for `adapter`, shared by every probe (and test file) that asks for it. */
export function setupRun(setup: SetupName, adapter: AdapterEntry): Promise<WireRun> {
  const key = JSON.stringify([setup, adapter.name, adapter.module]);
  let run = memo.get(key);
  if (!run) {
    const compute = () => wireRun({ adapter, ...setupOptions(setup) });
    const session = sessionId();
    run = session ? sharedAcrossFiles(session, key, compute) : compute();
    memo.set(key, run);
  }
  return run;
}

// ---------------------------------------------------------------- adapter metadata and the matrix guard

export interface AdapterMeta {
  readonly delegates: readonly string[];
  readonly wireExceptions: readonly { readonly key: string; readonly reason: string }[];
  /** Set when the module could not be imported here (its probes then report it unavailable). */
  readonly importError?: string;
}

/** Declared metadata, read by importing the adapter module (tests may; the orchestrator may not). */
export async function adapterMeta(adapter: AdapterEntry): Promise<AdapterMeta> {
  try {
    const mod = (await import(pathToFileURL(adapter.module).href)).default as Adapter;
    return { delegates: [...(mod.delegates ?? [])], wireExceptions: [...(mod.wireExceptions ?? [])] };
  } catch (err) {
    return { delegates: [], wireExceptions: [], importError: err instanceof Error ? err.message : String(err) };
  }
}

/**
 * The matrix guard for one run. The baseline, and every adapter `ARENA_EXPECT_FRAMEWORKS` names,
 * must have been built (else this throws: the suite fails loudly instead of shrinking). Any other
 * adapter that could not be built (not installed, a stub), and any adapter that is unsupported on
 * the arena (no resume on a pause arena), is skipped with its reason. Returns true when the run can be judged.
 */
export function requireBuilt(ctx: { skip: (note?: string) => void }, run: WireRun): boolean {
  const fw = run.framework;
  if (fw.available) return true;
  const why = `${run.adapter} could not be built (${fw.unavailable_kind}): ${fw.reason}`;
  // "unsupported" (no resume on a pause arena) is a reported capability gap, never a failure.
  if (mustBuild(run.adapter) && fw.unavailable_kind !== "unsupported") throw new Error(why);
  ctx.skip(why);
  return false;
}

// ---------------------------------------------------------------- ground truth

let truthCache: string | undefined;

/** `dispatch("search", {"query": "Eiffel Tower"})` over the corpus the probe runs use (ours contains the entry). */
export function roundTripTruth(): string {
  truthCache ??= dispatch("search", { ...ROUND_TRIP_ARGS }, { corpus: loadCorpus(OUR_CORPUS) });
  return truthCache;
}

/** Adapters as probe-run entries, from the fixture catalogue. */
export function fixtureEntry(name: keyof typeof FIXTURES): AdapterEntry {
  return { name, module: FIXTURES[name].module };
}

/** The union of every arena's declared tools (ours, and the reference arenas when present). */
export function allArenaTools(): string[] {
  const roots = [OUR_ARENAS, ...(existsSync(REFERENCE_ARENAS) ? [REFERENCE_ARENAS] : [])];
  const names = new Set<string>();
  for (const root of roots) {
    for (const id of readdirSync(root)) {
      if (!existsSync(path.join(root, id, "arena.toml"))) continue;
      for (const t of namesFor(loadArena(path.join(root, id)).declaredTools)) names.add(t);
    }
  }
  return [...names];
}

/** A synthetic run from request bodies alone (self-tests of the pure checks). */
export function syntheticRun(bodies: readonly Body[], items: Partial<FrameworkRecord["items"][number]>[] = [{}]): WireRun {
  return {
    adapter: "synthetic",
    framework: {
      framework: "synthetic",
      available: true,
      lib_version: "n/a",
      variant: false,
      items: items.map((i) => ({
        repeat: 0,
        item_id: "x-01",
        passed: true,
        checks: [],
        output_text: "",
        tool_calls: [],
        prompt_tokens: 0,
        completion_tokens: 0,
        latency_s: 0,
        llm_calls: bodies.length,
        error: null,
        ...i,
      })),
    },
    bodies,
    attempts: bodies.length,
    servedUsage: { prompt_tokens: 0, completion_tokens: 0, llm_calls: bodies.length },
    reported: [],
  };
}
