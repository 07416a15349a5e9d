"use strict";
/**
 * What a Node worker runs when its adapter's bundle is one self-contained script (the host, the
 * adapter and its npm packages, the framework's included; orchestrator/supervisor/bundle-source.ts).
 * Copied beside `bundle.cjs` when the bundle is built; plain CommonJS, so it needs no loader of its own.
 *
 * Why not let Node run the bundle: Node's compile cache (NODE_COMPILE_CACHE) is made when a file is
 * compiled, so it holds only the functions V8 compiles eagerly; every function a start calls (zod
 * building the protocol's schemas, the first parse of a message, the tools, the corpus) was
 * compiled again in every worker. Here the bundle is compiled with a V8 code cache made *after* a
 * warm-up worker's first build (`bundle.code-cache`, written by the build step: supervisor/
 * code-cache.ts), so those functions arrive compiled. Measured on vanilla (scripts/host-start.ts,
 * whole-tree CPU, as in a run): 116–120 ms with the ES module bundle and Node's cache, 77–82 here;
 * a framework's worker, whose packages no longer go through the ES module loader one by one,
 * starts in a quarter to a half of its ES module bundle's CPU (docs/performance.md).
 *
 * A cache V8 refuses (another Node or V8 flags) or a missing one only costs time: the bundle is
 * compiled from its text, and the worker log says so. With `ARENA_CODE_CACHE_OUT` set (the
 * warm-up only), the cache is written there when the process exits normally (the shutdown message).
 */
const fs = require("node:fs");
const path = require("node:path");
const vm = require("node:vm");
const { createRequire } = require("node:module");

const file = path.join(__dirname, "bundle.cjs");
const cacheFile = path.join(__dirname, "bundle.code-cache");
const out = process.env.ARENA_CODE_CACHE_OUT;
// The warm-up's own setting: the adapter it builds has no business seeing it.
delete process.env.ARENA_CODE_CACHE_OUT;

let cachedData;
if (out === undefined) {
  try {
    cachedData = fs.readFileSync(cacheFile);
  } catch {
    process.stderr.write("worker start: no code cache beside the bundle; compiling it from its text\n");
  }
}
// The bundle is CommonJS text; wrapped as Node wraps a module, so it gets a `require` of its own.
const wrapped = `(function (exports, require, module, __filename, __dirname) {${fs.readFileSync(file, "utf8")}\n})`;
const script = new vm.Script(wrapped, {
  filename: file,
  cachedData,
  // An adapter outside the bundle (a module path of another adapter) is imported as from the sources.
  importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
});
if (cachedData !== undefined && script.cachedDataRejected) {
  process.stderr.write(`worker start: the code cache was refused (another Node build or V8 flags: ${process.version} ${process.execArgv.join(" ")}); compiling the bundle from its text\n`);
}
if (out !== undefined) process.once("exit", () => fs.writeFileSync(out, script.createCachedData()));
const own = { exports: {} };
script.runInThisContext()(own.exports, createRequire(file), own, file, __dirname);
