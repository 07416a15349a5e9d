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
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { withOwnImportMeta } from "../files/own-import-meta.ts";

/** Everything about a build besides its inputs: a manifest built with another recipe is stale. Bump on any change below. */
export const BUNDLE_RECIPE = "arena-worker-bundle/1";
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
}

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
    `await import(${JSON.stringify(o.host)});`,
  ].join("\n");
  const externals = new Set<string>();
  return {
    externals,
    result: await esbuild.build({
      stdin: { contents: entry, resolveDir: o.repo, sourcefile: ENTRY_NAME, loader: "js" },
      absWorkingDir: o.repo,
      bundle: true,
      splitting: true,
      format: "esm",
      platform: "node",
      target: "node24",
      keepNames: true,
      write: false,
      metafile: true,
      outdir: "out",
      entryNames: "host",
      chunkNames: "[name]-[hash]",
      outExtension: { ".js": ".mjs" },
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
  if ([...externals].every((p) => HOST_PACKAGES.has(p))) ({ result } = await once(esbuild, o, true));
  const out = path.join(o.repo, "out");
  const files = (result.outputFiles ?? []).map((f) => ({ path: path.relative(out, f.path), contents: f.contents }));
  const inputs = Object.keys(result.metafile!.inputs)
    .filter((f) => !f.startsWith("<") && !f.includes(":"))
    .map((f) => path.relative(o.repo, path.resolve(o.repo, f)));
  return { files, entry: "host.mjs", inputs };
}
