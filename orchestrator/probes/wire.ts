/**
 * How a probe gets its evidence: one adapter run through the real orchestrator (real worker
 * processes, the real mock gateway) on a small inline arena, reduced to what the gateway saw.
 * Probes judge adapters by the wire, never by their own reports — except where a rule is about
 * the report itself (§5 arguments, §10 usage), which the pass-through tap (tap-adapter.ts) reads
 * per leg, and the adapter's declarations (delegates, wire exceptions), which it logs on load.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadArena } from "../arena/load.ts";
import { DEFAULTS, type ArenaConfig } from "../config/arena-config.ts";
import type { GatewayRecords } from "../gateway/index.ts";
import type { FrameworkRecord } from "../report/record.ts";
import type { GatewayFaults } from "../run/run-gateway.ts";
import { runArenas, type AdapterEntry, type RunOptions } from "../run/index.ts";
import { toJs } from "@agentic-arena/py-semantics";
import { DEFAULT_CORPUS_PATH } from "../../contract/tools/corpus-path.ts";
import { readTap, tapModule, type TapDeclaration, type TapEntry } from "./tap-adapter.ts";

export type Body = Record<string, any>;
export type { TapEntry };

export interface InlineArena {
  readonly id?: string;
  readonly tools: readonly string[];
  readonly prompt: string;
  readonly durable?: boolean;
  readonly items: readonly { id: string; input: string; resume_with?: string; checks?: unknown[] }[];
  /** A mock_script.json object (usually just a `default`). */
  readonly script: unknown;
}

/** Concatenated text of a message's content (a string, or content parts' text). */
export function messageText(message: Record<string, any>): string {
  const c = message?.content;
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((p) => (typeof p?.text === "string" ? p.text : "")).join("");
  return "";
}

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

/** A scratch root with the folders a run writes (logs, checkpoints one run-id level deep, gateway spill). */
export function tempDirs() {
  const root = mkdtempSync(path.join(os.tmpdir(), "arena-probe-run-"));
  return {
    root,
    dirs: {
      logDir: path.join(root, "logs"),
      // One level like a run id, so checkpoint paths read `<root>/checkpoints/<run>/<adapter>/<arena>`.
      checkpointRoot: path.join(root, "checkpoints", "run"),
      gatewayDir: path.join(root, "gateway"),
    },
  };
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
  readonly bodies: readonly Body[];
  /** The temp root (checkpoints live under `<root>/checkpoints`). */
  readonly root: string;
  /** The workers' logs (where the tap's reports are). */
  readonly logDir: string;
}

type Shared = Omit<ProbeRunOptions, "arena" | "items">;

function runOptions(o: Shared): Partial<RunOptions> {
  return {
    ...(o.gatewayFaults ? { gatewayFaults: o.gatewayFaults } : {}),
    ...(o.legDeadlineMs ? { legDeadlineMs: o.legDeadlineMs } : {}),
    ...(o.workerEnv ? { workerEnv: o.workerEnv } : {}),
    ...(o.workerCwd ? { workerCwd: o.workerCwd } : {}),
    ...(o.reuseWorkerAcrossPause ? { reuseWorkerAcrossPause: true } : {}),
  };
}

export interface ProbeRunManyOptions extends Shared {
  /** Several arenas (distinct ids) run in ONE orchestrator run: one scorer pool, lanes in parallel. */
  readonly arenas: readonly { readonly arena: InlineArena | string; readonly items?: readonly string[] }[];
  /** Items in flight at once across the lanes (default 1). */
  readonly concurrency?: number;
}

/** Several arenas in one orchestrator run (cheaper: one run, one scorer); results in input order. */
export async function probeRunMany(options: ProbeRunManyOptions): Promise<ProbeRun[]> {
  const { root, dirs } = tempDirs();
  const arenas = options.arenas.map((a) => loadArena(typeof a.arena === "string" ? a.arena : writeInlineArena(root, a.arena)));
  if (new Set(arenas.map((a) => a.id)).size !== arenas.length) throw new Error("probeRunMany: arena ids must be distinct");
  const filters = options.arenas.map((a) => a.items);
  const itemFilter = filters.every((f) => f !== undefined) ? (filters.flat() as string[]) : undefined;
  if (itemFilter === undefined && filters.some((f) => f !== undefined)) throw new Error("probeRunMany: give items for every arena or none");
  const outcome = await runArenas({
    arenas,
    adapters: [options.adapter],
    config: { ...DEFAULTS, ...options.config },
    corpusPath: options.corpusPath ?? DEFAULT_CORPUS_PATH,
    concurrency: options.concurrency ?? 1,
    dirs,
    ...(itemFilter ? { itemFilter } : {}),
    ...runOptions(options),
  });
  return arenas.map((arena, i) => {
    const gateway = outcome.gatewayRecords.get(arena.id)!;
    return {
      framework: outcome.records[i]!.frameworks[0]!,
      gateway,
      bodies: gateway.requests.map((r) => toJs(r.body) as Body),
      root,
      logDir: dirs.logDir,
    };
  });
}

/** One adapter on one arena (the form every probe setup takes). */
export async function probeRun(options: ProbeRunOptions): Promise<ProbeRun> {
  const { arena, items, ...shared } = options;
  const [run] = await probeRunMany({ ...shared, arenas: [{ arena, ...(items ? { items } : {}) }] });
  return run!;
}

export interface Declared {
  readonly delegates: readonly string[];
  readonly wireExceptions: readonly { readonly key: string; readonly reason: string }[];
}

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
  /** The module's declarations as the tap read them (empty when it never loaded). */
  readonly declared: Declared;
  /** The config overrides the run was given (a setup's random canary: judged against what was asked). */
  readonly config: Partial<ArenaConfig>;
}

/** Run one adapter (real or fixture) through the real orchestrator and gateway, tapped. */
export async function wireRun(options: ProbeRunOptions): Promise<WireRun> {
  // Only the wrapper module lives here (read, never written, by the worker).
  const tapDir = mkdtempSync(path.join(os.tmpdir(), "arena-tap-"));
  try {
    const run = await probeRun({ ...options, adapter: { ...options.adapter, module: tapModule(tapDir, options.adapter.module) } });
    const lines = readTap(run.logDir);
    rmSync(run.root, { recursive: true, force: true });
    const s = run.gateway.servedUsage;
    const declaration = lines.find((l): l is TapDeclaration => "declared" in l);
    return {
      adapter: options.adapter.name,
      framework: run.framework,
      bodies: run.bodies,
      attempts: run.gateway.attempts.length,
      servedUsage: { prompt_tokens: s.prompt_tokens, completion_tokens: s.completion_tokens, llm_calls: s.llm_calls },
      reported: lines.filter((l): l is TapEntry => !("declared" in l)),
      declared: declaration?.declared ?? { delegates: [], wireExceptions: [] },
      config: options.config ?? {},
    };
  } finally {
    rmSync(tapDir, { recursive: true, force: true });
  }
}
