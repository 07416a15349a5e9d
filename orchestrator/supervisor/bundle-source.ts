/**
 * One esbuild build of a worker's bundle (worker-entry.ts decides when). The entry it bundles is
 * generated here: it puts the adapter where the host's first build finds it (a dynamic import, so
 * esbuild gives the adapter a chunk of its own and it is still loaded by that build, not at
 * start: a missing framework is still a `not_installed` build failure, and the framework's import
 * still lands in ready → built), then runs the host. Shared code (contract/, the workspace
 * packages) goes to a chunk both import, so it is in the process once.
 *
 * Each bundled file's `import.meta.url` is replaced by the URL of its source, so what resolves
 * against it (the default corpus, an adapter's `createRequire`, a package's version) finds what it
 * found when run from the sources. Names are kept (`keepNames`): an error's or a class's name is
 * data here (error texts, py-semantics' type names).
 *
 * A self-contained bundle (an adapter that imports no npm package beyond the host's own: the
 * baseline) is one strict-mode CommonJS script instead, `bundle.cjs`, started by
 * workers/bundle-start.cjs with a V8 code cache made after a warm-up build (code-cache.ts): ES
 * modules cannot be given such a cache, and with nothing external there is nothing to share. Its
 * adapter is still evaluated by the first build (esbuild turns the dynamic import into a deferred
 * init), not at start.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { withOwnImportMeta } from "../files/own-import-meta.ts";

/** Everything about a build besides its inputs: a manifest built with another recipe is stale. Bump on any change below. */
export const BUNDLE_RECIPE = "arena-worker-bundle/2";
/** The slot the generated entry fills and the host reads (workers/host.ts, loadAdapter). */
const SLOT = "agentic-arena.bundled-adapter";
/** The npm packages the host itself imports: bundled with it when the adapter needs no other. */
const HOST_PACKAGES = new Set(["zod"]);

export interface Built {
  /** Output files, relative to the bundle's folder. */
  readonly files: readonly { readonly path: string; readonly contents: Uint8Array }[];
  /** The file to run, relative to the bundle's folder. */
  readonly entry: string;
  /** Every source file the build read, relative to the repository where inside it. */
  readonly inputs: readonly string[];
  /** One CommonJS script started by workers/bundle-start.cjs, which wants a code cache made for it (code-cache.ts). */
  readonly selfContained: boolean;
}

/** The start script of a self-contained bundle, copied beside it. */
export const START_SCRIPT = fileURLToPath(new URL("../../workers/bundle-start.cjs", import.meta.url));

/** The bare package name of a specifier (`@scope/name/sub` → `@scope/name`), or undefined for a path or a builtin. */
function packageOf(spec: string): string | undefined {
  if (spec.startsWith(".") || spec.startsWith("/") || spec.startsWith("node:") || spec.startsWith("file:")) return undefined;
  const parts = spec.split("/");
  return spec.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0];
}

type Esbuild = typeof import("esbuild");
/** The generated entry's name in the metafile: generated, so no input of the manifest. */
const ENTRY_NAME = "<arena-worker-entry>";

async function once(esbuild: Esbuild, o: { repo: string; host: string; module: string }, bundlePackages: boolean) {
  const entry = [
    `globalThis[Symbol.for(${JSON.stringify(SLOT)})] = { module: ${JSON.stringify(o.module)}, load: () => import(${JSON.stringify(o.module)}) };`,
    // A script has no top-level await; the host's evaluation is still the entry's last act.
    `${bundlePackages ? "void" : "await"} import(${JSON.stringify(o.host)});`,
  ].join("\n");
  // Self-contained: one strict script (see the header); else ES modules, the adapter in a chunk of its own.
  const layout = bundlePackages
    ? ({ format: "cjs", splitting: false, entryNames: "bundle", outExtension: { ".js": ".cjs" }, banner: { js: '"use strict";' } } as const)
    : ({ format: "esm", splitting: true, entryNames: "host", outExtension: { ".js": ".mjs" } } as const);
  const externals = new Set<string>();
  return {
    externals,
    result: await esbuild.build({
      stdin: { contents: entry, resolveDir: o.repo, sourcefile: ENTRY_NAME, loader: "js" },
      absWorkingDir: o.repo,
      bundle: true,
      ...layout,
      platform: "node",
      target: "node24",
      keepNames: true,
      write: false,
      metafile: true,
      outdir: "out",
      chunkNames: "[name]-[hash]",
      logLevel: "silent",
      plugins: [
        {
          name: "arena-worker",
          setup(build) {
            // npm packages stay where they are (the workspace's own are project code, bundled).
            build.onResolve({ filter: /^[^./]/ }, (args) => {
              const pkg = packageOf(args.path);
              if (pkg === undefined || pkg.startsWith("@agentic-arena/")) return undefined;
              if (bundlePackages && HOST_PACKAGES.has(pkg)) return undefined;
              externals.add(pkg);
              return { path: args.path, external: true };
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

/** Build the bundle; throws when esbuild is not installed or the build fails. */
export async function buildBundle(o: { repo: string; host: string; module: string }): Promise<Built> {
  const esbuild: Esbuild = await import("esbuild");
  let { externals, result } = await once(esbuild, o, false);
  // No npm package beyond the host's own: nothing to share with a framework, so bundle those too.
  const selfContained = [...externals].every((p) => HOST_PACKAGES.has(p));
  if (selfContained) ({ result } = await once(esbuild, o, true));
  const out = path.join(o.repo, "out");
  const files = (result.outputFiles ?? []).map((f) => ({ path: path.relative(out, f.path), contents: f.contents }));
  const inputs = Object.keys(result.metafile!.inputs)
    .filter((f) => !f.startsWith("<") && !f.includes(":"))
    .map((f) => path.relative(o.repo, path.resolve(o.repo, f)));
  if (!selfContained) return { files, entry: "host.mjs", inputs, selfContained };
  // The start script is an input too: a bundle started by an older one is stale.
  files.push({ path: "start.cjs", contents: readFileSync(START_SCRIPT) });
  return { files, entry: "start.cjs", inputs: [...inputs, path.relative(o.repo, START_SCRIPT)], selfContained };
}
