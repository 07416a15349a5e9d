/**
 * What the measuring scripts share: the median they report, and one cold worker start (spawn →
 * ready → built) timed the same way wherever a start is measured, so figures from different
 * scripts are comparable.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { AdapterRef, ArenaSpec } from "../../contract/protocol.ts";
import { isFailure } from "../../orchestrator/supervisor/failure.ts";
import { WorkerProcess } from "../../orchestrator/supervisor/worker-process.ts";

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

/**
 * Milliseconds from spawn until the runner is built. Each start has its own empty compile cache,
 * as after an install. The gateway URL is a closed port: building sends no request.
 */
export async function coldStartMs(o: ColdStart): Promise<number> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "arena-cold-start-"));
  try {
    const t0 = performance.now();
    const { worker, failure } = await WorkerProcess.start({
      id: "w0",
      adapter: o.adapter,
      corpusPath: o.corpusPath,
      logFile: path.join(scratch, "worker.log"),
      env: o.runCache ? { ...o.env } : { NODE_COMPILE_CACHE: path.join(scratch, "cache"), ...o.env },
    });
    const built =
      failure ??
      (await worker.build({
        arena: o.arena,
        config: { model: o.model, baseUrl: "http://127.0.0.1:9/v1", apiKey: "k", temperature: 0, requestTimeoutS: 5, maxToolIterations: 8 },
        tag: "cold-start",
      }));
    const ms = performance.now() - t0;
    await worker.kill();
    if (isFailure(built) || !built.ok) throw new Error(`${o.adapter.name} did not build on ${o.arena.id}: ${JSON.stringify(built)}`);
    return ms;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
