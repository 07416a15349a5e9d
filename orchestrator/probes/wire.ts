/**
 * How a probe gets its evidence: an adapter run through the real orchestrator (real worker
 * processes, the real mock gateway) exactly as `arena bench` runs one — the same runArenas, the
 * same folders under the same output roots (`runs/<run-id>/logs/s0`, `checkpoints/<run-id>/s0/…`,
 * as a new bench run lays them out: run-dirs.ts), the same config shape, nothing added to the workers' environment
 * — on a small inline arena or a real one, reduced to what the gateway saw. Probes judge adapters
 * by the wire, never by their own reports, except where a rule is about the report itself (§5
 * arguments, §10 usage: what each leg's worker sent) or the adapter's declarations (delegates, wire
 * exceptions). Both come from messages every run's workers send — the leg results (RunOptions.onLegs)
 * and the build reply (RunOptions.onBuilt) — so a probe loads the adapter's own module and adds no
 * module, message, file or variable a worker could tell a probe by.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadArena } from "../arena/load.ts";
import { DEFAULTS, type ArenaConfig } from "../config/arena-config.ts";
import type { GatewayRecords } from "../gateway/index.ts";
import type { AdapterRecord } from "../report/record.ts";
import type { GatewayFaults } from "../run/run-gateway.ts";
import { runArenas, type AdapterEntry, type RunOptions } from "../run/index.ts";
import { outputRoots, type OutputRoots } from "../store/layout.ts";
import { toJs } from "@agentic-arena/py-semantics";
import type { AgentResult } from "../../contract/protocol.ts";
import { DEFAULT_CORPUS_PATH } from "../../contract/tools/corpus-path.ts";
import { PROBE_SEED } from "./canary.ts";
import { benchRoots, runFolders, scratchDir, tempDirs } from "./run-dirs.ts";
import { listFiles, type Body, type Declared, type InlineArena, type LegReport, type WireRun } from "./wire-types.ts";

export * from "./wire-types.ts";

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
    arena.items.map((i) => JSON.stringify({ ...i, checks: i.checks ?? [{ type: "max_tool_calls", value: 1000 }] })).join("\n") + "\n",
  );
  writeFileSync(path.join(dir, "mock_script.json"), JSON.stringify(arena.script));
  return dir;
}

export { tempDirs };

export interface ProbeRunManyOptions {
  readonly adapter: AdapterEntry;
  /** Several arenas (distinct ids) run in ONE orchestrator run: one scorer pool, lanes in parallel. */
  readonly arenas: readonly { readonly arena: InlineArena | string; readonly items?: readonly string[] }[];
  readonly config?: Partial<ArenaConfig>;
  readonly gatewayFaults?: GatewayFaults;
  readonly legDeadlineMs?: number;
  readonly corpusPath?: string;
  /** Items in flight at once across the lanes (default 1). */
  readonly concurrency?: number;
  /** Test-only: resume a durable arena on the same process (see RunOptions). */
  readonly reuseWorkerAcrossPause?: boolean;
  /** Extra environment for the workers: tests of the sandbox only, never a probe (a bench sets none). */
  readonly workerEnv?: Readonly<Record<string, string>>;
  /** The seed the setup's values were drawn with (recorded in the WireRun; default: this process's). */
  readonly seed?: string;
  /**
   * The output roots the run's folders go under. Default: a fresh temp root, kept for the caller
   * to inspect (the adapters' and the sandbox's suites); a probe (wireRunMany) uses the roots a
   * bench would (benchRoots) and removes its folders.
   */
  readonly roots?: OutputRoots;
}

export interface ProbeRunOptions extends Omit<ProbeRunManyOptions, "arenas"> {
  /** An inline arena, or the path of an arena folder. */
  readonly arena: InlineArena | string;
  /** Restrict to these item ids. */
  readonly items?: readonly string[];
}

export interface ProbeRun {
  /** The arena's id (its lane's folder name). */
  readonly arena: string;
  readonly record: AdapterRecord;
  readonly gateway: GatewayRecords;
  /** Served request bodies as plain JSON, in arrival order. */
  readonly bodies: readonly Body[];
  /** The run's output base (its `runs/` and `checkpoints/` are below it). */
  readonly root: string;
  /** Removes the run's own folders and its scratch folder (wireRunMany does, once it has read them). */
  readonly remove: () => void;
  /** The workers' logs. */
  readonly logDir: string;
  /** The session's checkpoint root: `<root>/checkpoints/<run-id>/s0`, one folder per adapter inside. */
  readonly checkpointRoot: string;
  /** Each item's leg results as the workers sent them, in the order items finished. */
  readonly legs: readonly { readonly item: string; readonly results: readonly AgentResult[] }[];
  /** What the adapter declared on its first build reply of the run (every lane builds the same module). */
  readonly declared?: Declared;
}

/** Several arenas in one orchestrator run (cheaper: one run, one scorer); results in input order. */
export async function probeRunMany(options: ProbeRunManyOptions): Promise<ProbeRun[]> {
  const roots = options.roots ?? outputRoots(mkdtempSync(path.join(os.tmpdir(), "arena-out-")));
  const { layout, dirs, remove } = runFolders(roots);
  const scratch = scratchDir();
  const arenas = options.arenas.map((a) => loadArena(typeof a.arena === "string" ? a.arena : writeInlineArena(scratch, a.arena)));
  if (new Set(arenas.map((a) => a.id)).size !== arenas.length) throw new Error("probeRunMany: arena ids must be distinct");
  const filters = options.arenas.map((a) => a.items);
  const itemFilter = filters.every((f) => f !== undefined) ? (filters.flat() as string[]) : undefined;
  if (itemFilter === undefined && filters.some((f) => f !== undefined)) throw new Error("probeRunMany: give items for every arena or none");
  const legs = new Map<string, { item: string; results: readonly AgentResult[] }[]>(arenas.map((a) => [a.id, []]));
  let declared: Declared | undefined;
  const extra: Partial<RunOptions> = {
    ...(options.gatewayFaults ? { gatewayFaults: options.gatewayFaults } : {}),
    ...(options.legDeadlineMs ? { legDeadlineMs: options.legDeadlineMs } : {}),
    ...(options.workerEnv ? { workerEnv: options.workerEnv } : {}),
    ...(options.reuseWorkerAcrossPause ? { reuseWorkerAcrossPause: true } : {}),
    ...(itemFilter ? { itemFilter } : {}),
  };
  // A run that throws leaves nothing behind under the roots (a probe's are a bench's: the user's).
  const discard = () => {
    remove();
    rmSync(scratch, { recursive: true, force: true });
  };
  const outcome = await runArenas({
    arenas,
    adapters: [options.adapter],
    config: { ...DEFAULTS, ...options.config },
    corpusPath: options.corpusPath ?? DEFAULT_CORPUS_PATH,
    runId: layout.runId,
    concurrency: options.concurrency ?? 1,
    dirs,
    onLegs: (arena, _framework, item, results) => legs.get(arena)!.push({ item, results }),
    onBuilt: (_arena, _framework, d) => {
      declared ??= { delegates: [...d.delegates], wireExceptions: d.wireExceptions.map((e) => ({ key: e.key, reason: e.reason })) };
    },
    ...extra,
  }).catch((err: unknown) => {
    discard();
    throw err;
  });
  return arenas.map((arena, i) => {
    const gateway = outcome.gatewayRecords.get(arena.id)!;
    return {
      arena: arena.id,
      record: outcome.records[i]!.frameworks[0]!,
      gateway,
      bodies: gateway.requests.map((r) => toJs(r.body) as Body),
      root: path.dirname(roots.runsDir),
      remove: discard,
      logDir: dirs.logDir,
      checkpointRoot: dirs.checkpointRoot,
      legs: legs.get(arena.id)!,
      ...(declared ? { declared } : {}),
    };
  });
}

/** One adapter on one arena. */
export async function probeRun(options: ProbeRunOptions): Promise<ProbeRun> {
  const { arena, items, ...shared } = options;
  const [run] = await probeRunMany({ ...shared, arenas: [{ arena, ...(items ? { items } : {}) }] });
  return run!;
}

/** A leg's result without what no probe reads and a cache need not carry (raw dumps, the resume state). */
function reportedLegs(legs: ProbeRun["legs"]): LegReport[] {
  return legs.flatMap(({ item, results }) =>
    results.map((r, i) => {
      const { raw: _raw, resume_state: _state, ...result } = r;
      return { leg: i === 0 ? ("run" as const) : ("resume" as const), item, result };
    }),
  );
}

/** Run one adapter (real or fixture) on several arenas in one orchestrator run; one WireRun per arena. */
export async function wireRunMany(options: ProbeRunManyOptions): Promise<WireRun[]> {
  const runs = await probeRunMany({ ...options, roots: options.roots ?? benchRoots() });
  try {
    const declared = runs[0]!.declared ?? { delegates: [], wireExceptions: [] };
    const out = runs.map((run): WireRun => {
      const s = run.gateway.servedUsage;
      return {
        adapter: options.adapter.name,
        record: run.record,
        bodies: run.bodies,
        attempts: run.gateway.attempts.length,
        attemptLog: run.gateway.attempts.map((a) => ({ ...a })),
        requestTags: run.gateway.requests.map((r) => r.tag),
        servedUsage: { prompt_tokens: s.prompt_tokens, completion_tokens: s.completion_tokens, llm_calls: s.llm_calls },
        reported: reportedLegs(run.legs),
        declared,
        seed: options.seed ?? PROBE_SEED,
        config: options.config ?? {},
        checkpointFiles: listFiles(path.join(run.checkpointRoot, options.adapter.name, run.arena)),
      };
    });
    return out;
  } finally {
    runs[0]!.remove();
  }
}

/** One adapter on one arena, reduced to a WireRun (the form most probe setups take). */
export async function wireRun(options: ProbeRunOptions): Promise<WireRun> {
  const { arena, items, ...shared } = options;
  const [run] = await wireRunMany({ ...shared, arenas: [{ arena, ...(items ? { items } : {}) }] });
  return run!;
}

/** What a setup's options may say: never the workers' environment (a bench sets none). */
export type SetupRunOptions = Omit<ProbeRunOptions, "adapter" | "workerEnv">;
