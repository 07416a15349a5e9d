/**
 * Probe harness: run one adapter through the real orchestrator (real worker processes, the real
 * mock gateway) on a small inline arena, and hand back what the gateway saw. Probes judge
 * adapters by the wire, never by their own reports.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { DEFAULTS, type ArenaConfig } from "../../orchestrator/config/arena-config.ts";
import type { GatewayRecords } from "../../orchestrator/gateway/index.ts";
import type { FrameworkRecord } from "../../orchestrator/report/record.ts";
import type { GatewayFaults } from "../../orchestrator/run/run-gateway.ts";
import { runArenas, type AdapterEntry } from "../../orchestrator/run/session.ts";
import { ADAPTER_CATALOG } from "../../workers/adapters/catalog.ts";
import { toJs } from "../../workers/py/index.ts";
import { OUR_CORPUS, tempDirs } from "../support/run.ts";

export interface InlineArena {
  readonly id?: string;
  readonly tools: readonly string[];
  readonly prompt: string;
  readonly durable?: boolean;
  readonly items: readonly { id: string; input: string; resume_with?: string; checks?: unknown[] }[];
  /** A mock_script.json object (usually just a `default`). */
  readonly script: unknown;
}

/** The sentinel prompt of probes.md (collapses to one sentence). */
export const SENTINEL_PROMPT = "\nReply only with the word ORNITHOPTER and nothing else.\n";
export const SENTINEL_SENTENCE = "Reply only with the word ORNITHOPTER and nothing else.";

export function writeInlineArena(root: string, arena: InlineArena): string {
  const id = arena.id ?? "probe";
  const dir = path.join(root, "arenas", id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    path.join(dir, "arena.toml"),
    [
      `id = ${JSON.stringify(id)}`,
      'description = "probe arena"',
      `tools = ${JSON.stringify(arena.tools)}`,
      `system_prompt_intent = ${JSON.stringify(arena.prompt)}`,
      `durable = ${arena.durable ? "true" : "false"}`,
      "",
    ].join("\n"),
  );
  writeFileSync(
    path.join(dir, "dataset.jsonl"),
    arena.items
      .map((i) => JSON.stringify({ ...i, checks: i.checks ?? [{ type: "max_tool_calls", value: 1000 }] }))
      .join("\n") + "\n",
  );
  writeFileSync(path.join(dir, "mock_script.json"), JSON.stringify(arena.script));
  return dir;
}

export interface ProbeRunOptions {
  readonly adapter: AdapterEntry;
  /** An inline arena, or the path of an arena folder. */
  readonly arena: InlineArena | string;
  readonly config?: Partial<ArenaConfig>;
  readonly gatewayFaults?: GatewayFaults;
  readonly legDeadlineMs?: number;
  readonly corpusPath?: string;
  /** Restrict to these item ids. */
  readonly items?: readonly string[];
  /** Extra environment for the workers (e.g. a fresh HOME/TMPDIR). */
  readonly workerEnv?: Readonly<Record<string, string>>;
  /** Working directory for the workers (default: inherited). */
  readonly workerCwd?: string;
  /** Test-only: resume a durable arena on the same process (see RunOptions). */
  readonly reuseWorkerAcrossPause?: boolean;
}

export interface ProbeRun {
  readonly framework: FrameworkRecord;
  readonly gateway: GatewayRecords;
  /** Served request bodies as plain JSON, in arrival order. */
  readonly bodies: readonly Record<string, any>[];
  /** The temp root (checkpoints live under `<root>/checkpoints`). */
  readonly root: string;
}

export async function probeRun(options: ProbeRunOptions): Promise<ProbeRun> {
  const { root, dirs } = tempDirs();
  const arenaDir = typeof options.arena === "string" ? options.arena : writeInlineArena(root, options.arena);
  const arena = loadArena(arenaDir);
  const outcome = await runArenas({
    arenas: [arena],
    adapters: [options.adapter],
    config: { ...DEFAULTS, ...options.config },
    corpusPath: options.corpusPath ?? OUR_CORPUS,
    concurrency: 1,
    dirs,
    ...(options.items ? { itemFilter: options.items } : {}),
    ...(options.gatewayFaults ? { gatewayFaults: options.gatewayFaults } : {}),
    ...(options.legDeadlineMs ? { legDeadlineMs: options.legDeadlineMs } : {}),
    ...(options.workerEnv ? { workerEnv: options.workerEnv } : {}),
    ...(options.workerCwd ? { workerCwd: options.workerCwd } : {}),
    ...(options.reuseWorkerAcrossPause ? { reuseWorkerAcrossPause: true } : {}),
  });
  const gateway = outcome.gatewayRecords.get(arena.id)!;
  return {
    framework: outcome.records[0]!.frameworks[0]!,
    gateway,
    bodies: gateway.requests.map((r) => toJs(r.body) as Record<string, any>),
    root,
  };
}

export interface ProbeRunManyOptions extends Omit<ProbeRunOptions, "arena" | "items"> {
  /** Several arenas (distinct ids) run in ONE orchestrator run: one scorer pool, lanes in parallel. */
  readonly arenas: readonly { readonly arena: InlineArena | string; readonly items?: readonly string[] }[];
  /** Items in flight at once across the lanes (default 1). */
  readonly concurrency?: number;
}

/** Like {@link probeRun} for several arenas at once (cheaper: one run, one scorer); results in input order. */
export async function probeRunMany(options: ProbeRunManyOptions): Promise<ProbeRun[]> {
  const { root, dirs } = tempDirs();
  const arenas = options.arenas.map((a) => loadArena(typeof a.arena === "string" ? a.arena : writeInlineArena(root, a.arena)));
  if (new Set(arenas.map((a) => a.id)).size !== arenas.length) throw new Error("probeRunMany: arena ids must be distinct");
  const filters = options.arenas.map((a) => a.items);
  const itemFilter = filters.every((f) => f !== undefined) ? filters.flat() as string[] : undefined;
  if (itemFilter === undefined && filters.some((f) => f !== undefined)) throw new Error("probeRunMany: give items for every arena or none");
  const outcome = await runArenas({
    arenas,
    adapters: [options.adapter],
    config: { ...DEFAULTS, ...options.config },
    corpusPath: options.corpusPath ?? OUR_CORPUS,
    concurrency: options.concurrency ?? 1,
    dirs,
    ...(itemFilter ? { itemFilter } : {}),
    ...(options.gatewayFaults ? { gatewayFaults: options.gatewayFaults } : {}),
    ...(options.legDeadlineMs ? { legDeadlineMs: options.legDeadlineMs } : {}),
    ...(options.workerEnv ? { workerEnv: options.workerEnv } : {}),
    ...(options.workerCwd ? { workerCwd: options.workerCwd } : {}),
    ...(options.reuseWorkerAcrossPause ? { reuseWorkerAcrossPause: true } : {}),
  });
  return arenas.map((arena, i) => {
    const gateway = outcome.gatewayRecords.get(arena.id)!;
    return {
      framework: outcome.records[i]!.frameworks[0]!,
      gateway,
      bodies: gateway.requests.map((r) => toJs(r.body) as Record<string, any>),
      root,
    };
  });
}

/**
 * Every real adapter the probes run against. `ARENA_EXPECT_FRAMEWORKS` (comma list) names
 * adapters that must be present and buildable: a missing one fails the suite loudly instead of
 * silently shrinking the matrix.
 */
export function probeAdapters(): AdapterEntry[] {
  const entries = ADAPTER_CATALOG.map((e) => ({ name: e.name, module: e.module, variant: e.arenas !== undefined }));
  const expected = (process.env.ARENA_EXPECT_FRAMEWORKS ?? "").split(",").map((s) => s.trim()).filter(Boolean);
  const missing = expected.filter((name) => !entries.some((e) => e.name === name));
  if (missing.length > 0) throw new Error(`ARENA_EXPECT_FRAMEWORKS names adapters that are not in the catalogue: ${missing.join(", ")}`);
  return entries;
}

/** Concatenated text of a message's content (a string, or content parts' text). */
export function messageText(message: Record<string, any>): string {
  const c = message?.content;
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((p) => (typeof p?.text === "string" ? p.text : "")).join("");
  return "";
}
