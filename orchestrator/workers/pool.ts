/**
 * Worker lifetime policy, one pool per adapter × arena:
 *
 * - A worker is built once for its adapter × arena and reused across items, one item at a time
 *   (a framework's start-up cost is paid once per arena, the same for every framework).
 * - A worker that crashed, hung or broke the protocol is discarded and replaced; the run goes on.
 * - A durable resume never lands on the process that paused: that one is SIGKILLed, and the
 *   resume runs on a process that has never seen the item (not even in an earlier repeat). To
 *   keep that off the critical path, durable pools keep built spares warm (one per item that
 *   can be in flight at once, so concurrent pauses never queue behind a cold start).
 */
import path from "node:path";
import type { BuildOutcome, WorkerSpec } from "./worker-process.ts";
import { WorkerProcess, isFailure } from "./worker-process.ts";
import type { WorkerFailure } from "./failure.ts";

export interface PoolSpec extends Omit<WorkerSpec, "logFile" | "config" | "tag"> {
  readonly config: Omit<WorkerSpec["config"], "baseUrl">;
  /** Base URL for a worker, given its tag (the harness tags each worker's traffic at the gateway). */
  readonly baseUrlFor: (tag: string) => string;
  readonly logDir: string;
  /** File-name-safe label, e.g. `vanilla__tool_use`. */
  readonly label: string;
  /** How many built spares to keep ready for durable resumes (0 = none). */
  readonly warmSpares: number;
}

export type OpenOutcome = Extract<BuildOutcome, { ok: true }> | Extract<BuildOutcome, { ok: false }> | { ok: false; failure: WorkerFailure };

export class WorkerPool {
  readonly spec: PoolSpec;
  private idle: WorkerProcess[] = [];
  private readonly all = new Set<WorkerProcess>();
  private spawned = 0;
  private spares: Promise<WorkerProcess | undefined>[] = [];
  private closed = false;

  constructor(spec: PoolSpec) {
    this.spec = spec;
  }

  /** Start the first worker: its build decides whether this adapter is available on this arena. */
  async open(): Promise<OpenOutcome> {
    const { worker, build } = await this.spawn();
    if (isFailure(build)) {
      await worker.stop();
      return { ok: false, failure: build };
    }
    if (!build.ok) {
      await worker.stop();
      return build;
    }
    this.idle.push(worker);
    this.refillSpares();
    return build;
  }

  /** A built worker, preferring an idle one. With `notSeen`, only one that never ran that item. */
  async acquire(notSeen?: string): Promise<WorkerProcess | WorkerFailure> {
    const index = this.idle.findIndex((w) => w.alive && (notSeen === undefined || !w.seenItems.has(notSeen)));
    if (index !== -1) return this.idle.splice(index, 1)[0]!;
    if (notSeen !== undefined && this.spares.length > 0) {
      // Claim a spare before awaiting it: two concurrent resumes must not both get the same one.
      const claimed = this.spares.shift()!;
      this.refillSpares();
      const spare = await claimed;
      if (spare?.alive && !spare.seenItems.has(notSeen)) return spare;
      if (spare) this.release(spare);
    }
    return this.startBuilt();
  }

  release(worker: WorkerProcess): void {
    if (this.closed || !worker.alive) {
      void this.discard(worker);
      return;
    }
    this.idle.push(worker);
  }

  async discard(worker: WorkerProcess): Promise<void> {
    this.idle = this.idle.filter((w) => w !== worker);
    this.all.delete(worker);
    await worker.kill();
  }

  /** The durable restart: SIGKILL (no chance to flush), and wait until the process is gone. */
  async killForRestart(worker: WorkerProcess): Promise<void> {
    await this.discard(worker);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.spares);
    await Promise.all([...this.all].map((w) => w.stop()));
    this.all.clear();
    this.idle = [];
  }

  private refillSpares(): void {
    while (!this.closed && this.spares.length < this.spec.warmSpares) {
      this.spares.push(this.startBuilt().then((w) => (isFailure(w) ? undefined : w)));
    }
  }

  private async startBuilt(): Promise<WorkerProcess | WorkerFailure> {
    const { worker, build } = await this.spawn();
    if (isFailure(build)) return build;
    if (!build.ok) {
      await this.discard(worker);
      return {
        kind: "spawn_failed",
        message: `replacement worker failed to build: ${build.reason}`,
        timedOut: false,
        exitCode: null,
        signal: null,
        logTail: "",
      };
    }
    return worker;
  }

  private async spawn() {
    const tag = `${this.spec.label}__w${this.spawned++}`;
    const spec: WorkerSpec = {
      ...this.spec,
      tag,
      config: { ...this.spec.config, baseUrl: this.spec.baseUrlFor(tag) },
      logFile: path.join(this.spec.logDir, `${tag}.log`),
    };
    const started = await WorkerProcess.start(spec);
    this.all.add(started.worker);
    return started;
  }
}
