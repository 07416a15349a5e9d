/**
 * A worker host driven one message at a time, started by the orchestrator's own spawnHost (the
 * start path every worker takes), unsealed: what is compared here is the protocol, and the
 * sandbox has its own tests. Each vector is followed by a sentinel run whose answer marks the
 * end of the vector's replies, so "refused" (an error log, nothing else) is told from "no reply
 * yet" without waiting on a clock.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SeatSchema } from "../../../contract/protocol.ts";
import { FromWorkerSchema, type FromWorker } from "../../../contract/protocol-replies.ts";
import { spawnHost } from "../../../orchestrator/supervisor/spawn.ts";
import { REPO_ROOT } from "../../support/reference.ts";
import { answer, ARENA, CORPUS, MODULE, type Vector } from "./vectors.ts";

export const HOSTS = {
  node: path.join(REPO_ROOT, "tests", "hosts", "adapters", "conformance.ts"),
  python: path.join(REPO_ROOT, "tests", "hosts", "adapters", "conformance.py"),
} as const;
export type HostName = keyof typeof HOSTS;


/** What a vector drew from a host: each reply, reduced to what both hosts must agree on. */
export type Reply = string;

type Json = Vector["value"];

/** The module placeholder, replaced wherever it appears (a mutation may have moved or removed it). */
function fill(value: Json, module: string): Json {
  if (value === MODULE) return module;
  if (Array.isArray(value)) return value.map((v) => fill(v, module));
  if (value !== null && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, fill(v, module)]));
  return value;
}

/**
 * A reply as both hosts must give it: the type; a build failure's kind; a log's level; an
 * error's class (a refused result, a state that cannot cross, or the adapter's own raise); and
 * for a result, the result itself (defaults filled, unknown keys gone, exactly as validated).
 */
export function reduce(m: FromWorker): Reply {
  switch (m.type) {
    case "build_failed":
      return `build_failed:${m.kind}`;
    case "built":
      return `built:${JSON.stringify([m.arena, m.libVersion, m.resumable, m.delegates, m.wireExceptions])}`;
    case "log":
      return `log:${m.level}`;
    case "error":
      return `error:${m.error.startsWith("InvalidResult") ? "invalid-result" : m.error.startsWith("resume_state is not JSON") ? "not-json" : m.error.includes("protocol violation") ? "no-build" : "raised"}`;
    case "result":
    case "suspended":
      return `${m.type}:${JSON.stringify(m.result)}`;
    case "ready":
      return "ready";
  }
}

export class HostDriver {
  readonly name: HostName;
  private child: ReturnType<typeof spawnHost>["child"];
  private inbox: unknown[] = [];
  private wake: (() => void) | undefined;
  private exited = false;
  private sentinel = 0;
  /** Every message that failed FromWorkerSchema: must stay empty. */
  readonly malformed: string[] = [];

  constructor(name: HostName) {
    this.name = name;
    const logDir = mkdtempSync(path.join(os.tmpdir(), "arena-conformance-"));
    const child = spawnHost({ id: `conf-${name}`, adapter: { name: "conformance", module: HOSTS[name] }, corpusPath: CORPUS, cwd: logDir }).child;
    this.child = child;
    // Nothing here prints, but a full pipe would stall a host that did.
    child.stdout?.resume();
    child.stderr?.resume();
    void (async () => {
      try {
        for await (const m of child.getEachMessage()) this.push(m);
      } catch {
        // The channel closes with the process.
      }
    })();
    void child.then(() => {
      this.exited = true;
      this.wake?.();
    });
  }

  private push(m: unknown): void {
    this.inbox.push(m);
    this.wake?.();
  }

  private async take(): Promise<FromWorker | "exited"> {
    while (this.inbox.length === 0) {
      if (this.exited) return "exited";
      await new Promise<void>((r) => (this.wake = r));
    }
    const raw = this.inbox.shift();
    const parsed = FromWorkerSchema.safeParse(raw);
    if (!parsed.success) {
      this.malformed.push(JSON.stringify(raw));
      return this.take();
    }
    return parsed.data;
  }

  async ready(): Promise<void> {
    const first = await this.take();
    if (first === "exited" || first.type !== "ready") throw new Error(`${this.name} host did not start: ${JSON.stringify(first)}`);
  }

  send(value: Json): Promise<void> {
    return this.child.sendMessage(fill(value, HOSTS[this.name]) as never);
  }

  /**
   * The replies to one vector: everything before the sentinel's answer, or before the host exited.
   * The sentinel goes to the vector's seat: a seat's messages are answered in order, while the
   * Node host runs different seats' legs concurrently (contract/protocol.ts SeatSchema).
   */
  async exchange(value: Json): Promise<Reply[]> {
    await this.send(value);
    const job = `sentinel-${(this.sentinel += 1)}`;
    const seat = SeatSchema.safeParse(value !== null && typeof value === "object" && !Array.isArray(value) ? value.seat : undefined);
    const sentinel = { type: "run", job, arena: ARENA, item: { id: job, input: answer({ output_text: job }), resume_with: "", checkpointDir: "/tmp" } };
    await this.send(seat.success && seat.data !== 0 ? { ...sentinel, seat: seat.data } : sentinel);
    const replies: Reply[] = [];
    for (;;) {
      const m = await this.take();
      if (m === "exited") return [...replies, `exited:${(await this.child).exitCode}`];
      if ((m.type === "result" || m.type === "error") && m.job === job) return replies;
      replies.push(reduce(m));
    }
  }

  /** Ask the host to go and wait until it has. */
  async shutdown(): Promise<number | undefined> {
    await this.send({ type: "shutdown" }).catch(() => {});
    return (await this.child).exitCode;
  }

  /** Close the channel from this side, as an orchestrator that died would, and wait for the exit. */
  async disconnect(): Promise<number | undefined> {
    this.child.nodeChildProcess.disconnect();
    return (await this.child).exitCode;
  }

  kill(): void {
    this.child.kill("SIGKILL");
  }
}
