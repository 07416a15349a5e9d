/**
 * Where the CLI's bundle lives and what it is made of: shared by the check (fresh.mjs) and the
 * build (build.ts). Plain JavaScript, loaded before any TypeScript.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

export const REPO = fileURLToPath(new URL("../../..", import.meta.url)).replace(/\/$/, "");
/** Inside node_modules: made by the install, removed with it, never committed. */
export const CACHE_DIR = path.join(REPO, "node_modules", ".cache", "agentic-arena-cli");
export const MANIFEST = path.join(CACHE_DIR, "manifest.json");
/** What bin.mjs takes from the CLI's modules; the bundle's one file exports exactly these. */
export const ENTRY_SOURCE = [
  'export { main } from "./orchestrator/cli/main.ts";',
  'export { EXIT_INFRA } from "./orchestrator/cli/exit-codes.ts";',
  'export { terminalWriter } from "./orchestrator/cli/terminal.ts";',
].join("\n");
/** CommonJS, so load.mjs can run it from a V8 code cache (a vm.Script; an ES module cannot be given one). */
export const BUNDLE_FILE = "cli.cjs";
export const MANIFEST_VERSION = 2;
