/**
 * One worker child process, seen from the orchestrator: spawn it, build its runners (one per
 * arena it serves and seat: a worker may carry several items at once, one per seat, see seat.ts),
 * run legs, kill it. Every message it sends is validated against the protocol;
 * a message that fails validation, an exit, or a missed deadline ends the current leg as a
 * {@link WorkerFailure}.
 */
import type { Json, ToWorker, WorkItem } from "../../contract/protocol.ts";
import { FromWorkerSchema, type FromWorker } from "../../contract/protocol-replies.ts";
import { CappedLog } from "./capped-log.ts";
import { isFailure, WorkerFailure } from "./failure.ts";
import { JobLedger, type JobOwner, type Violation } from "./job-ledger.ts";
import type { PrivateArea } from "./sandbox/private-area.ts";
import { KILL_GRACE_MS, readLogTail, spawnHost } from "./spawn.ts";
import { prepareWorkerEntry } from "./worker-entry.ts";
import { buildOutcomeOf, legOutcomeOf, type ArenaBuild, type BuildOutcome, type LegOutcome, type WorkerSpec } from "./worker-outcomes.ts";


type Waiter = { accept: (m: FromWorker) => boolean; resolve: (m: FromWorker | WorkerFailure) => void };

let jobCounter = 0;

export class WorkerProcess {
  readonly spec: WorkerSpec;
  /** Arena id × seat → gateway tag, for every runner this process has built. */
  private readonly tags = new Map<string, string>();
  /** Arena id × seat → the gateway base URL its runner was built with. */
  private readonly gateways = new Map<string, string>();
  /** Arena + item ids this process has run a leg of: a durable resume must land on a process that never saw the item. */
  private readonly seen = new Set<string>();
  private readonly child: ReturnType<typeof spawnHost>["child"];
  /** A sealed worker's private area (sandbox/private-area.ts); undefined when watched. */
  private readonly area: PrivateArea | undefined;
  /** Per seat, what the area found written outside when its legs ended, not yet taken by the item's driver. */
  private readonly strays = new Map<number, string[]>();
  /** Why the orchestrator ended this process, for the legs of other seats it takes down with it. */
  private endedBy: string | undefined;
  private readonly log: CappedLog;
  private waiters: Waiter[] = [];
  private readonly ledger = new JobLedger();
  private dead: WorkerFailure | undefined;
  private closing = false;

  private constructor(spec: WorkerSpec) {
    this.spec = spec;
    this.log = new CappedLog(spec.logFile);
    const host = spawnHost(spec);
    this.child = host.child;
    this.area = host.area;
    // Started from the sources where a bundle was wanted: same behaviour, slower start; the log says why.
    if (host.entry?.note !== undefined && !host.entry.bundled) this.log.line(`[harness] worker started from the sources, not a bundle: ${host.entry.note}`);
    this.child.stdout?.on("data", (chunk: Buffer) => this.log.write(chunk, "stdout"));
    this.child.stderr?.on("data", (chunk: Buffer) => this.log.write(chunk, "stderr"));
    void this.readMessages();
    void this.child.then((result) => {
      this.log.flush();
      const message = this.closing
        ? `worker was stopped${this.endedBy !== undefined ? `: ${this.endedBy}` : ""}`
        : `worker exited unexpectedly (code ${result.exitCode ?? "none"}, signal ${result.signal ?? "none"})`;
      this.fail(
        new WorkerFailure("exited", message, { exitCode: result.exitCode, signal: result.signal, logTail: readLogTail(spec.logFile) }),
      );
    });
  }

  get id(): string {
    return this.spec.id;
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  get alive(): boolean {
    return this.dead === undefined;
  }

  /** Spawn and wait until the host is up. A worker that failed to start still exists (and must be stopped). */
  static async start(spec: WorkerSpec): Promise<{ worker: WorkerProcess; failure?: WorkerFailure }> {
    // The adapter's bundle is made current (built once per process if stale) before its first worker starts.
    const entry = prepareWorkerEntry(spec.adapter);
    if (entry instanceof Promise) await entry;
    const worker = new WorkerProcess(spec);
    const ready = await worker.next((m) => m.type === "ready", 30_000);
    return isFailure(ready) ? { worker, failure: ready } : { worker };
  }

  /** Build this process's runner for one arena (the first build also loads the adapter). */
  async build({ arena, config, tag, seat = 0 }: ArenaBuild): Promise<BuildOutcome | WorkerFailure> {
    this.ledger.startBuild(arena.id, seat);
    this.send({ type: "build", adapter: this.spec.adapter, arena, config, corpusPath: this.spec.corpusPath, seat });
    const built = await this.next((m) => (m.type === "built" || m.type === "build_failed") && m.arena === arena.id && m.seat === seat, 120_000);
    if (isFailure(built)) return built;
    if (built.type !== "built" && built.type !== "build_failed") throw new Error("unreachable");
    if (built.type === "built") {
      this.tags.set(seatKey(arena.id, seat), tag);
      this.gateways.set(seatKey(arena.id, seat), config.baseUrl);
    }
    return buildOutcomeOf(built);
  }

  isBuiltFor(arena: string, seat = 0): boolean {
    return this.tags.has(seatKey(arena, seat));
  }

  /** The tag of this worker's traffic on `arena` from `seat` (set by a successful build). */
  tagFor(arena: string, seat = 0): string | undefined {
    return this.tags.get(seatKey(arena, seat));
  }

  /**
   * The base URL this process was handed for `arena` (set by a successful build), as the worker
   * sees it — a sealed worker dials the same address, bridged: the one endpoint its requests for
   * that arena may go to.
   */
  gatewayFor(arena: string, seat = 0): string | undefined {
    return this.gateways.get(seatKey(arena, seat));
  }

  /** Writes outside the item's folder and TMPDIR found as `seat`'s legs ended, since the last call (sealed only). */
  takeStrays(seat = 0): string[] {
    return this.strays.get(seat)?.splice(0) ?? [];
  }

  hasSeen(arena: string, itemId: string): boolean {
    return this.seen.has(seenKey(arena, itemId));
  }

  /** `cell` names the item × repeat for a protocol violation reported later (see WorkerSpec). */
  run(arena: string, item: WorkItem, deadlineMs: number, cell?: string, seat = 0): Promise<LegOutcome | WorkerFailure> {
    return this.leg({ type: "run", job: this.newJob(), arena, item, seat }, deadlineMs, cell);
  }

  resume(arena: string, item: WorkItem, state: Json, decision: "approve" | "deny", deadlineMs: number, cell?: string, seat = 0): Promise<LegOutcome | WorkerFailure> {
    return this.leg({ type: "resume", job: this.newJob(), arena, item, state, decision, seat }, deadlineMs, cell);
  }

  /** Ask the worker to exit; escalate SIGTERM → SIGKILL if it does not. */
  async stop(): Promise<void> {
    if (!this.alive) return;
    this.closing = true;
    this.send({ type: "shutdown" });
    const timer = setTimeout(() => this.signalGroup("SIGTERM"), KILL_GRACE_MS);
    await this.child;
    clearTimeout(timer);
    this.signalGroup("SIGKILL");
  }

  /**
   * Kill outright, with no chance to flush anything (the durable restart, an interrupted run).
   * The whole process group goes: whatever the framework spawned dies with it. Resolves once
   * the worker is gone.
   */
  async kill(): Promise<void> {
    this.closing = true;
    this.signalGroup("SIGKILL");
    await this.child;
  }

  /** Workers lead their own process group (spawned detached), so a terminal's Ctrl-C reaches only the orchestrator. */
  private signalGroup(signal: NodeJS.Signals): void {
    const pid = this.child.pid;
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // The group is already gone.
    }
  }

  private newJob(): string {
    jobCounter += 1;
    return `j${jobCounter}`;
  }

  private async leg(message: Extract<ToWorker, { type: "run" | "resume" }>, deadlineMs: number, cell?: string): Promise<LegOutcome | WorkerFailure> {
    this.seen.add(seenKey(message.arena, message.item.id));
    const dir = message.item.checkpointDir;
    const owner: JobOwner = { arena: message.arena, itemId: message.item.id, ...(cell !== undefined ? { cell } : {}) };
    this.ledger.start(message.job, owner);
    // The item's folder is in the worker's slot for the leg only (a dead worker's area still gives it back).
    this.area?.enter(dir);
    let reply: FromWorker | WorkerFailure;
    try {
      this.send(message);
      reply = await this.next(
        (m) => (m.type === "result" || m.type === "suspended" || m.type === "error") && m.job === message.job,
        deadlineMs,
        () => this.ledger.expire(message.job),
      );
    } finally {
      if (this.area) {
        const found = this.area.leave(dir);
        if (found.length > 0) this.strays.set(message.seat, [...(this.strays.get(message.seat) ?? []), ...found]);
      }
    }
    if (isFailure(reply)) return reply;
    if (reply.type !== "result" && reply.type !== "suspended" && reply.type !== "error") throw new Error("unreachable");
    return legOutcomeOf(reply);
  }

  private send(message: ToWorker): void {
    if (!this.alive) return;
    // A send to a process that just died rejects; the exit handler reports that to whoever waits.
    this.child.sendMessage(message).catch(() => {});
  }

  private async readMessages(): Promise<void> {
    try {
      for await (const raw of this.child.getEachMessage()) this.onMessage(raw);
    } catch {
      // The channel closes with the process; the exit handler reports why.
    }
  }

  private next(accept: (m: FromWorker) => boolean, timeoutMs: number, onExpire?: () => void): Promise<FromWorker | WorkerFailure> {
    if (this.dead) return Promise.resolve(this.dead);
    return new Promise((resolve) => {
      const waiter: Waiter = { accept, resolve };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((w) => w !== waiter);
        onExpire?.();
        const failure = new WorkerFailure("timed_out", `worker did not answer within ${(timeoutMs / 1000).toFixed(1)}s`, {
          logTail: readLogTail(this.spec.logFile),
        });
        this.endedBy ??= `a leg on it did not answer within ${(timeoutMs / 1000).toFixed(1)}s`;
        this.closing = true;
        this.signalGroup("SIGTERM");
        setTimeout(() => this.signalGroup("SIGKILL"), KILL_GRACE_MS).unref();
        resolve(failure);
      }, timeoutMs);
      waiter.resolve = (m) => {
        clearTimeout(timer);
        resolve(m);
      };
      this.waiters.push(waiter);
    });
  }

  private onMessage(raw: unknown): void {
    const parsed = FromWorkerSchema.safeParse(raw);
    if (!parsed.success) {
      const issues = parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
      this.killFor("invalid_message", `worker sent a message that is not valid protocol: ${issues}`);
      return;
    }
    const message = parsed.data;
    if (message.type === "log") {
      this.log.line(`[worker ${message.level}] ${message.message}`);
      return;
    }
    const violation = this.ledger.judge(message);
    if (violation) return this.violated(violation);
    const index = this.waiters.findIndex((w) => w.accept(message));
    // The ledger accepted it, so someone asked for it: a waiter missing here would be our bug.
    if (index === -1) return this.violated({ reason: `a ${message.type} message nobody was waiting for` });
    const [waiter] = this.waiters.splice(index, 1);
    waiter!.resolve(message);
  }

  /** The worker broke the protocol: it is killed, whatever waits gets the failure, and the owner is told. */
  private violated(violation: Violation): void {
    const message = `worker broke the protocol: ${violation.reason}`;
    this.log.line(`[orchestrator] ${message}`);
    this.killFor("protocol_violation", message);
    this.spec.onProtocolViolation?.({ ...violation, message });
  }

  /** A message the protocol does not allow: the worker is killed at once and whatever waits gets why. */
  private killFor(kind: "invalid_message" | "protocol_violation", message: string): void {
    const failure = new WorkerFailure(kind, message, { logTail: readLogTail(this.spec.logFile) });
    this.endedBy ??= message;
    this.closing = true;
    this.signalGroup("SIGKILL");
    this.fail(failure);
  }

  private fail(failure: WorkerFailure): void {
    if (!this.dead) this.dead = failure;
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w.resolve(this.dead);
  }
}

function seenKey(arena: string, itemId: string): string {
  return `${arena}\u0000${itemId}`;
}

function seatKey(arena: string, seat: number): string {
  return `${seat}\u0000${arena}`;
}

