/**
 * What a Node worker is started from: a bundle of the host and its adapter, built by esbuild
 * (issue 23 allows a build step), or the sources when there is none. Loading ~150 modules through
 * Node's ESM loader (zod alone is 95) cost a vanilla worker more CPU than evaluating them; one file
 * per adapter removes most of that.
 *
 * - The bundle holds the host, `contract/`, the workspace packages, the adapter's own files and,
 *   as one CommonJS script, its npm packages too (bundle-source.ts): one copy of each in the
 *   process (two copies of contract/ — one bundled, one imported by the adapter from its sources —
 *   would evaluate twice and break identity; so would two of zod), the adapter and its framework
 *   loaded by the host's first build as before. A package that loads a native addon is required
 *   from where it is installed. Where esbuild cannot make one script, or the script's warm-up
 *   build fails, it is ES modules with the npm packages external, and the note says why.
 * - It is current when every input esbuild read (its metafile) still has the content it was built
 *   from (an installed package's file: the same size and time; fingerprint, below), with the same
 *   esbuild and recipe: `pnpm install` builds every catalogue adapter's (scripts/worker-bundles.ts),
 *   and a run rebuilds a stale one before its first worker starts.
 * - It lives in `node_modules/.cache/arena-worker/`, which a sealed worker sees read-only.
 * - A script also gets a V8 code cache, made by a warm-up worker before the build is moved into
 *   place (code-cache.ts); it was made by this Node, so another Node finds the bundle stale and
 *   rebuilds it. A hostile fixture gets no warm-up, so a script only when it needs no npm package
 *   beyond the host's (bundle-source.ts).
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
import { CODE_CACHE_FILE, makeCodeCache, type WarmUp } from "./code-cache.ts";

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
  /** Repository-relative (or absolute) input path → its fingerprint when built. */
  readonly inputs: Readonly<Record<string, string>>;
  /** The entry file, relative to the adapter's folder here. */
  readonly entry: string;
  /** The Node that made a self-contained bundle's code cache (process.version); absent for the others. */
  readonly node?: string;
  /** Why it has no code cache, when its build knew (ES modules instead of a script, a failed warm-up). */
  readonly note?: string;
  /** How the warm-up's item ended (code-cache.ts): what of an item's run the code cache holds. */
  readonly warm_item?: string;
}

const current = new Map<string, WorkerEntry>();
const building = new Map<string, Promise<WorkerEntry>>();

const sha = (data: string | Buffer) => createHash("sha256").update(data).digest("hex");
const dirFor = (a: AdapterRef) => path.join(BUNDLE_ROOT, `${a.name.replace(/[^A-Za-z0-9_.-]/g, "_")}-${sha(a.module).slice(0, 8)}`);

/**
 * What says an input changed: the sha256 of its content, or for an installed package's file its
 * size and modification time. A framework's script reads ~2,000 such files (google_adk's), and
 * hashing them all cost every orchestrator ~0.1–0.4 s at its first worker; a package's files change
 * only by an install, which rewrites them.
 *
 * Memoised per process: a run's adapters share most inputs (every bundle holds the host and
 * contract/, a `-multi` variant its base's packages), so the TypeScript matrix's 13 checks read
 * the host's files 13 times each. A package's file is statted once per process (an install
 * mid-run is not supported anyway); a repository file is hashed again only when its stat
 * changes, so an edit made between two adapters' checks is still seen.
 */
const fingerprints = new Map<string, { readonly full: string; readonly stat: string; readonly print: string }>();

function fingerprint(file: string): string {
  const known = fingerprints.get(file);
  const full = known?.full ?? path.resolve(REPO, file);
  if (!full.includes(`${path.sep}node_modules${path.sep}`)) {
    const st = statSync(full);
    const stat = `${st.ino} ${st.size} ${st.mtimeMs}`;
    if (known?.stat === stat) return known.print;
    const print = sha(readFileSync(full));
    fingerprints.set(file, { full, stat, print });
    return print;
  }
  if (known) return known.print;
  const st = statSync(full);
  const print = `size ${st.size}, mtime ${st.mtimeMs}`;
  fingerprints.set(file, { full, stat: print, print });
  return print;
}

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
      if (fingerprint(file) !== hash) return undefined;
    } catch {
      return undefined;
    }
  }
  const file = path.join(dir, manifest.entry);
  if (!existsSync(file)) return undefined;
  // A self-contained bundle without its cache was built so on purpose or after a failed warm-up (build, below).
  const uncached = path.basename(file) === "start.cjs" && !existsSync(path.join(path.dirname(file), CODE_CACHE_FILE));
  const note = manifest.note ?? (uncached ? "no code cache: its build made none (a fixture's, or its warm-up failed)" : undefined);
  return { file, bundled: true, ...(note === undefined ? {} : { note }) };
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
  // The warm-up worker runs sealed only where bubblewrap works (code-cache.ts), so a hostile
  // fixture gets none: on a machine without it, its build would act on the machine (it compiles
  // from its text instead), and nothing checks a script with packages inside for it. An author's
  // adapter outside the repository has no bundle at all (above).
  const hostile = !path.relative(FIXTURES, path.resolve(REPO, adapter.module)).startsWith("..");
  const make = (packages: "all" | "host" | "none") => buildBundle({ repo: REPO, host: HOST_SOURCE, module: adapter.module, packages });
  let built: Built;
  try {
    built = await make(hostile ? "host" : "all");
  } catch (err) {
    return sources(`the bundle could not be built: ${(err as Error).message.split("\n")[0]}`);
  }
  let staged = await stage(adapter, built, hostile);
  // A framework's script that did not build its runner may be the script's fault (a package that
  // finds its files from its own folder, say): the ES module layout runs the packages where they are.
  if (built.packagesInside.length > 0 && !staged.warm.built) {
    rmSync(staged.scratch, { recursive: true, force: true });
    const why = staged.warm.failure ?? staged.warm.noCache ?? "no answer";
    try {
      built = { ...(await make("none")), note: `its one script's warm-up build failed (${why})` };
    } catch (err) {
      return sources(`the bundle could not be built: ${(err as Error).message.split("\n")[0]}`);
    }
    staged = await stage(adapter, built, hostile);
  }
  const { scratch, stamp, inputs, note, warm } = staged;
  const target = path.join(dirFor(adapter), stamp);
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
    ...(note === undefined ? {} : { note }),
    ...(warm.item === undefined ? {} : { warm_item: warm.item }),
  };
  const dir = dirFor(adapter);
  const tmp = path.join(dir, `.manifest-${process.pid}.json`);
  writeFileSync(tmp, `${JSON.stringify(manifest, null, 1)}\n`);
  renameSync(tmp, path.join(dir, "manifest.json"));
  pruneOlder(dir, stamp);
  return { file: path.join(target, built.entry), bundled: true, ...(note === undefined ? {} : { note }) };
}

/** A build's files written beside their place (a worker started meanwhile sees all of them or none), with a script's code cache made. */
async function stage(adapter: AdapterRef, built: Built, hostile: boolean) {
  const inputs: Record<string, string> = {};
  for (const file of built.inputs) inputs[file] = fingerprint(file);
  // A code cache is this Node's: another Node's build of the same inputs goes to a folder of its own.
  const stamp = sha(JSON.stringify([BUNDLE_RECIPE, adapter.module, inputs, built.selfContained ? process.version : ""])).slice(0, 16);
  const scratch = path.join(dirFor(adapter), `.tmp-${process.pid}-${stamp}`);
  rmSync(scratch, { recursive: true, force: true });
  for (const f of built.files) {
    mkdirSync(path.dirname(path.join(scratch, f.path)), { recursive: true });
    writeFileSync(path.join(scratch, f.path), f.contents);
  }
  // Before the rename: a worker that finds the bundle finds its cache with it.
  const warm: WarmUp = !built.selfContained ? { built: false }
    : hostile ? { built: false, noCache: "a fixture: its warm-up would run its build outside the sandbox" }
    : await makeCodeCache(path.join(scratch, built.entry), adapter, DEFAULT_CORPUS_PATH);
  const note = built.note !== undefined ? `no code cache: ES modules, as ${built.note}` : warm.noCache !== undefined ? `no code cache: ${warm.noCache}` : undefined;
  return { scratch, stamp, inputs, warm, note };
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
