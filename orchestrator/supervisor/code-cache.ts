/**
 * The V8 code cache of a self-contained worker bundle (bundle-source.ts, workers/bundle-start.cjs),
 * made when the bundle is built: one warm-up worker is started from the new bundle, builds one
 * runner and is shut down, and its start script writes the cache of everything compiled so far
 * (V8 keeps the functions a run compiled lazily; Node's own compile cache is taken before any
 * ran). So every later worker of that bundle starts with the code its start runs already compiled.
 *
 * The warm-up is handed no item, no key and no reachable gateway (a closed port; building sends no
 * request), and it runs before the bundle is moved into place, so the cache is part of the build
 * as its files are. Where bubblewrap works it runs sealed as the compile cache's warm-up does
 * (sandbox/compile-cache.ts): read-only root, no network, only the bundle's unplaced folder and a
 * scratch TMPDIR writable, so a framework's build at install can neither reach out nor leave
 * anything behind; without bubblewrap it runs as a plain child (the repository's own adapters
 * only: a hostile fixture gets no warm-up, worker-entry.ts). It is also the check that a script with a framework inside works: if that
 * build does not succeed, worker-entry.ts builds the ES module layout instead. For the baseline's
 * script a failed warm-up only costs the cache: the bundle is still used, compiled from its text,
 * and the build's outcome says why (worker-entry.ts puts that in each worker's log). Telemetry is
 * off in the warm-up as in every worker (disableTelemetry).
 */
import { fork, spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AdapterRef, ToWorker } from "../../contract/protocol.ts";
import type { FromWorker } from "../../contract/protocol-replies.ts";
import { warmBuild } from "./sandbox/compile-cache.ts";
import { bwrapArgs } from "./sandbox/bwrap.ts";
import { detectBwrap } from "./sandbox/mode.ts";
import { disableTelemetry } from "../../contract/telemetry.ts";

/** The file beside `bundle.cjs` that workers/bundle-start.cjs reads. */
export const CODE_CACHE_FILE = "bundle.code-cache";
const WARM_TIMEOUT_MS = 60_000;
const REPO = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");

/** What a warm-up did: why no cache was written (none when it was), and whether its build succeeded. */
export interface WarmUp {
  readonly noCache?: string;
  readonly built: boolean;
  /** The build's failure, when it answered one. */
  readonly failure?: string;
}

/**
 * Start `start` (a bundle folder's start.cjs, not yet in place) with `ARENA_CODE_CACHE_OUT`, build
 * once and shut down.
 */
export async function makeCodeCache(start: string, adapter: AdapterRef, corpusPath: string): Promise<WarmUp> {
  const out = path.join(path.dirname(start), CODE_CACHE_FILE);
  const scratch = mkdtempSync(path.join(os.tmpdir(), "arena-code-cache-"));
  try {
    return await warmUp(startWarmUp(start, out, scratch), out, adapter, corpusPath);
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

/** The warm-up worker: sealed where bubblewrap works (see the header), else a plain child. */
function startWarmUp(start: string, out: string, scratch: string): ChildProcess {
  const env = disableTelemetry({ PATH: process.env.PATH ?? "", ARENA_CODE_CACHE_OUT: out, TMPDIR: scratch });
  const stdio = ["ignore", "ignore", "pipe", "ipc"] as const;
  const sandbox = detectBwrap();
  // No Node flags: a worker's own are the orchestrator's Node options, and V8 refuses a cache
  // made under other V8 flags (the worker then compiles from the text and says so in its log).
  if (!sandbox.ok) return fork(start, [], { execArgv: [], serialization: "json", stdio: [...stdio], env });
  const sealed = bwrapArgs({ writable: [path.dirname(start), scratch], cwd: REPO, sealNetwork: true, maskRun: false });
  return spawn(sandbox.bwrap.path, [...sealed, "--", process.execPath, start], { serialization: "json", stdio: [...stdio], env });
}

async function warmUp(child: ChildProcess, out: string, adapter: AdapterRef, corpusPath: string): Promise<WarmUp> {
  let stderr = "";
  child.stderr?.on("data", (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  const timer = setTimeout(() => child.kill("SIGKILL"), WARM_TIMEOUT_MS);
  let answer: FromWorker["type"] | undefined;
  let failure: string | undefined;
  child.on("message", (m: FromWorker) => {
    if (m.type === "ready") child.send(warmBuild(adapter, corpusPath));
    else if (m.type === "built" || m.type === "build_failed") {
      answer = m.type;
      if (m.type === "build_failed") failure = `${m.kind}: ${m.reason.split("\n")[0]}`;
      child.send({ type: "shutdown" } satisfies ToWorker);
    }
  });
  child.on("error", () => child.kill("SIGKILL"));
  const code = await exited;
  clearTimeout(timer);
  // A build_failed answer still went through the start and the first build: its cache is as good.
  const built = answer === "built";
  const failed = failure === undefined ? {} : { failure };
  if (answer === undefined) return { built, noCache: `its warm-up worker did not answer the build (exit ${code}): ${stderr.trim().split("\n").pop() ?? ""}` };
  if (code !== 0 || !existsSync(out)) return { built, ...failed, noCache: `its warm-up worker wrote none (exit ${code})` };
  return { built, ...failed };
}
