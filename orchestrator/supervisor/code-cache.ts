/**
 * The V8 code cache of a self-contained worker bundle (bundle-source.ts, workers/bundle-start.cjs),
 * made when the bundle is built: one warm-up worker is started from the new bundle, builds one
 * runner, runs one item against a stand-in model (warm-item.ts) and is shut down, and its start
 * script writes the cache of everything compiled so far (V8 keeps the functions a run compiled
 * lazily; Node's own compile cache is taken before any ran). So every later worker of that bundle
 * starts with the code its start and its first item run already compiled.
 *
 * The warm-up is handed no key and no gateway: its only peer is the stand-in, and it runs before
 * the bundle is moved into place, so the cache is part of the build as its files are. Where
 * bubblewrap works it runs sealed as the compile cache's warm-up does (sandbox/compile-cache.ts):
 * read-only root, a network namespace of its own whose one way out is the bridge to the stand-in
 * (the preload a sealed worker has, with one route), only the bundle's unplaced folder and a
 * scratch TMPDIR writable, so a framework's build at install can neither reach out nor leave
 * anything behind; without bubblewrap it runs as a plain child that reaches the stand-in on a
 * loopback port (the repository's own adapters only: a hostile fixture gets no warm-up,
 * worker-entry.ts). The item's outcome decides nothing: an adapter whose run fails on the
 * stand-in still caches what it compiled. The build is also the check that a script with a
 * framework inside works: if that build does not succeed, worker-entry.ts builds the ES module
 * layout instead. For the baseline's script a failed warm-up only costs the cache: the bundle is
 * still used, compiled from its text, and the build's outcome says why (worker-entry.ts puts that
 * in each worker's log). Telemetry is off in the warm-up as in every worker (disableTelemetry).
 */
import { fork, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AdapterRef, ToWorker } from "../../contract/protocol.ts";
import type { FromWorker } from "../../contract/protocol-replies.ts";
import { warmBuild } from "./sandbox/compile-cache.ts";
import { warmRun, WarmModel } from "./warm-item.ts";
import { BRIDGE_PRELOAD } from "./sandbox/bridge.ts";
import { bwrapArgs } from "./sandbox/bwrap.ts";
import { detectBwrap } from "./sandbox/mode.ts";
import { disableTelemetry } from "../../contract/telemetry.ts";

/** The file beside `bundle.cjs` that workers/bundle-start.cjs reads. */
export const CODE_CACHE_FILE = "bundle.code-cache";
const WARM_TIMEOUT_MS = 60_000;
/** How long the warm-up item may take before the worker is shut down anyway (what ran is cached). */
const ITEM_TIMEOUT_MS = 15_000;
/**
 * The stand-in's port inside a sealed warm-up's own network namespace: any free one, but not one
 * the Fetch standard blocks (the closed port 9 of the other warm-up is one), or every framework
 * whose SDK uses `fetch` refuses the URL before it connects.
 */
const BRIDGED_PORT = 24680;
const REPO = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

/** What a warm-up did: why no cache was written (none when it was), and whether its build succeeded. */
export interface WarmUp {
  readonly noCache?: string;
  readonly built: boolean;
  /** The build's failure, when it answered one. */
  readonly failure?: string;
  /** The warm-up item's end (`result`, `suspended` or `error`, as the worker answered, or why none came) and the model calls it made. */
  readonly item?: string;
}

/**
 * Start `start` (a bundle folder's start.cjs, not yet in place) with `ARENA_CODE_CACHE_OUT`, build
 * once, run the warm-up item and shut down.
 */
export async function makeCodeCache(start: string, adapter: AdapterRef, corpusPath: string): Promise<WarmUp> {
  const out = path.join(path.dirname(start), CODE_CACHE_FILE);
  const scratch = mkdtempSync(path.join(os.tmpdir(), "arena-code-cache-"));
  // Sealed: on a Unix socket the bridge reaches; unsealed: on a loopback port of its own.
  const socket = detectBwrap().ok ? path.join(scratch, "model.sock") : undefined;
  // A stand-in that cannot listen (a socket path too long for its temp dir) costs only the item's
  // share of the cache: the item then fails at once on the closed port, as the build alone did.
  const model = await WarmModel.listen(socket).catch(() => undefined);
  try {
    const checkpointDir = path.join(scratch, "checkpoint");
    mkdirSync(checkpointDir);
    const baseUrl = model === undefined ? undefined : `http://127.0.0.1:${model.port ?? BRIDGED_PORT}/v1`;
    const child = startWarmUp(start, out, scratch, model === undefined ? undefined : socket);
    const warm = await warmUp(child, out, { build: warmBuild(adapter, corpusPath, baseUrl), run: warmRun(checkpointDir) });
    return warm.item === undefined ? warm : { ...warm, item: `${warm.item} after ${model?.requests ?? 0} model call(s)` };
  } finally {
    await model?.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The warm-up worker: sealed where bubblewrap works (see the header), with `socket`, if any, bridged to BRIDGED_PORT; else a plain child. */
function startWarmUp(start: string, out: string, scratch: string, socket: string | undefined): ChildProcess {
  const env = disableTelemetry({ PATH: process.env.PATH ?? "", ARENA_CODE_CACHE_OUT: out, TMPDIR: scratch });
  const stdio = ["ignore", "ignore", "pipe", "ipc"] as const;
  const sandbox = detectBwrap();
  // No V8 flags: a worker's own are the orchestrator's Node options, and V8 refuses a cache made
  // under other V8 flags (the worker then compiles from the text and says so in its log).
  if (!sandbox.ok) return fork(start, [], { execArgv: [], serialization: "json", stdio: [...stdio], env, cwd: REPO });
  // `--require` is Node's option, not V8's: the preload a sealed worker starts with.
  const preload = socket === undefined ? [] : ["--require", BRIDGE_PRELOAD];
  if (socket !== undefined) env.ARENA_SANDBOX_BRIDGE = JSON.stringify([{ port: BRIDGED_PORT, socket }]);
  const sealed = bwrapArgs({ writable: [path.dirname(start), scratch], cwd: REPO, sealNetwork: true, maskRun: false });
  return spawn(sandbox.bwrap.path, [...sealed, "--", process.execPath, ...preload, start], { serialization: "json", stdio: [...stdio], env });
}

async function warmUp(child: ChildProcess, out: string, messages: { readonly build: ToWorker; readonly run: ToWorker }): Promise<WarmUp> {
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const timer = setTimeout(() => child.kill("SIGKILL"), WARM_TIMEOUT_MS);
  let answer: FromWorker["type"] | undefined;
  let failure: string | undefined;
  let item: string | undefined;
  let itemTimer: NodeJS.Timeout | undefined;
  const shutdown = () => {
    clearTimeout(itemTimer);
    if (child.connected) child.send({ type: "shutdown" } satisfies ToWorker);
  };
  child.on("message", (m: FromWorker) => {
    if (m.type === "ready") child.send(messages.build);
    else if (m.type === "built") {
      answer = m.type;
      child.send(messages.run);
      itemTimer = setTimeout(() => {
        item = `no answer in ${ITEM_TIMEOUT_MS / 1000} s`;
        shutdown();
      }, ITEM_TIMEOUT_MS);
    } else if (m.type === "build_failed") {
      answer = m.type;
      failure = `${m.kind}: ${m.reason.split("\n")[0]}`;
      shutdown();
    } else if ((m.type === "result" || m.type === "suspended" || m.type === "error") && item === undefined) {
      item = m.type;
      shutdown();
    }
  });
  child.on("error", () => child.kill("SIGKILL"));
  const code = await exited;
  clearTimeout(timer);
  clearTimeout(itemTimer);
  // A build_failed answer still went through the start and the first build: its cache is as good.
  const built = answer === "built";
  const failed = failure === undefined ? {} : { failure };
  const ran = item === undefined ? {} : { item };
  if (answer === undefined) return { built, noCache: `its warm-up worker did not answer the build (exit ${code}): ${stderr.trim().split("\n").pop() ?? ""}` };
  if (code !== 0 || !existsSync(out)) return { built, ...failed, ...ran, noCache: `its warm-up worker wrote none (exit ${code})` };
  return { built, ...failed, ...ran };
}
