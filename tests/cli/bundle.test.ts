import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execa } from "execa";
import { buildCliBundle } from "../../orchestrator/cli/bundle/build.ts";
import { freshBundle } from "../../orchestrator/cli/bundle/fresh.mjs";
import { codeCacheFiles } from "../../orchestrator/cli/bundle/load.mjs";
import { BUNDLE_FILE, CACHE_DIR, MANIFEST } from "../../orchestrator/cli/bundle/layout.mjs";
import { REPO_ROOT } from "../../orchestrator/cli/paths.ts";

type Manifest = { version: number; node: string; dir: string; inputs: [string, number, number][] };

let built: { dir: string; inputs: number };
let scratch: string;

beforeAll(async () => {
  built = await buildCliBundle();
  scratch = mkdtempSync(path.join(os.tmpdir(), "arena-bundle-test-"));
}, 60_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A copy of the bundle's manifest beside a copy of its file, changed by `edit`, judged by freshBundle. */
function judged(edit: (m: Manifest) => void): string | undefined {
  const manifest = JSON.parse(readFileSync(path.join(CACHE_DIR, "manifest.json"), "utf8")) as Manifest;
  const dir = mkdtempSync(path.join(scratch, "m-"));
  mkdirSync(path.join(dir, manifest.dir));
  copyFileSync(path.join(CACHE_DIR, manifest.dir, BUNDLE_FILE), path.join(dir, manifest.dir, BUNDLE_FILE));
  edit(manifest);
  writeFileSync(path.join(dir, "manifest.json"), JSON.stringify(manifest));
  return freshBundle(path.join(dir, "manifest.json"));
}

describe("the CLI's bundle", () => {
  it("is built from the CLI's sources and the packages it imports, and is fresh right after", () => {
    const manifest = JSON.parse(readFileSync(MANIFEST, "utf8")) as Manifest;
    const inputs = manifest.inputs.map(([file]) => file);
    expect(inputs).toContain("orchestrator/cli/main.ts");
    expect(inputs).toContain("orchestrator/supervisor/spawn.ts");
    // Its own recipe: a bundle made by another build.ts is stale.
    expect(inputs).toContain("orchestrator/cli/bundle/build.ts");
    expect(inputs.some((f) => f.includes("node_modules") && f.includes("/zod/"))).toBe(true);
    // piscina's threads load files of their own, and esbuild finds its binary from its folder: both stay packages.
    expect(inputs.some((f) => f.includes("/piscina/"))).toBe(false);
    expect(inputs.some((f) => f.includes("/esbuild/"))).toBe(false);
    expect(built.inputs).toBe(inputs.length);
    expect(freshBundle()).toBe(path.join(CACHE_DIR, manifest.dir, BUNDLE_FILE));
  });

  it("keeps every project file's own import.meta, so paths resolve as from the sources", () => {
    const text = readFileSync(path.join(built.dir, BUNDLE_FILE), "utf8");
    expect(text).not.toMatch(/\bimport\.meta\.(url|dirname|filename)\b/);
    // python-host.ts finds the Python host from its own place, and the literal names python-host.ts itself.
    expect(text).toContain(JSON.stringify(pathToFileURL(path.join(REPO_ROOT, "orchestrator/supervisor/python-host.ts")).href));
  });

  it("is stale when an input's time or size differs, an input is gone, or Node is another", () => {
    expect(judged(() => {})).toBeDefined();
    expect(judged((m) => (m.inputs[0]![1] += 1))).toBeUndefined();
    expect(judged((m) => (m.inputs[3]![2] += 1))).toBeUndefined();
    expect(judged((m) => m.inputs.push(["orchestrator/cli/no-such-file.ts", 0, 0]))).toBeUndefined();
    expect(judged((m) => (m.node = "v0.0.0"))).toBeUndefined();
    expect(judged((m) => (m.dir = "no-such-dir"))).toBeUndefined();
  });

  it("gives what the sources give: arena --version and a usage mistake, on the real CLI", async () => {
    const bin = path.join(REPO_ROOT, "orchestrator/cli/bin.mjs");
    for (const args of [["--version"], ["run", "--no-such-flag"]]) {
      const bundled = await execa(process.execPath, [bin, ...args], { reject: false });
      const sources = await execa(process.execPath, [bin, ...args], { reject: false, env: { ARENA_CLI_BUNDLE: "off" } });
      expect(bundled.exitCode).toBe(sources.exitCode);
      expect(bundled.stdout).toBe(sources.stdout);
      expect(bundled.stderr).toBe(sources.stderr);
    }
  }, 60_000);

  it("refuses an ARENA_CLI_BUNDLE that is neither on nor off, in one line with the usage exit code", async () => {
    const bin = path.join(REPO_ROOT, "orchestrator/cli/bin.mjs");
    const run = await execa(process.execPath, [bin, "--version"], { reject: false, env: { ARENA_CLI_BUNDLE: "maybe" } });
    expect(run.exitCode).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toBe("arena: ARENA_CLI_BUNDLE: 'maybe' is not on or off");
  }, 60_000);

  it("is what bin.mjs loads when fresh, and the sources with ARENA_CLI_BUNDLE=off", async () => {
    // The modules a process loaded, as Node lists them when asked from a preload of its own.
    const probe = path.join(scratch, "loaded.mjs");
    writeFileSync(
      probe,
      `process.on("exit", () => { const urls = [...new Set(Object.keys(globalThis.__arenaLoaded ?? {}))]; process.stderr.write("\\nLOADED " + JSON.stringify(urls)); });
import { registerHooks } from "node:module";
globalThis.__arenaLoaded = {};
registerHooks({ load(url, context, next) { globalThis.__arenaLoaded[url] = 1; return next(url, context); } });\n`,
    );
    const bin = path.join(REPO_ROOT, "orchestrator/cli/bin.mjs");
    const loaded = async (env: Record<string, string>) => {
      const run = await execa(process.execPath, ["--import", pathToFileURL(probe).href, bin, "--version"], { reject: false, env });
      return JSON.parse(String(run.stderr).split("LOADED ")[1]!) as string[];
    };
    // The bundle is a script load.mjs runs (with its code cache), not a module the loader sees: from
    // it, no source file of the CLI is loaded (fresh.mjs's only other way imports main.ts).
    const bundled = await loaded({});
    expect(bundled.some((u) => u.endsWith("/orchestrator/cli/main.ts") || u.endsWith("/orchestrator/cli/terminal.ts"))).toBe(false);
    // A command run from the bundle leaves its code cache beside it (this one or an earlier one wrote it).
    expect(existsSync(codeCacheFiles(freshBundle()!).cache)).toBe(true);
    const sources = await loaded({ ARENA_CLI_BUNDLE: "off" });
    expect(sources.some((u) => u.endsWith("/orchestrator/cli/main.ts"))).toBe(true);
  }, 60_000);
});
