/**
 * The worker process entry point. It loads one adapter, builds one runner for one arena + config,
 * and runs the legs the orchestrator asks for, one at a time. Everything it says goes over the
 * IPC channel as protocol messages; anything the adapter prints goes to the log file the
 * orchestrator attached to stdout/stderr.
 */
import { pathToFileURL } from "node:url";
import { performance } from "node:perf_hooks";
import {
  AgentResultSchema,
  ToWorkerSchema,
  type FromWorker,
  type ToWorker,
  type WorkItem,
  type Json,
} from "./protocol.ts";
import type { Adapter, Runner, Toolbox } from "./adapters/types.ts";
import { assertStrictJson } from "./strict-json.ts";
import { dispatch } from "./tools/dispatch.ts";
import { loadCorpus } from "./tools/search.ts";
import { disableTelemetry } from "./telemetry.ts";

disableTelemetry(process.env);

function send(message: FromWorker): void {
  process.send?.(message);
}

function describeError(err: unknown): { text: string; traceback: string } {
  if (err instanceof Error) return { text: `${err.name}: ${err.message}`, traceback: err.stack ?? "" };
  return { text: `Error: ${String(err)}`, traceback: "" };
}

let runner: Runner | undefined;

async function build(message: Extract<ToWorker, { type: "build" }>): Promise<void> {
  let adapter: Adapter;
  let libVersion = "unknown";
  try {
    adapter = (await import(pathToFileURL(message.adapter.module).href)).default as Adapter;
    if (!adapter || typeof adapter.build !== "function") throw new Error(`${message.adapter.module} has no default Adapter export`);
  } catch (err) {
    const { text, traceback } = describeError(err);
    const notInstalled = /Cannot find (package|module)|ERR_MODULE_NOT_FOUND/.test(`${text} ${(err as any)?.code ?? ""}`);
    send({
      type: "build_failed",
      kind: notInstalled ? "not_installed" : "load_failed",
      reason: notInstalled ? `library not installed: ${text}` : `load failed: ${text}`,
      libVersion: notInstalled ? "(not installed)" : libVersion,
      traceback,
    });
    return;
  }
  try {
    libVersion = typeof adapter.libVersion === "function" ? adapter.libVersion() : adapter.libVersion;
  } catch (err) {
    libVersion = `unknown (${err instanceof Error ? err.message : String(err)})`;
  }
  const corpus = loadCorpus(message.corpusPath);
  const tools: Toolbox = { dispatch: (name, args) => dispatch(name, args, { corpus }) };
  try {
    runner = await adapter.build(message.arena, message.config, { tools });
  } catch (err) {
    const { text, traceback } = describeError(err);
    const stub = err instanceof Error && err.name === "NotImplementedError";
    send({
      type: "build_failed",
      kind: stub ? "stub" : "build_failed",
      reason: stub ? `stub adapter: ${err.message}` : `build failed: ${text}`,
      libVersion,
      traceback,
    });
    return;
  }
  send({ type: "built", libVersion, resumable: typeof runner.resume === "function", delegates: [...(adapter.delegates ?? [])] });
}

async function leg(job: string, call: () => Promise<unknown>): Promise<void> {
  const started = performance.now();
  let raw: unknown;
  try {
    raw = await call();
  } catch (err) {
    const { text, traceback } = describeError(err);
    send({ type: "error", job, error: text, traceback, adapterSeconds: (performance.now() - started) / 1000 });
    return;
  }
  const adapterSeconds = (performance.now() - started) / 1000;
  const parsed = AgentResultSchema.safeParse(raw ?? {});
  if (!parsed.success) {
    send({ type: "error", job, error: `InvalidResult: ${parsed.error.message}`, traceback: "", adapterSeconds });
    return;
  }
  const result = parsed.data;
  if (result.suspended) {
    try {
      assertStrictJson((raw as { resume_state?: unknown }).resume_state ?? null);
    } catch (err) {
      const detail = err instanceof Error ? err.message : String(err);
      send({
        type: "error",
        job,
        error: `resume_state is not JSON-serialisable, so nothing could survive a restart: ${detail}`,
        traceback: "",
        adapterSeconds,
      });
      return;
    }
  }
  send({ type: result.suspended ? "suspended" : "result", job, result, adapterSeconds });
}

function requireRunner(): Runner {
  if (!runner) throw new Error("protocol violation: run before a successful build");
  return runner;
}

async function handle(message: ToWorker): Promise<void> {
  switch (message.type) {
    case "build":
      return build(message);
    case "run": {
      const r = requireRunner();
      return leg(message.job, () => r.run(message.item as WorkItem));
    }
    case "resume": {
      const r = requireRunner();
      if (!r.resume) return leg(message.job, async () => ({ error: "adapter suspended but does not implement resume()" }));
      return leg(message.job, () => r.resume!(message.item, message.state as Json, message.decision));
    }
    case "shutdown":
      process.exit(0);
  }
}

// Messages are handled strictly one at a time: a runner serves one leg at a time.
let queue = Promise.resolve();
process.on("message", (raw) => {
  const parsed = ToWorkerSchema.safeParse(raw);
  if (!parsed.success) {
    send({ type: "log", level: "error", message: `invalid message from orchestrator: ${parsed.error.message}` });
    return;
  }
  queue = queue.then(() => handle(parsed.data)).catch((err) => {
    send({ type: "log", level: "error", message: describeError(err).text });
  });
});
process.on("disconnect", () => process.exit(0));
send({ type: "ready", pid: process.pid });
