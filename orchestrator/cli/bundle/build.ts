/**
 * Builds the CLI's bundle (fresh.mjs says when it is used): esbuild bundles what bin.mjs runs,
 * with everything it imports, into one file. One file, not chunks: a command loads the whole of
 * its code at start, so removing an old bundle can never pull a lazily loaded chunk from under a
 * run still going (the commands' modules stay lazy inside the file: esbuild evaluates a dynamic
 * import's module when it is called). One CommonJS script, which load.mjs runs with a V8 code
 * cache kept beside it. `pnpm install` builds it (scripts/build-cli.ts); a stale one is rebuilt by
 * the first `arena` command that finds it so.
 *
 * Two things keep the bundle's behaviour the sources': every `import.meta.url`, `dirname` and
 * `filename` of a project file is replaced by that file's own (the orchestrator finds the
 * repository, the worker host, the sandbox preload and the scoring thread's file from them), and
 * piscina and esbuild stay packages (EXTERNAL says why).
 *
 * Concurrent builds (parallel commands after an edit) do not lock: each writes a folder of its
 * own and then renames its manifest into place, so a reader sees one whole bundle or the other.
 * Folders the manifest does not name are removed once they are ten minutes old (a command reads
 * the manifest and loads the file it names within milliseconds).
 */
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { randomBytes } from "node:crypto";
import { build, type Plugin } from "esbuild";
import { withOwnImportMeta } from "../../files/own-import-meta.ts";
import { BUNDLE_FILE, CACHE_DIR, ENTRY_SOURCE, MANIFEST, MANIFEST_VERSION, REPO } from "./layout.mjs";

/**
 * Packages that must stay packages: piscina's threads load files of their own by path, and
 * esbuild (the workers' bundles are built from a run: supervisor/bundle-source.ts) is CommonJS
 * that finds its binary from its own folder, which a bundle would lose.
 */
const EXTERNAL = ["piscina", "esbuild"];
const STALE_FOLDER_MS = 10 * 60 * 1000;

export interface BuiltBundle {
  /** The bundle's folder under CACHE_DIR. */
  readonly dir: string;
  /** How many input files it was built from. */
  readonly inputs: number;
}

/** Reads every input itself, noting its stat first, so the manifest holds what was read or older. */
function recordingLoader(inputs: Map<string, readonly [number, number]>): Plugin {
  return {
    name: "arena-inputs",
    setup(b) {
      b.onLoad({ filter: /\.(m?[jt]s|cjs|json)$/ }, (args) => {
        const stat = statSync(args.path);
        inputs.set(path.relative(REPO, args.path), [stat.mtimeMs, stat.size]);
        const text = readFileSync(args.path, "utf8");
        const ext = path.extname(args.path);
        const loader = ext === ".json" ? "json" : ext === ".ts" ? "ts" : "js";
        // A package's import.meta is left alone (none of the bundled ones reads it); a project file's is its own.
        const own = !args.path.split(path.sep).includes("node_modules");
        const contents = own ? withOwnImportMeta(args.path, text) : text;
        return { contents, loader };
      });
    },
  };
}

export async function buildCliBundle(): Promise<BuiltBundle> {
  mkdirSync(CACHE_DIR, { recursive: true });
  const name = `b-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`;
  const dir = path.join(CACHE_DIR, name);
  const inputs = new Map<string, readonly [number, number]>();
  const built = await build({
    stdin: { contents: ENTRY_SOURCE, resolveDir: REPO, sourcefile: "arena-cli-entry.ts", loader: "ts" },
    outfile: path.join(dir, BUNDLE_FILE),
    bundle: true,
    // CommonJS: load.mjs runs it as a vm.Script with a code cache. No module of it awaits at its top level.
    format: "cjs",
    // The sources are ES modules, strict by definition; a CommonJS script is strict only when it says so.
    banner: { js: '"use strict";' },
    platform: "node",
    target: "node24",
    external: EXTERNAL,
    plugins: [recordingLoader(inputs)],
    logLevel: "silent",
    // Names kept: error classes are reported by name (`${err.name}: …`) and matched on it.
    keepNames: true,
    // Half the text to read, hash and compile lazily: `arena --version` 192 against 230 ms of CPU
    // (docs/performance.md). ARENA_CLI_BUNDLE=off gives a stack trace with the sources' lines.
    minify: true,
  });
  // CommonJS has no import.meta: esbuild would hand a package that reads it an empty object.
  // Refused instead, so `arena` starts from the sources (fresh.mjs) rather than from a bundle that differs.
  const meta = built.warnings.find((w) => w.text.includes("import.meta"));
  if (meta) throw new Error(`the CLI's bundle cannot be CommonJS: ${meta.location?.file ?? "a module"} reads import.meta (${meta.text})`);
  // The recipe is an input too: a bundle built by another build.ts (another EXTERNAL, say) is stale.
  for (const recipe of [fileURLToPath(import.meta.url), path.join(path.dirname(fileURLToPath(import.meta.url)), "layout.mjs")]) {
    const stat = statSync(recipe);
    inputs.set(path.relative(REPO, recipe), [stat.mtimeMs, stat.size]);
  }
  const manifest = { version: MANIFEST_VERSION, node: process.version, dir: name, inputs: [...inputs].map(([f, [m, s]]) => [f, m, s]) };
  const temp = `${MANIFEST}.${name}`;
  writeFileSync(temp, JSON.stringify(manifest));
  renameSync(temp, MANIFEST);
  pruneOld(name);
  return { dir, inputs: inputs.size };
}

function pruneOld(current: string): void {
  for (const entry of readdirSync(CACHE_DIR, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name === current) continue;
    const folder = path.join(CACHE_DIR, entry.name);
    const age = Date.now() - (statSync(folder, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
    if (age > STALE_FOLDER_MS) rmSync(folder, { recursive: true, force: true });
  }
}
