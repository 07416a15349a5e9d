/**
 * The CLI bundle's V8 code cache (orchestrator/cli/bundle/load.mjs): which process writes it, and
 * that a later process starts from it. Each case is a fresh Node process (the cache is V8's, and a
 * refusal depends on the process's flags), loading a small CommonJS script as the CLI loads its
 * bundle.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { execa } from "execa";
import { codeCacheFiles } from "../../orchestrator/cli/bundle/load.mjs";
import { REPO_ROOT } from "../../orchestrator/cli/paths.ts";

let scratch: string;
let driver: string;

beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), "arena-bundle-cache-"));
  driver = path.join(scratch, "driver.mjs");
  const load = pathToFileURL(path.join(REPO_ROOT, "orchestrator/cli/bundle/load.mjs")).href;
  writeFileSync(
    driver,
    `import { loadBundle } from ${JSON.stringify(load)};\n` +
      `const { exports, cache } = loadBundle(process.argv[2], process.argv[3]);\n` +
      `process.stdout.write(JSON.stringify({ cache, answer: exports.answer(), dir: exports.dir, joined: exports.joined }));\n`,
  );
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A bundle of its own for one case: CommonJS with a `require` and a `__dirname`, as build.ts makes. */
function bundle(name: string): string {
  const file = path.join(scratch, `${name}.cjs`);
  writeFileSync(file, `exports.answer = () => 6 * 7;\nexports.dir = __dirname;\nexports.joined = require("node:path").join("a", "b");\n`);
  return file;
}

async function load(file: string, command: string, nodeFlags: string[] = []) {
  const run = await execa(process.execPath, [...nodeFlags, driver, file, command]);
  return JSON.parse(run.stdout) as { cache: string; answer: number; dir: string; joined: string };
}

const note = (file: string) => JSON.parse(readFileSync(codeCacheFiles(file).note, "utf8")) as { runsItems: boolean };
const cacheTime = (file: string) => statSync(codeCacheFiles(file).cache).mtimeMs;

describe("the CLI bundle's code cache", () => {
  it("is written by the first command, kept by the next, and rewritten once by the first that runs items", async () => {
    const file = bundle("grow");
    const first = await load(file, "--version");
    expect(first).toEqual({ cache: "none", answer: 42, dir: scratch, joined: path.join("a", "b") });
    expect(note(file)).toEqual(expect.objectContaining({ runsItems: false }));

    const written = cacheTime(file);
    expect((await load(file, "list")).cache).toBe("used");
    expect(cacheTime(file)).toBe(written);

    expect((await load(file, "run")).cache).toBe("used");
    expect(note(file).runsItems).toBe(true);
    const rewritten = cacheTime(file);
    expect(rewritten).toBeGreaterThanOrEqual(written);

    for (const command of ["bench", "list"]) {
      expect((await load(file, command)).cache).toBe("used");
      expect(cacheTime(file)).toBe(rewritten);
    }
  }, 60_000);

  it("is refused under other V8 flags, and that process does not overwrite it", async () => {
    const file = bundle("flags");
    await load(file, "run");
    const written = readFileSync(codeCacheFiles(file).cache);
    // --stack-size is a V8 flag: V8 refuses a cache made under other flags.
    const other = await load(file, "run", ["--stack-size=2000"]);
    expect(other).toEqual(expect.objectContaining({ cache: "refused", answer: 42 }));
    expect(readFileSync(codeCacheFiles(file).cache).equals(written)).toBe(true);
    expect((await load(file, "run")).cache).toBe("used");
  }, 60_000);

  it("made under other flags, is replaced by the first process with Node's default flags", async () => {
    const file = bundle("heal");
    expect((await load(file, "--version", ["--stack-size=2000"])).cache).toBe("none");
    expect((await load(file, "--version")).cache).toBe("refused");
    expect((await load(file, "--version")).cache).toBe("used");
  }, 60_000);

  it("that is damaged costs only time: the bundle runs from its text and the cache is made again", async () => {
    const file = bundle("damaged");
    writeFileSync(codeCacheFiles(file).cache, "not a V8 code cache");
    expect(await load(file, "list")).toEqual(expect.objectContaining({ cache: "refused", answer: 42 }));
    expect((await load(file, "list")).cache).toBe("used");
  }, 60_000);

  it("that cannot be written changes nothing but the time", async () => {
    const file = bundle("unwritable");
    // Where the cache would go is a folder: it cannot be read or replaced, and the process still exits 0.
    const { cache } = codeCacheFiles(file);
    mkdirSync(cache);
    expect(await load(file, "run")).toEqual(expect.objectContaining({ cache: "none", answer: 42 }));
    expect(statSync(cache).isDirectory()).toBe(true);
    // Its own temporary files are gone too.
    expect(readdirSync(scratch).filter((f) => f.startsWith("unwritable") && f.endsWith(".tmp"))).toEqual([]);
  }, 60_000);
});
