/**
 * 1,000+ malformed arenas (fuzz-corpus.ts), each run through the validator and the loader in a
 * child process with a deadline (fuzz-exec.ts). Every case must validate, or fail with messages
 * that each start `<file>:<line>: ` on one line; the loader may only throw its typed
 * ArenaLoadError, and only for arenas the validator also rejects.
 *
 * Seed 20240611: 1,087 cases (87 field-type cases, one per field of every file, then 1,000 random
 * ones, kinds in turn). Per kind — total: ok / with errors / refused by the loader:
 *   wrong type 87: 21/66/40 · truncation 56: 3/53/53 · byte flip 56: 0/56/55
 *   invalid UTF-8 56: 0/56/56 · BOM 56: 30/26/16 · NUL bytes 56: 1/55/55 · random junk 56: 0/56/56
 *   line breaks 56: 33/23/23 · deep nesting 56: 7/49/49 · huge numbers 56: 33/23/13
 *   duplicate ids 56: 0/56/0 · unsafe ids 55: 0/55/55 · missing files 55: 0/55/55
 *   empty files 55: 0/55/55 · not a regular file 55: 2/53/53 · long lines 55: 30/25/9
 *   prototype keys 55: 55/0/0 · many items 55: 55/0/0 · combination 55: 1/54/54
 * In all 271 ok, 816 with errors (every message located), 697 of those also refused by the loader,
 * 0 crashes, 0 hangs; about 2 s on the project VM.
 * Against the code before these fixes: case 334 (a FIFO dataset) hung, cases 112 and 274 (deep
 * nesting) overflowed the stack, and arenas with unsafe ids loaded.
 */
import { spawn } from "node:child_process";
import { accessSync, constants, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { isSafeId } from "../../orchestrator/files/safe-path.ts";
import { BASE, fuzzCorpus, type FuzzCase } from "./fuzz-corpus.ts";
import type { CaseResult } from "./fuzz-exec.ts";
import { putFile, tempRoot } from "./fixture.ts";

const SEED = 20240611;
const RANDOM_CASES = 1000;
/** How long the executor may print nothing before the case it is on counts as hung (cases take ms). */
const IDLE_MS = 30_000;
const EXEC = path.join(import.meta.dirname, "fuzz-exec.ts");
/** One line, starting with one of the arena's files and a positive line number. */
const LOCATED = /^demo\/(?:arena\.toml|dataset\.jsonl|mock_script\.json|cases\.json):[1-9]\d*: [^\n\r]+$/;

function writeCase(root: string, n: number, c: FuzzCase): void {
  const dir = path.join(root, String(n), "demo");
  mkdirSync(dir, { recursive: true });
  const files = { ...BASE, ...c.files };
  const put = (name: string, content: (typeof files)["toml"] | undefined) => {
    if (content !== undefined && content !== null) putFile(path.join(dir, name), content);
  };
  put("arena.toml", files.toml);
  put("dataset.jsonl", files.dataset);
  put("mock_script.json", files.script);
  put("cases.json", files.cases);
}

/**
 * The corpus is some 4,000 small files. On a disk-backed /tmp creating and deleting them is
 * metadata-bound (over 4 s each way on the project VM), in tmpfs a fifth of a second.
 */
function fastTempBase(): string {
  try {
    accessSync("/dev/shm", constants.W_OK);
    return "/dev/shm";
  } catch {
    return tmpdir();
  }
}

/** What is wrong with one case's outcome; empty when it behaved. */
function problems(c: FuzzCase, r: CaseResult): string[] {
  const out: string[] = [];
  const where = `case ${r.n} (${c.kind})`;
  if (r.crash !== undefined) out.push(`${where}: crashed: ${r.crash}`);
  for (const m of [...r.errors, ...r.warnings, ...(r.loadError === undefined ? [] : [r.loadError])]) {
    if (!LOCATED.test(m)) out.push(`${where}: message without file:line: ${JSON.stringify(m.slice(0, 200))}`);
  }
  if (r.loadError !== undefined && r.errors.length === 0) out.push(`${where}: the loader refused an arena the validator passed: ${r.loadError}`);
  // What the run will use as folder names: whatever loads must be safe to join to a path.
  const unsafe = (r.loaded ?? []).filter((id) => !isSafeId(id));
  if (unsafe.length > 0) out.push(`${where}: loaded with unsafe ids ${JSON.stringify(unsafe.slice(0, 3).map((id) => id.slice(0, 40)))}`);
  if (r.loaded?.length === 1) out.push(`${where}: loaded with no items`);
  return out;
}

/**
 * The results the executor printed before it finished, or before it went quiet. The watchdog is
 * reset by every case that finishes: a hang is a case that never returns (a blocking open, an
 * endless loop), which no machine, however loaded, turns into one that takes a few seconds — a
 * case takes milliseconds. The corpus as a whole may take as long as the machine needs.
 */
async function execCorpus(root: string): Promise<{ results: CaseResult[]; quiet: boolean }> {
  const child = spawn(process.execPath, [EXEC, root], { stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  let quiet = false;
  let watchdog: NodeJS.Timeout | undefined;
  const rearm = () => {
    clearTimeout(watchdog);
    watchdog = setTimeout(() => {
      quiet = true;
      child.kill("SIGKILL");
    }, IDLE_MS);
  };
  rearm();
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString("utf8");
    rearm();
  });
  child.stderr.on("data", (chunk: Buffer) => void (stderr += chunk.toString("utf8")));
  const code = await new Promise<number | null>((resolve) => child.on("close", (c) => resolve(c)));
  clearTimeout(watchdog);
  if (!quiet && code !== 0) throw new Error(`the executor failed (exit ${code}): ${stderr}`);
  // A line cut short by the kill is not a result.
  const lines = stdout.split("\n").filter((l) => l !== "");
  if (quiet && !stdout.endsWith("\n")) lines.pop();
  return { results: lines.map((l) => JSON.parse(l) as CaseResult), quiet };
}

interface Tally {
  total: number;
  ok: number;
  errors: number;
  refused: number;
}

describe("fuzz: malformed arena folders", () => {
  // No overall time limit (timeout 0): the watchdog in execCorpus finds a hang by the case, so a
  // loaded machine makes this slower, never failed (it once took over 20 s on 2 shared cores).
  it(`${RANDOM_CASES}+ seeded mutations: no crash, no hang, every message located`, { timeout: 0 }, async () => {
    const started = performance.now();
    const corpus = fuzzCorpus(SEED, RANDOM_CASES);
    expect(corpus.length).toBeGreaterThanOrEqual(1000);
    const root = tempRoot(fastTempBase());
    corpus.forEach((c, n) => writeCase(root, n, c));

    const { results } = await execCorpus(root);
    const tallies = new Map<string, Tally>();
    const found: string[] = [];
    const hung = corpus[results.length];
    if (hung) found.push(`case ${results.length} (${hung.kind}): did not finish (nothing printed for ${IDLE_MS} ms)`);
    results.forEach((r, n) => {
      const c = corpus[n]!;
      found.push(...problems(c, r));
      const t = tallies.get(c.kind) ?? { total: 0, ok: 0, errors: 0, refused: 0 };
      t.total++;
      if (r.errors.length === 0) t.ok++;
      else t.errors++;
      if (r.loadError !== undefined) t.refused++;
      tallies.set(c.kind, t);
    });
    const elapsed = performance.now() - started;
    const slowest = Math.max(...results.map((r) => r.ms));
    const table = [...tallies].map(([kind, t]) => `  ${kind.padEnd(20)} ${t.total} (${t.ok} ok, ${t.errors} with errors, ${t.refused} refused)`);
    console.log(`fuzz seed ${SEED}: ${corpus.length} cases in ${Math.round(elapsed)} ms (slowest ${Math.round(slowest)} ms)\n${table.join("\n")}`);

    expect(found).toEqual([]);
    // Every kind of mutation must actually produce failures somewhere, or the generator is broken.
    for (const [kind, t] of tallies) {
      if (kind !== "prototype keys" && kind !== "many items") expect(t.errors, kind).toBeGreaterThan(0);
    }
  });

  it("the base every case mutates is valid", async () => {
    const root = tempRoot();
    writeCase(root, 0, { kind: "base", files: {} });
    const { results: [result], quiet } = await execCorpus(root);
    expect(quiet).toBe(false);
    expect(result).toMatchObject({ n: 0, errors: [], warnings: [] });
    expect(result!.loadError).toBeUndefined();
  });
});
