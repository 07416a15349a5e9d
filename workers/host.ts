/**
 * The worker process entry point. It loads one adapter, builds a runner for each arena the
 * orchestrator asks for (one per arena + config and seat), and runs the legs it is sent: one at a
 * time per seat, the legs of different seats concurrently (contract/protocol.ts SeatSchema).
 * Everything it says goes over the IPC channel as protocol messages; anything the adapter prints
 * goes to the log file the orchestrator attached to stdout/stderr.
 */
import { pathToFileURL } from "node:url";
import type * as z from "zod/mini";
import { AgentResultSchema, ToWorkerSchema, type ToWorker, type WorkItem, type Json } from "../contract/protocol.ts";
// Types only: the orchestrator parses a worker's replies, so their schemas stay out of its script.
import type { FromWorker, FromWorkerSchema } from "../contract/protocol-replies.ts";
import type { Adapter, Runner, Toolbox } from "../contract/adapter.ts";
import { assertStrictJson } from "./strict-json.ts";
import { causeChain } from "./cause-chain.ts";
import { dispatch } from "../contract/tools/dispatch.ts";
import { loadCorpus, type Corpus } from "../contract/tools/search.ts";
import { disableTelemetry } from "../contract/telemetry.ts";

disableTelemetry(process.env);

const secondsSince = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e9;

/** What this side sends: defaults (an empty `causes`, …) are filled in by the schema on the other end. */
function send(message: z.input<typeof FromWorkerSchema>): void {
  process.send?.(message);
}

function describeError(err: unknown): { text: string; traceback: string } {
  if (err instanceof Error) return { text: `${err.name}: ${err.message}`, traceback: err.stack ?? "" };
  return { text: `Error: ${String(err)}`, traceback: "" };
}

/** The adapter this process serves (loaded by the first build) and its runner per arena id × seat. */
let loaded: { module: string; adapter: Adapter; libVersion: string } | undefined;
const runners = new Map<string, Runner>();
const runnerKey = (arena: string, seat: number) => `${seat}\u0000${arena}`;
const corpora = new Map<string, Corpus>();

/** What a bundled entry puts in its slot: the adapter it was built for, and how to load it. */
type BundledAdapter = { readonly module: string; readonly load: () => Promise<{ default?: unknown }> };

type LoadOutcome = { ok: true; adapter: Adapter; libVersion: string } | { ok: false; failed: Omit<Extract<FromWorker, { type: "build_failed" }>, "arena" | "seat"> };

async function loadAdapter(module: string): Promise<LoadOutcome> {
  if (loaded) {
    if (loaded.module === module) return { ok: true, adapter: loaded.adapter, libVersion: loaded.libVersion };
    const reason = `load failed: this worker serves ${loaded.module}, not ${module}`;
    return { ok: false, failed: { type: "build_failed", kind: "load_failed", reason, libVersion: loaded.libVersion, traceback: "" } };
  }
  let adapter: Adapter;
  try {
    // A bundled entry (orchestrator/supervisor/bundle-source.ts) carries its adapter in a chunk of
    // its own: loaded from there, contract/ and the rest exist once in the process.
    const bundled = (globalThis as Record<symbol, BundledAdapter | undefined>)[Symbol.for("agentic-arena.bundled-adapter")];
    const exports = bundled?.module === module ? await bundled.load() : await import(pathToFileURL(module).href);
    adapter = exports.default as Adapter;
    if (!adapter || typeof adapter.build !== "function") throw new Error(`${module} has no default Adapter export`);
  } catch (err) {
    const { text, traceback } = describeError(err);
    const notInstalled = /Cannot find (package|module)|ERR_MODULE_NOT_FOUND/.test(`${text} ${(err as any)?.code ?? ""}`);
    return {
      ok: false,
      failed: {
        type: "build_failed",
        kind: notInstalled ? "not_installed" : "load_failed",
        reason: notInstalled ? `library not installed: ${text}` : `load failed: ${text}`,
        libVersion: notInstalled ? "(not installed)" : "unknown",
        traceback,
      },
    };
  }
  let libVersion: string;
  try {
    libVersion = typeof adapter.libVersion === "function" ? adapter.libVersion() : adapter.libVersion;
  } catch (err) {
    libVersion = `unknown (${err instanceof Error ? err.message : String(err)})`;
  }
  // Before the first runner is built, so no item's clock carries it (contract/adapter.ts: usesFetch);
  // a data: URL loads the client without any network.
  if (adapter.usesFetch !== false) await fetch("data:,").then((r) => r.arrayBuffer()).catch(() => {});
  loaded = { module, adapter, libVersion };
  return { ok: true, adapter, libVersion };
}

function corpusAt(file: string): Corpus {
  let corpus = corpora.get(file);
  if (!corpus) corpora.set(file, (corpus = loadCorpus(file)));
  return corpus;
}

async function build(message: Extract<ToWorker, { type: "build" }>): Promise<void> {
  const arena = message.arena.id;
  const seat = message.seat;
  const load = await loadAdapter(message.adapter.module);
  if (!load.ok) {
    send({ ...load.failed, arena, seat });
    return;
  }
  const { adapter, libVersion } = load;
  let runner: Runner;
  try {
    // Inside the try: an unreadable corpus must answer the build, not leave it to time out.
    const corpus = corpusAt(message.corpusPath);
    const tools: Toolbox = { dispatch: (name, args) => dispatch(name, args, { corpus }) };
    runner = await adapter.build(message.arena, message.config, { tools });
  } catch (err) {
    const { text, traceback } = describeError(err);
    const stub = err instanceof Error && err.name === "NotImplementedError";
    send({
      type: "build_failed",
      arena,
      seat,
      kind: stub ? "stub" : "build_failed",
      reason: stub ? `stub adapter: ${err.message}` : `build failed: ${text}`,
      libVersion,
      traceback,
    });
    return;
  }
  runners.set(runnerKey(arena, seat), runner);
  send({ type: "built", arena, seat, libVersion, resumable: typeof runner.resume === "function", delegates: [...(adapter.delegates ?? [])],
    wireExceptions: (adapter.wireExceptions ?? []).map((e) => ({ key: e.key, reason: e.reason })),
  });
}

async function leg(job: string, call: () => Promise<unknown>): Promise<void> {
  // hrtime, not performance.now(): node:perf_hooks costs every worker ~1 ms of CPU to load at start.
  const started = process.hrtime.bigint();
  let raw: unknown;
  try {
    raw = await call();
  } catch (err) {
    const { text, traceback } = describeError(err);
    send({ type: "error", job, error: text, traceback, causes: causeChain(err), adapterSeconds: secondsSince(started) });
    return;
  }
  const adapterSeconds = secondsSince(started);
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

function requireRunner(arena: string, seat: number): Runner {
  const runner = runners.get(runnerKey(arena, seat));
  if (!runner) throw new Error(`protocol violation: run before a successful build of arena ${arena}`);
  return runner;
}

async function handle(message: ToWorker): Promise<void> {
  switch (message.type) {
    case "build":
      return build(message);
    case "run":
      // Inside leg(), so even a protocol violation answers the job instead of leaving it to time out.
      return leg(message.job, () => requireRunner(message.arena, message.seat).run(message.item as WorkItem));
    case "resume":
      return leg(message.job, async () => {
        const r = requireRunner(message.arena, message.seat);
        if (!r.resume) return { error: "adapter suspended but does not implement resume()" };
        return r.resume(message.item, message.state as Json, message.decision);
      });
    case "shutdown":
      process.exit(0);
  }
}

// A seat's messages are handled strictly one at a time, in order (a runner serves one leg at a
// time); legs of different seats overlap, as the items they carry wait on the provider. A build
// is a barrier: it waits for the builds before it, and every message sent after it waits for it
// (the first build loads the adapter, and a framework's build need not be reentrant). Shutdown
// waits for every seat. With one seat this is the single queue it always was.
const seats = new Map<number, Promise<void>>();
let builds: Promise<unknown> = Promise.resolve();
const logFailure = (err: unknown) => send({ type: "log", level: "error", message: describeError(err).text });
process.on("message", (raw) => {
  const parsed = ToWorkerSchema.safeParse(raw);
  if (!parsed.success) {
    send({ type: "log", level: "error", message: `invalid message from orchestrator: ${parsed.error.message}` });
    return;
  }
  const message = parsed.data;
  if (message.type === "shutdown") {
    void Promise.all([builds, ...seats.values()]).then(() => handle(message));
    return;
  }
  const done = Promise.all([builds, seats.get(message.seat)]).then(() => handle(message));
  if (message.type === "build") builds = done.catch(() => {});
  seats.set(message.seat, done.catch(logFailure));
});
process.on("disconnect", () => process.exit(0));
// fetch's client is loaded by the first build, for the adapters that use it (loadAdapter).
send({ type: "ready", pid: process.pid });
