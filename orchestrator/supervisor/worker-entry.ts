/**
 * What a Node worker is started from: a bundle of the host and its adapter, built by esbuild
 * (issue 23 allows a build step), or the sources when there is none. Loading ~150 modules through
 * Node's ESM loader (zod alone is 95) cost a vanilla worker more CPU than evaluating them; one file
 * per adapter removes most of that.
 *
 * - The bundle holds the host, `contract/`, the workspace packages and the adapter's own files, so
 *   there is one copy of each in the process (two copies of contract/ — one bundled, one imported
 *   by the adapter from its sources — would evaluate twice and break identity). The adapter is in
 *   a chunk of its own, loaded by the host's first build as before (bundle-source.ts).
 * - npm packages stay external (loaded from node_modules, as from the sources): a framework and
 *   the adapter must share one zod, one SDK. Only an adapter that imports no npm package beyond
 *   the host's own (the baseline) gets those bundled too.
 * - It is current when every input esbuild read (its metafile) still has the content it was built
 *   from, with the same esbuild and recipe: `pnpm install` builds every catalogue adapter's
 *   (scripts/worker-bundles.ts), and a run rebuilds a stale one before its first worker starts.
 * - It lives in `node_modules/.cache/arena-worker/`, which a sealed worker sees read-only.
 * - A self-contained bundle (the baseline's) also gets a V8 code cache, made by a warm-up worker
 *   before the build is moved into place (code-cache.ts); it was made by this Node, so another
 *   Node finds the bundle stale and rebuilds it.
 * - Without esbuild, for an adapter outside the repository, with `ARENA_WORKER_BUNDLE=off`, or if
 *   the build fails, workers start from the sources; the worker log says so and why.
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import type { AdapterRef } from "../../contract/protocol.ts";
import { runtimeOf } from "../../contract/runtime.ts";
import { ConfigError, quoted } from "../config/values.ts";
import { DEFAULT_CORPUS_PATH } from "../../contract/tools/corpus-path.ts";
import { buildBundle, BUNDLE_RECIPE, type Built } from "./bundle-source.ts";
import { CODE_CACHE_FILE, makeCodeCache } from "./code-cache.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url)).replace(/\/$/, "");
/** The hostile adapters (fixtures/): never run outside the sandbox, not even to warm a cache. */
const FIXTURES = path.join(REPO, "fixtures");
/** The host's sources: what a worker runs without a bundle. */
export const HOST_SOURCE = path.join(REPO, "workers", "host.ts");
export const BUNDLE_ROOT = path.join(REPO, "node_modules", ".cache", "arena-worker");

export interface WorkerEntry {
  /** The file `node` runs. */
  readonly file: string;
  readonly bundled: boolean;
  /** Why the sources, when it is not a bundle (for the worker log); for a bundle, why it has no code cache. */
  readonly note?: string;
}

interface Manifest {
  readonly recipe: string;
  readonly module: string;
  /** Repository-relative (or absolute) input path → sha256 of its content when built. */
  readonly inputs: Readonly<Record<string, string>>;
  /** The entry file, relative to the adapter's folder here. */
  readonly entry: string;
  /** The Node that made a self-contained bundle's code cache (process.version); absent for the others. */
  readonly node?: string;
}

const current = new Map<string, WorkerEntry>();
const building = new Map<string, Promise<WorkerEntry>>();

const sha = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const dirFor = (a: AdapterRef) => path.join(BUNDLE_ROOT, `${a.name.replace(/[^A-Za-z0-9_.-]/g, "_")}-${sha(a.module).slice(0, 8)}`);

function sources(note: string): WorkerEntry {
  return { file: HOST_SOURCE, bundled: false, note };
}

/**
 * `ARENA_WORKER_BUNDLE`: `on` (or unset) starts Node workers from their bundles, `off` from the
 * sources (for measuring one against the other, or debugging with the sources' line numbers).
 * Anything else is a ConfigError, thrown where a run checks its settings (the Isolation of each pool).
 */
export function readBundleSetting(env: Readonly<Record<string, string | undefined>>): "on" | "off" {
  const raw = env.ARENA_WORKER_BUNDLE?.trim().toLowerCase() ?? "";
  if (raw === "" || raw === "on") return "on";
  if (raw === "off") return "off";
  throw new ConfigError("ARENA_WORKER_BUNDLE", `${quoted(env.ARENA_WORKER_BUNDLE!)} is not on or off`);
}

/** Why this adapter is not bundled at all, or undefined when it can be. */
function unbundled(adapter: AdapterRef, env: NodeJS.ProcessEnv): string | undefined {
  // A bad value was refused before the run (readBundleSetting); here only `off` counts.
  if (env.ARENA_WORKER_BUNDLE?.trim().toLowerCase() === "off") return "ARENA_WORKER_BUNDLE=off";
  const rel = path.relative(REPO, path.resolve(adapter.module));
  // Its npm imports resolve from where it lives; from the bundle's folder they would resolve from this repository's.
  if (rel.startsWith("..") || path.isAbsolute(rel) || rel.split(path.sep).includes("node_modules")) return "the adapter lives outside the repository";
  return undefined;
}

/** The adapter's bundle when the one on disk is current (every input unchanged), else undefined. */
function onDisk(adapter: AdapterRef): WorkerEntry | undefined {
  const dir = dirFor(adapter);
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(path.join(dir, "manifest.json"), "utf8")) as Manifest;
  } catch {
    return undefined;
  }
  if (manifest.recipe !== BUNDLE_RECIPE || manifest.module !== adapter.module) return undefined;
  if (manifest.node !== undefined && manifest.node !== process.version) return undefined;
  for (const [file, hash] of Object.entries(manifest.inputs)) {
    try {
      if (sha(readFileSync(path.resolve(REPO, file))) !== hash) return undefined;
    } catch {
      return undefined;
    }
  }
  const file = path.join(dir, manifest.entry);
  if (!existsSync(file)) return undefined;
  // A self-contained bundle without its cache was built so on purpose or after a failed warm-up (build, below).
  const uncached = path.basename(file) === "start.cjs" && !existsSync(path.join(path.dirname(file), CODE_CACHE_FILE));
  return { file, bundled: true, ...(uncached ? { note: "no code cache: its build made none (a fixture's, or its warm-up failed)" } : {}) };
}

/**
 * The entry to start now, without building: the adapter's bundle if it is known or found current,
 * else the sources. WorkerProcess.start awaits {@link prepareWorkerEntry} first, so a run's
 * workers find it here; a caller that spawns directly gets what is on disk.
 */
export function workerEntry(adapter: AdapterRef, env: NodeJS.ProcessEnv = process.env): WorkerEntry {
  if (runtimeOf(adapter) === "python") return sources("the Python host has no bundle");
  const skip = unbundled(adapter, env);
  if (skip !== undefined) return sources(skip);
  const known = current.get(adapter.module);
  if (known) return known;
  const found = onDisk(adapter);
  if (found) current.set(adapter.module, found);
  return found ?? sources("no current bundle (sources changed since it was built, or none was built)");
}

/**
 * Make the adapter's bundle current, building it if it is missing or stale; once per process and
 * module. Synchronous when there is nothing to build, so a caller that needs the spawn to happen
 * in the same tick (a measurement forking into a cgroup) gets it.
 */
export function prepareWorkerEntry(adapter: AdapterRef, env: NodeJS.ProcessEnv = process.env): WorkerEntry | Promise<WorkerEntry> {
  const now = workerEntry(adapter, env);
  if (now.bundled || runtimeOf(adapter) === "python" || unbundled(adapter, env) !== undefined) return now;
  const failed = current.get(adapter.module);
  if (failed) return failed;
  let pending = building.get(adapter.module);
  if (!pending) {
    pending = build(adapter).then((entry) => {
      current.set(adapter.module, entry);
      return entry;
    });
    building.set(adapter.module, pending);
  }
  return pending;
}

async function build(adapter: AdapterRef): Promise<WorkerEntry> {
  let built: Built;
  try {
    built = await buildBundle({ repo: REPO, host: HOST_SOURCE, module: adapter.module });
  } catch (err) {
    return sources(`the bundle could not be built: ${(err as Error).message.split("\n")[0]}`);
  }
  const inputs: Record<string, string> = {};
  for (const file of built.inputs) inputs[file] = sha(readFileSync(path.resolve(REPO, file)));
  // A code cache is this Node's: another Node's build of the same inputs goes to a folder of its own.
  const stamp = sha(JSON.stringify([BUNDLE_RECIPE, adapter.module, inputs, built.selfContained ? process.version : ""])).slice(0, 16);
  const dir = dirFor(adapter);
  const target = path.join(dir, stamp);
  // Written beside, then renamed into place: a worker started meanwhile sees all of it or none.
  const scratch = path.join(dir, `.tmp-${process.pid}-${stamp}`);
  rmSync(scratch, { recursive: true, force: true });
  for (const f of built.files) {
    mkdirSync(path.dirname(path.join(scratch, f.path)), { recursive: true });
    writeFileSync(path.join(scratch, f.path), f.contents);
  }
  // Before the rename: a worker that finds the bundle finds its cache with it. The warm-up worker
  // runs outside the sandbox, so a hostile fixture gets none: its build could act on the machine
  // there (it compiles from its text instead). An author's adapter outside the repository has no
  // bundle at all (above).
  const hostile = !path.relative(FIXTURES, path.resolve(REPO, adapter.module)).startsWith("..");
  const note = !built.selfContained ? undefined
    : hostile ? "a fixture: its warm-up would run its build outside the sandbox"
    : await makeCodeCache(path.join(scratch, built.entry), adapter, DEFAULT_CORPUS_PATH);
  const cacheNote = note === undefined ? {} : { note: `no code cache: ${note}` };
  if (!existsSync(target)) {
    try {
      renameSync(scratch, target);
    } catch (err) {
      // Another process put the same build there first: its files are these.
      if (!existsSync(target)) return sources(`the bundle could not be written: ${(err as Error).message}`);
    }
  }
  rmSync(scratch, { recursive: true, force: true });
  const manifest: Manifest = {
    recipe: BUNDLE_RECIPE, module: adapter.module, inputs, entry: path.join(stamp, built.entry),
    ...(built.selfContained ? { node: process.version } : {}),
  };
  const tmp = path.join(dir, `.manifest-${process.pid}.json`);
  writeFileSync(tmp, `${JSON.stringify(manifest, null, 1)}\n`);
  renameSync(tmp, path.join(dir, "manifest.json"));
  pruneOlder(dir, stamp);
  return { file: path.join(target, built.entry), bundled: true, ...cacheNote };
}

/**
 * Earlier builds of this adapter, once a day old: a worker of a run still going may have been
 * started from one and load its adapter's chunk at its first build, so a fresh one is kept.
 */
function pruneOlder(dir: string, keep: string): void {
  const dayAgo = Date.now() - 24 * 3600 * 1000;
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    if (name === keep || name === "manifest.json") continue;
    if ((statSync(full, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < dayAgo) rmSync(full, { recursive: true, force: true });
  }
}
