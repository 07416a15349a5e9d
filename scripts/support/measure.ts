/**
 * What the measuring scripts share: the median they report, the floors' client scripts, and one cold worker start (spawn →
 * ready → built) timed the same way wherever a start is measured, so figures from different
 * scripts are comparable.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { AdapterConfig, AdapterRef, ArenaSpec } from "../../contract/protocol.ts";
import { isFailure } from "../../orchestrator/supervisor/failure.ts";
import { WorkerProcess } from "../../orchestrator/supervisor/worker-process.ts";
import { prepareWorkerEntry } from "../../orchestrator/supervisor/worker-entry.ts";

// getBuiltinModule, as vanilla's http.ts: an ES module import of node:http would load undici (its lazy WebSocket exports).
/** What vanilla's worker loads to make requests (`node:http`, one keep-alive agent), as a line of script. */
export const HTTP_CLIENT = "new (process.getBuiltinModule('node:http').Agent)({ keepAlive: true })";
/** What every framework SDK loads to make requests (fetch's client), as a line of script. */
export const FETCH_CLIENT = "void globalThis.fetch; new Request('http://127.0.0.1/')";

/**
 * The script of a bare Node's floor under an adapter's worker (`--input-type=module -e`): its
 * client, then each of its framework's packages imported; vanilla (no package) takes `node:http`.
 */
export function frameworkImportScript(packages: readonly string[]): string {
  return [packages.length === 0 ? HTTP_CLIENT : FETCH_CLIENT, ...packages.map((p) => `await import(${JSON.stringify(p)})`)].join("; ");
}

export function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

export interface ColdStart {
  readonly adapter: AdapterRef;
  readonly arena: ArenaSpec;
  readonly corpusPath: string;
  readonly model: string;
  /** Added to the worker's environment (e.g. `NODE_OPTIONS` for a loader). */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * Start as a run's workers do, with the compile cache the harness prepares per adapter
   * (supervisor/sandbox/compile-cache.ts), instead of an empty one of this start's own. Default false.
   */
  readonly runCache?: boolean;
}

/** One start's phases: spawn → `ready`, `ready` → `built` (wall ms), and the tree's CPU (ms) when counted. */
export interface StartTimes {
  readonly readyMs: number;
  readonly builtMs: number;
  readonly totalMs: number;
  /** The worker's whole process tree, spawn to kill (a cpuacct group); undefined where none can be made. */
  readonly cpuMs?: number;
}

/**
 * Milliseconds from spawn until the runner is built. Each start has its own empty compile cache,
 * as after an install. The gateway URL is a closed port: building sends no request.
 */
export async function coldStartMs(o: ColdStart): Promise<number> {
  return (await coldStart(o)).totalMs;
}

/** The arena a measured start builds on: tool_use's tools, no dataset. */
export const COLD_START_ARENA: ArenaSpec = { id: "tool_use", tools: ["search", "calculator"], systemPrompt: "Answer.", durable: false };

/** The config a measured start builds with: the gateway URL is a closed port, so building sends no request. */
export function coldStartConfig(model: string): AdapterConfig {
  return { model, baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", temperature: 0, requestTimeoutS: 5, maxToolIterations: 8 };
}

/**
 * The same start, by phase; with `cpu`, the worker is forked into a cpuacct group of its own and
 * its tree's CPU is read after it is killed (rusage would miss a worker killed inside bubblewrap).
 */
export async function coldStart(o: ColdStart & { readonly cpu?: CpuGroup }): Promise<StartTimes> {
  // A stale bundle is rebuilt here, outside the timed start (a run does it once, before its first worker).
  const entry = prepareWorkerEntry(o.adapter);
  if (entry instanceof Promise) await entry;
  const scratch = mkdtempSync(path.join(os.tmpdir(), "arena-cold-start-"));
  const group = o.cpu?.make();
  try {
    const t0 = performance.now();
    const start = () =>
      WorkerProcess.start({
        id: "w0",
        adapter: o.adapter,
        corpusPath: o.corpusPath,
        logFile: path.join(scratch, "worker.log"),
        env: o.runCache ? { ...o.env } : { NODE_COMPILE_CACHE: path.join(scratch, "cache"), ...o.env },
      });
    const { worker, failure } = await (group !== undefined ? o.cpu!.fork(group, start) : start());
    const ready = performance.now();
    const built =
      failure ??
      (await worker.build({
        arena: o.arena,
        config: coldStartConfig(o.model),
        tag: "cold-start",
      }));
    const end = performance.now();
    await worker.kill();
    if (isFailure(built) || !built.ok) throw new Error(`${o.adapter.name} did not build on ${o.arena.id}: ${JSON.stringify(built)}`);
    const cpuMs = group !== undefined ? o.cpu!.readMs(group) : undefined;
    return { readyMs: ready - t0, builtMs: end - ready, totalMs: end - t0, ...(cpuMs !== undefined ? { cpuMs } : {}) };
  } finally {
    if (group !== undefined) o.cpu!.remove(group);
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** How a measured start gets a cpuacct group (scripts/support/cgroup.ts supplies one; injected so this file needs no root). */
export interface CpuGroup {
  make(): string;
  fork<T>(group: string, spawn: () => T): T;
  /** The group's CPU in ms, once its tree is gone. */
  readMs(group: string): number;
  remove(group: string): void;
}
