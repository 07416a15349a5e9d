/**
 * Starting the worker host as a child process, and reading the tail of its log: the parts of a
 * worker's life that are about the operating system, not the protocol.
 */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { execa, execaNode } from "execa";
import { disableTelemetry } from "../../contract/telemetry.ts";
import type { AdapterRef } from "../../contract/protocol.ts";
import { runtimeOf } from "../../contract/runtime.ts";
import { pythonExecutable, pythonHostArgs, pythonHostEnv } from "./python-host.ts";
import type { Isolation } from "./sandbox/index.ts";
import type { PrivateArea } from "./sandbox/private-area.ts";
import { inheritedEnv } from "./worker-env.ts";
import { workerEntry, type WorkerEntry } from "./worker-entry.ts";

/** What starting a host needs (a WorkerSpec is one). */
export interface HostSpec {
  readonly id: string;
  readonly adapter: AdapterRef;
  readonly corpusPath: string;
  readonly cwd?: string;
  readonly env?: Readonly<Record<string, string>>;
  readonly isolation?: Isolation;
}

/** SIGTERM first, SIGKILL if the worker has not gone this long after. */
export const KILL_GRACE_MS = 500;
const LOG_TAIL_BYTES = 2000;
const COMPILE_CACHE = path.join(os.tmpdir(), "agentic-arena-compile-cache");

export function readLogTail(file: string, bytes = LOG_TAIL_BYTES): string {
  try {
    const fd = openSync(file, "r");
    try {
      const size = fstatSync(fd).size;
      const start = Math.max(0, size - bytes);
      const buf = Buffer.alloc(size - start);
      readSync(fd, buf, 0, buf.length, start);
      return buf.toString("utf8");
    } finally {
      closeSync(fd);
    }
  } catch {
    return "";
  }
}

/** The options every host is started with, whichever its runtime. */
const CHILD_OPTIONS = {
  ipc: true,
  serialization: "json",
  extendEnv: false,
  stdin: "ignore",
  // Through the orchestrator, not straight to the file: the log is capped and redacted (capped-log.ts).
  stdout: "pipe",
  stderr: "pipe",
  // Its own process group: Ctrl-C in a terminal signals the orchestrator only, which then stops
  // the run in order, and a kill reaches everything the worker spawned.
  detached: true,
  reject: false,
  // Messages are handled as they arrive; execa would otherwise keep every one for the result.
  buffer: false,
  forceKillAfterDelay: KILL_GRACE_MS,
} as const;

/**
 * The host process, a sealed worker's private area (undefined when watched), and what a Node host
 * was started from (worker-entry.ts: its bundle, or the sources and why).
 */
export function spawnHost(spec: HostSpec) {
  const runtime = runtimeOf(spec.adapter);
  const entry: WorkerEntry | undefined = runtime === "node" ? workerEntry(spec.adapter) : undefined;
  // Workers start often (one per lane, one per durable restart): let Node cache their compiled code.
  // Only an allow-list of the orchestrator's own environment crosses (worker-env.ts says why).
  const base = disableTelemetry({ NODE_COMPILE_CACHE: COMPILE_CACHE, ...inheritedEnv(), ...spec.env });
  const env = runtime === "python" ? pythonHostEnv(base) : base;
  // Chosen by the orchestrator's ARENA_PYTHON (or a caller's), which the worker itself is not handed.
  const python = runtime === "python" ? pythonExecutable({ ...process.env, ...spec.env }) : undefined;
  // The isolation decides the command (bwrap around the host, or the host watched) and cleans up on exit.
  const launch = spec.isolation?.launch({
    id: spec.id, adapter: spec.adapter, corpusPath: spec.corpusPath, cwd: spec.cwd, env, callerEnv: spec.env ?? {},
    ...(entry !== undefined ? { host: entry.file } : {}),
    ...(python !== undefined ? { python } : {}),
  });
  const options = { ...CHILD_OPTIONS, cwd: launch?.cwd ?? spec.cwd, env: launch?.env ?? env };
  // The Python host gets the same channel as Node's (JSON lines on NODE_CHANNEL_FD: arena_host/channel.py).
  const argv = python !== undefined ? [...(launch?.prefix ?? []), python, ...pythonHostArgs()] : [];
  const child =
    python !== undefined
      ? execa(argv[0]!, argv.slice(1), options)
      : execaNode(entry!.file, [], { ...options, nodePath: launch?.nodePath ?? process.execPath, nodeOptions: launch?.nodeOptions });
  launch?.attach(child);
  const area: PrivateArea | undefined = launch?.area;
  return { child, area, entry };
}
