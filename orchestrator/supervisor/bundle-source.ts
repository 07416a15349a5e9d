/**
 * One esbuild build of a worker's bundle (worker-entry.ts decides when). The entry it bundles is
 * generated here: it puts the adapter where the host's first build finds it (a dynamic import, so
 * it is still loaded by that build, not at start: a missing framework is still a `not_installed`
 * build failure, and the framework's import still lands in ready → built), then runs the host.
 *
 * Each bundled file's `import.meta.url` is replaced by the URL of its source, so what resolves
 * against it (the default corpus, an adapter's `createRequire`, a package's version) finds what it
 * found when run from the sources. Names are kept (`keepNames`): an error's or a class's name is
 * data here (error texts, py-semantics' type names). The script is minified: a framework's script
 * is a third smaller and its start ~8% cheaper (less text to read and to compile lazily; measured
 * in docs/performance.md). A stack trace keeps function names but points into one long line;
 * `ARENA_WORKER_BUNDLE=off` runs the sources for one with their lines.
 *
 * Two layouts:
 * - A script: one strict-mode CommonJS file, `bundle.cjs`, holding the host, contract/, the
 *   workspace packages, the adapter and the npm packages it imports (its framework, zod: one copy
 *   of each, shared by the adapter and the framework as from node_modules), started by
 *   workers/bundle-start.cjs with a V8 code cache made after a warm-up build (code-cache.ts). The
 *   adapter and its packages are deferred inits (esbuild's form of the dynamic import), evaluated
 *   by the first build. A package that loads a native addon stays outside (required from where it
 *   is installed: the addon is found from the package's own folder), and so does one that does
 *   not resolve (then the first build's require fails: `not_installed`).
 * - ES modules (`host.mjs`, the adapter in a chunk of its own, shared code in a chunk both
 *   import), every npm package external: ES modules cannot be given such a cache, so this is the
 *   fallback, for an adapter esbuild cannot make one script of (top-level await in a package, say;
 *   the reason goes in the bundle's note), or whose script's warm-up build failed (worker-entry.ts).
 *   A hostile fixture gets a script only if it imports no npm package beyond the host's: it gets
 *   no warm-up (worker-entry.ts), so nothing would check that its script works.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { withOwnImportMeta } from "../files/own-import-meta.ts";

/** Everything about a build besides its inputs: a manifest built with another recipe is stale. Bump on any change below. */
export const BUNDLE_RECIPE = "arena-worker-bundle/7";
/** The slot the generated entry fills and the host reads (workers/host.ts, loadAdapter). */
const SLOT = "agentic-arena.bundled-adapter";
/** The npm packages the host itself imports. */
const HOST_PACKAGES = new Set(["zod"]);
/**
 * Packages that load a native addon by a path computed at run time (from their own folder, or
 * `require(`@libsql/${target}`)`): a package depending on one of these stays outside a script.
 */
const NATIVE_LOADERS = new Set(["bindings", "node-gyp-build", "node-gyp-build-optional-packages", "prebuild-install", "@neon-rs/load", "node-addon-api"]);

export interface Built {
  /** Output files, relative to the bundle's folder. */
  readonly files: readonly { readonly path: string; readonly contents: Uint8Array }[];
  /** The file to run, relative to the bundle's folder. */
  readonly entry: string;
  /** Every source file the build read (and every package it left outside a script), relative to the repository where inside it. */
  readonly inputs: readonly string[];
  /** One CommonJS script started by workers/bundle-start.cjs, which wants a code cache made for it (code-cache.ts). */
  readonly selfContained: boolean;
  /** The npm packages inside a script beyond the host's own: when any, its warm-up build must succeed (worker-entry.ts). */
  readonly packagesInside: readonly string[];
  /** Why ES modules when a script was asked for. */
  readonly note?: string;
}

/** The start script of a self-contained bundle, copied beside it. */
export const START_SCRIPT = fileURLToPath(new URL("../../workers/bundle-start.cjs", import.meta.url));

/** The bare package name of a specifier (`@scope/name/sub` → `@scope/name`), or undefined for a path or a builtin. */
function packageOf(spec: string): string | undefined {
  if (spec.startsWith(".") || spec.startsWith("/") || spec.startsWith("node:") || spec.startsWith("file:")) return undefined;
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

/**
 * Whether the installed package a file belongs to loads a native addon. Found from the file, not
 * the specifier: an alias (`better-sqlite3` installed as `libsql`) has another name on disk.
 */
const nativeSeen = new Map<string, boolean>();
function loadsNative(resolved: string): boolean {
  const marker = `${path.sep}node_modules${path.sep}`;
  const at = resolved.lastIndexOf(marker);
  if (at < 0) return false;
  const rest = resolved.slice(at + marker.length).split(path.sep);
  const root = resolved.slice(0, at + marker.length) + (rest[0]!.startsWith("@") ? rest.slice(0, 2) : rest.slice(0, 1)).join(path.sep);
  let native = nativeSeen.get(root);
  if (native === undefined) {
    try {
      const meta = JSON.parse(readFileSync(path.join(root, "package.json"), "utf8")) as Record<string, unknown>;
      const deps = [meta.dependencies, meta.optionalDependencies].flatMap((d) => Object.keys((d as Record<string, string> | undefined) ?? {}));
      native = meta.gypfile === true || deps.some((d) => NATIVE_LOADERS.has(d));
    } catch {
      native = false;
    }
    nativeSeen.set(root, native);
  }
  return native;
}

type Esbuild = typeof import("esbuild");
/** The generated entry's name in the metafile: generated, so no input of the manifest. */
const ENTRY_NAME = "<arena-worker-entry>";
/** What a build bundles: no npm package (ES modules), the host's only, or every one it can. */
type Packages = "none" | "host" | "all";
const RESOLVING = Symbol("arena-worker resolving");

async function once(esbuild: Esbuild, o: { repo: string; host: string; module: string }, packages: Packages) {
  const script = packages !== "none";
  const entry = [
    `globalThis[Symbol.for(${JSON.stringify(SLOT)})] = { module: ${JSON.stringify(o.module)}, load: () => import(${JSON.stringify(o.module)}) };`,
    // A script has no top-level await; the host's evaluation is still the entry's last act.
    `${script ? "void" : "await"} import(${JSON.stringify(o.host)});`,
  ].join("\n");
  const layout = script
    ? ({ format: "cjs", splitting: false, entryNames: "bundle", outExtension: { ".js": ".cjs" }, banner: { js: '"use strict";' } } as const)
    : ({ format: "esm", splitting: true, entryNames: "host", outExtension: { ".js": ".mjs" } } as const);
  /** Packages left outside; for a script, what each was resolved to (a file, or the specifier when it did not resolve). */
  const externals = new Map<string, string>();
  const inside = new Set<string>();
  return {
    externals,
    inside,
    result: await esbuild.build({
      stdin: { contents: entry, resolveDir: o.repo, sourcefile: ENTRY_NAME, loader: "js" },
      absWorkingDir: o.repo,
      bundle: true,
      ...layout,
      platform: "node",
      target: "node24",
      keepNames: true,
      minify: true,
      write: false,
      metafile: true,
      outdir: "out",
      chunkNames: "[name]-[hash]",
      logLevel: "silent",
      plugins: [
        {
          name: "arena-worker",
          setup(build) {
            // The workspace's own packages are project code: always bundled.
            build.onResolve({ filter: /^[^./]/ }, async (args) => {
              const pkg = packageOf(args.path);
              if (pkg === undefined || pkg.startsWith("@agentic-arena/") || args.pluginData === RESOLVING) return undefined;
              if (packages === "none" || (packages === "host" && !HOST_PACKAGES.has(pkg))) {
                externals.set(pkg, args.path);
                return { path: args.path, external: true };
              }
              if (packages === "host") return undefined;
              const found = await build.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: RESOLVING });
              // Not installed: the script requires it by name, and the first build fails as from the sources.
              if (found.errors.length > 0 || found.external) {
                externals.set(pkg, args.path);
                return { path: args.path, external: true };
              }
              // By its absolute file: from the bundle's folder a package's own dependencies do not resolve.
              if (loadsNative(found.path)) {
                externals.set(pkg, found.path);
                return { path: found.path, external: true };
              }
              if (!HOST_PACKAGES.has(pkg)) inside.add(pkg);
              return undefined;
            });
            build.onLoad({ filter: /\.(ts|mts|js|mjs)$/ }, (args) => {
              const text = readFileSync(args.path, "utf8");
              if (!text.includes("import.meta")) return undefined;
              const contents = withOwnImportMeta(args.path, text);
              return { contents, loader: /\.m?ts$/.test(args.path) ? "ts" : "js" };
            });
          },
        },
      ],
    }),
  };
}

/**
 * Build the bundle; throws when esbuild is not installed or no layout builds. `packages`: `all`
 * makes a script of everything it can; `host` (a fixture's) a script only when it needs no npm
 * package beyond the host's; `none` ES modules.
 */
export async function buildBundle(o: { repo: string; host: string; module: string; packages: Packages }): Promise<Built> {
  const esbuild: Esbuild = await import("esbuild");
  const out = path.join(o.repo, "out");
  const inputsOf = (result: Awaited<ReturnType<typeof once>>["result"]) =>
    Object.keys(result.metafile!.inputs)
      .filter((f) => !f.startsWith("<") && !f.includes(":"))
      .map((f) => path.relative(o.repo, path.resolve(o.repo, f)));
  let note: string | undefined;
  let modules: Awaited<ReturnType<typeof once>> | undefined;
  let scripted: Awaited<ReturnType<typeof once>> | undefined;
  if (o.packages === "all") {
    try {
      scripted = await once(esbuild, o, "all");
    } catch (err) {
      const first = (err as { errors?: { text: string; location?: { file: string } | null }[] }).errors?.[0];
      note = `one script could not be built (${first ? `${first.text}${first.location ? ` in ${first.location.file}` : ""}` : (err as Error).message.split("\n")[0]})`;
    }
  } else {
    modules = await once(esbuild, o, "none");
    // A fixture's script gets no warm-up to check it, so only one that holds nothing but the host's own packages.
    if (o.packages === "host" && [...modules.externals.keys()].every((p) => HOST_PACKAGES.has(p))) scripted = await once(esbuild, o, "host");
  }
  if (scripted === undefined) {
    modules ??= await once(esbuild, o, "none");
    const files = (modules.result.outputFiles ?? []).map((f) => ({ path: path.relative(out, f.path), contents: f.contents }));
    return { files, entry: "host.mjs", inputs: inputsOf(modules.result), selfContained: false, packagesInside: [], ...(note ? { note } : {}) };
  }
  const files = (scripted.result.outputFiles ?? []).map((f) => ({ path: path.relative(out, f.path), contents: f.contents }));
  // The start script is an input too: a bundle started by an older one is stale; so is a package left outside that was reinstalled.
  files.push({ path: "start.cjs", contents: readFileSync(START_SCRIPT) });
  const outside = [...scripted.externals.values()].filter((f) => path.isAbsolute(f)).map((f) => path.relative(o.repo, f));
  return {
    files,
    entry: "start.cjs",
    inputs: [...inputsOf(scripted.result), path.relative(o.repo, START_SCRIPT), ...outside],
    selfContained: true,
    packagesInside: [...scripted.inside].sort(),
  };
}
