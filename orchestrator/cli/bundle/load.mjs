/**
 * Runs the CLI's bundle (one CommonJS script, built by build.ts) from a V8 code cache written by
 * an earlier command, as workers/bundle-start.cjs runs a worker's bundle.
 *
 * Why not import it: Node's compile cache is made when a file is compiled, so it holds only the
 * functions V8 compiles eagerly, and every function a command calls was compiled again by every
 * command (~0.2 s of CPU for `arena run` on one item). A cache V8 writes from a script *after* it
 * ran holds what ran, and the functions it was itself loaded with. So the cache is written at exit:
 *
 * - by a command that found none (or one V8 refused, when the process runs with Node's default
 *   flags: a cache made under `--cpu-prof`, say, is never written for the rest to refuse);
 * - again by the first command that runs items (`run`, `bench`, `probe`) after one written by a
 *   command that does not: they call most of the orchestrator, and the cache keeps what the
 *   first one had besides.
 *
 * After that the cache stays until the bundle is rebuilt (a new folder). Writing it costs ~25–40 ms
 * at that one exit; it goes to a file of the process's own and is renamed into place, so parallel
 * commands never read half of one. A missing, refused or unwritable cache only costs time: the
 * bundle is compiled from its text, and the command does what it does either way.
 */
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import vm from "node:vm";

/** The commands that run items: the widest use of the orchestrator's code. */
const RUNS_ITEMS = new Set(["run", "bench", "probe"]);

/** The cache's file beside the bundle, and the note of who wrote it. */
export function codeCacheFiles(bundleFile) {
  const base = bundleFile.replace(/\.cjs$/, "");
  return { cache: `${base}.code-cache`, note: `${base}.code-cache.json` };
}

function readNote(file) {
  try {
    const note = JSON.parse(readFileSync(file, "utf8"));
    return { runsItems: note?.runsItems === true };
  } catch {
    return { runsItems: false };
  }
}

/**
 * Evaluates the bundle and returns its exports and what became of its code cache: `used`,
 * `refused` (V8 would not take it: another Node build or other V8 flags) or `none`. `command` is
 * the CLI's first argument: it decides whether this process writes the cache at exit.
 */
export function loadBundle(bundleFile, command) {
  const files = codeCacheFiles(bundleFile);
  let cachedData;
  try {
    cachedData = readFileSync(files.cache);
  } catch {
    cachedData = undefined;
  }
  // Wrapped as Node wraps a CommonJS module, so the bundle gets a `require` of its own
  // (piscina and esbuild stay packages, found from the bundle's folder in node_modules).
  const wrapped = `(function (exports, require, module, __filename, __dirname) {${readFileSync(bundleFile, "utf8")}\n})`;
  const script = new vm.Script(wrapped, {
    filename: bundleFile,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  const cache = cachedData === undefined ? "none" : script.cachedDataRejected ? "refused" : "used";
  const runsItems = RUNS_ITEMS.has(command ?? "");
  const defaultFlags = process.execArgv.length === 0;
  const write =
    cache === "none" || (cache === "refused" && defaultFlags) || (cache === "used" && runsItems && !readNote(files.note).runsItems);
  if (write) process.once("exit", () => writeCodeCache(script, files, runsItems));
  const module = { exports: {} };
  script.runInThisContext()(module.exports, createRequire(bundleFile), module, bundleFile, path.dirname(bundleFile));
  return { exports: module.exports, cache };
}

function writeCodeCache(script, files, runsItems) {
  const own = `.${process.pid}.tmp`;
  try {
    writeFileSync(files.cache + own, script.createCachedData());
    writeFileSync(files.note + own, JSON.stringify({ runsItems, node: process.version }));
    renameSync(files.cache + own, files.cache);
    renameSync(files.note + own, files.note);
  } catch {
    // A read-only install, a full disk: the next command compiles from the text, as this one did.
    rmSync(files.cache + own, { force: true });
    rmSync(files.note + own, { force: true });
  }
}
