/**
 * Which code `arena` starts from: one bundle of the CLI (orchestrator/, contract/, the
 * Python-semantics package and the pure-ESM packages they import, built by build.ts), used only
 * when it was built from exactly the files on disk now; the sources otherwise. Why: from the
 * sources the ESM loader resolves, reads and links some 300 modules one by one before `arena`
 * does anything, about 0.3 s of CPU on every command (docs/performance.md, "The CLI's own start").
 *
 * Plain JavaScript, like bin.mjs: it runs before anything would load the TypeScript stripper.
 * The check is one stat per input file against the modification time and size build.ts recorded
 * before reading it, so an edit made during a build, or after it, makes the bundle stale.
 * `ARENA_CLI_BUNDLE=off` starts from the sources whatever the bundle is (for a debugger or a stack
 * trace with source lines); `on`, the default, from the bundle.
 */
import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { BUNDLE_FILE, MANIFEST, MANIFEST_VERSION, REPO } from "./layout.mjs";
import { loadBundle } from "./load.mjs";

/**
 * The bundle's file when every input is as it was built from; otherwise undefined (no bundle,
 * another Node, a changed, moved or deleted input).
 */
export function freshBundle(manifestFile = MANIFEST) {
  let manifest;
  try {
    manifest = JSON.parse(readFileSync(manifestFile, "utf8"));
  } catch {
    return undefined;
  }
  if (manifest?.version !== MANIFEST_VERSION || manifest.node !== process.version || !Array.isArray(manifest.inputs)) return undefined;
  for (const [file, mtimeMs, size] of manifest.inputs) {
    const now = statSync(path.join(REPO, file), { throwIfNoEntry: false });
    if (!now || now.mtimeMs !== mtimeMs || now.size !== size) return undefined;
  }
  const file = path.join(path.dirname(manifestFile), String(manifest.dir), BUNDLE_FILE);
  return statSync(file, { throwIfNoEntry: false })?.isFile() ? file : undefined;
}

/** `ARENA_CLI_BUNDLE`, read as ARENA_WORKER_BUNDLE is: `on` (or unset) or `off`; anything else is a mistake to refuse. */
export function cliBundleSetting(env = process.env) {
  const raw = env.ARENA_CLI_BUNDLE?.trim().toLowerCase() ?? "";
  if (raw === "" || raw === "on") return "on";
  if (raw === "off") return "off";
  return { invalid: env.ARENA_CLI_BUNDLE };
}

/**
 * What bin.mjs runs (`main`, `EXIT_INFRA`, `terminalWriter`): from a fresh bundle, from one built now when the bundle is stale (the
 * first command after an edit pays the build, every later one starts from it), or from the
 * sources when `ARENA_CLI_BUNDLE` is not `on` or the build cannot be made (esbuild missing): the same code
 * either way, so the choice changes how fast `arena` starts, never what it does. `command` (the
 * CLI's first argument) decides whether this process writes the bundle's code cache (load.mjs).
 */
export async function loadCli(command) {
  if (cliBundleSetting() === "on") {
    let file = freshBundle();
    if (!file) {
      try {
        const { buildCliBundle } = await import("./build.ts");
        await buildCliBundle();
        file = freshBundle();
      } catch {
        file = undefined;
      }
    }
    if (file) return loadBundle(file, command).exports;
  }
  const [{ main }, { EXIT_INFRA }, { terminalWriter }] = await Promise.all([import("../main.ts"), import("../exit-codes.ts"), import("../terminal.ts")]);
  return { main, EXIT_INFRA, terminalWriter };
}
