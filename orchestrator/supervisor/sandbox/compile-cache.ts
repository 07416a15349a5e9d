/**
 * Node's compile cache for sealed workers. It halves a worker's start (measured: vanilla 333 →
 * 176 ms, langgraph 801 → 551 ms), so sealed workers must have it — but a cache directory every
 * worker may write is a place to keep state across the durable restart, and across runs, outside
 * the harness-owned checkpoint directory. So:
 *
 * - each adapter has its own cache (one adapter cannot plant code cache for another), and
 * - its workers see it read-only (Node reads a read-only cache and silently skips the write);
 * - it is filled by a warm-up: once per process and adapter, unless a marker says it is current,
 *   a sealed host with only the cache writable builds one runner and exits. It is never handed an
 *   item, a key or a network, so nothing it writes can carry anything a run produced. The first
 *   workers do not wait for it.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync, type Dirent } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { execaNode } from "execa";
import type { AdapterRef, ToWorker } from "../../../contract/protocol.ts";
import { disableTelemetry } from "../../../contract/telemetry.ts";
import { BRIDGE_PRELOAD_FILES } from "./bridge.ts";
import { bwrapArgs } from "./bwrap.ts";
import type { Bwrap } from "./mode.ts";

const ROOT = path.join(os.tmpdir(), "agentic-arena-compile-cache-sealed");
const HOST = fileURLToPath(new URL("../../../workers/host.ts", import.meta.url));
const REPO = fileURLToPath(new URL("../../..", import.meta.url)).replace(/\/$/, "");
const WARM_TIMEOUT_MS = 60_000;

const started = new Map<string, Promise<boolean>>();

/**
 * What decides whether a warm-up is current: the Node build and flags, the adapter module, and
 * the modification time of every source a worker can compile — the adapter's folder, `contract/`,
 * `workers/`, the fixtures' shared support, the bridge preload — and the lockfile (dependencies).
 * A worker sees its cache read-only, so an entry Node finds stale it recompiles on every start
 * and can never rewrite: a stamp that missed an edited `contract/` file cost every sealed worker
 * ~40 ms of CPU until its adapter's folder changed (measured: 20 sealed vanilla starts, stale
 * cache 7.4 s, fresh 5.1–5.4 s; docs/performance.md). So every source counts: ~200 stats, once
 * per process and adapter.
 */
export function warmStamp(module: string, nodeOptions: readonly string[], repo = REPO, host = HOST): string {
  const sources = [path.dirname(module), ...STAMPED_TREES.map((d) => path.join(repo, d))].flatMap((dir) => sourcesUnder(dir));
  const files = [path.join(repo, "pnpm-lock.yaml"), ...BRIDGE_PRELOAD_FILES, ...new Set(sources)];
  const stats = files.map((f) => `${f}:${statSync(f, { throwIfNoEntry: false })?.mtimeMs ?? "-"}`);
  // The host file too: a bundle's path names its build (worker-entry.ts), and a worker started from another file compiles other code.
  return createHash("sha256").update(JSON.stringify([process.version, nodeOptions, module, host, stats])).digest("hex").slice(0, 16);
}

/** The worker tree's own sources (node_modules is the lockfile's). */
const STAMPED_TREES = ["contract", "workers", path.join("fixtures", "support")];

/** The warm-up's base URL when nothing is to answer: a closed port. */
const WARM_CLOSED_URL = "http://127.0.0.1:9/v1";

function sourcesUnder(dir: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return e.name === "node_modules" ? [] : sourcesUnder(full);
    return /\.(ts|mts|js|mjs|cjs|json)$/.test(e.name) ? [full] : [];
  });
}

/**
 * The adapter's cache directory (created if needed), and in the background a warm-up of it when
 * none is current. Resolves whether a warm-up ran and succeeded (tests wait on it).
 */
export function sealedCache(
  adapter: AdapterRef,
  corpusPath: string,
  bwrap: Bwrap,
  nodeOptions: readonly string[],
  host = HOST,
): { dir: string; warmed: Promise<boolean> } {
  const dir = path.join(ROOT, adapter.name.replace(/[^A-Za-z0-9_.-]/g, "_"));
  mkdirSync(dir, { recursive: true });
  let warmed = started.get(dir);
  if (!warmed) {
    const marker = path.join(dir, `.warm-${warmStamp(adapter.module, nodeOptions, REPO, host)}`);
    warmed = existsSync(marker) ? Promise.resolve(false) : warmUp(dir, marker, adapter, corpusPath, bwrap, nodeOptions, host);
    started.set(dir, warmed);
  }
  return { dir, warmed };
}

/**
 * A build a warm-up asks for (this one and code-cache.ts's): durable, so checkpointers load too.
 * Nothing answers on the network unless `baseUrl` names the stand-in model code-cache.ts runs its
 * item against (warm-item.ts), which takes a tool call and an answer: two model calls.
 */
export function warmBuild(adapter: AdapterRef, corpusPath: string, baseUrl: string = WARM_CLOSED_URL): ToWorker {
  return {
    type: "build",
    adapter,
    arena: { id: "warm_up", tools: ["search", "calculator", "save_progress"], systemPrompt: "Warm-up.", durable: true },
    config: { model: "warm-up", baseUrl, apiKey: "warm-up", temperature: 0, requestTimeoutS: 5, maxToolIterations: 3 },
    corpusPath,
    seat: 0,
  };
}

/**
 * Start the host sealed with only the cache (and a scratch checkpoint folder, deleted after)
 * writable, have it build one runner — which loads the adapter and its framework, most of what
 * a worker compiles — and shut it down; Node writes the cache as it exits.
 */
async function warmUp(dir: string, marker: string, adapter: AdapterRef, corpusPath: string, bwrap: Bwrap, nodeOptions: readonly string[], host: string): Promise<boolean> {
  const scratch = mkdtempSync(path.join(os.tmpdir(), "arena-warm-"));
  try {
    const args = bwrapArgs({ writable: [dir, scratch], cwd: REPO, sealNetwork: true, maskRun: false });
    const child = execaNode(host, [], {
      ipc: true,
      serialization: "json",
      env: disableTelemetry({ PATH: process.env.PATH ?? "", NODE_COMPILE_CACHE: dir, TMPDIR: scratch }),
      extendEnv: false,
      stdin: "ignore",
      stdout: "ignore",
      stderr: "ignore",
      reject: false,
      timeout: WARM_TIMEOUT_MS,
      nodePath: bwrap.path,
      nodeOptions: [...args, "--", process.execPath, ...nodeOptions],
    });
    try {
      await child.getOneMessage({ filter: (m) => (m as { type?: string }).type === "ready" });
      await child.sendMessage(warmBuild(adapter, corpusPath) as never);
      await child.getOneMessage({ filter: (m) => ["built", "build_failed"].includes((m as { type?: string }).type ?? "") });
      await child.sendMessage({ type: "shutdown" });
    } catch {
      // It died or timed out: whatever it wrote is still valid cache (Node checks every entry).
    }
    const result = await child;
    if (result.exitCode !== 0) return false;
    writeFileSync(marker, "");
    return true;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}
