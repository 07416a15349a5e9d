/**
 * Hostile arena folders against the real executable: a clear `file:line` message and the right
 * exit code, never a stack trace, a hang, or a file touched outside the arena.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/reference.ts";
import { putFile, tempRoot, writeArena } from "../arena-loader/fixture.ts";

const BIN = path.join(REPO_ROOT, "orchestrator/cli/bin.mjs");
/** Far more than any of these commands needs; a blocking open would never return at all. */
const PROMPT_MS = 10_000;
const RULE = "(letters, digits, '_', '.', '-'; must start with a letter or digit; at most 128 characters)";
const STACK_LINE = /^\s+at /m;

function arena(args: string[], cwd: string) {
  // ARENA_OUTPUT_ROOT keeps a run that did start inside the temp root, where the variable is known.
  return execa(process.execPath, [BIN, ...args], { cwd, reject: false, timeout: PROMPT_MS, env: { ARENA_OUTPUT_ROOT: cwd } });
}

const run = (root: string) => arena(["run", "--arenas-dir", root, "--arena", "alpha", "--framework", "vanilla"], root);

describe("hostile arena input (child process)", () => {
  it("an arena id that climbs out of the output folders: validate exits 1, run exits 2 before anything runs", async () => {
    const root = tempRoot();
    writeArena(root, "alpha", { toml: 'id = "../../../../tmp/x"\ndescription = "d"\ntools = ["calculator"]\nsystem_prompt_intent = "i"\n' });
    const message = `alpha/arena.toml:1: id '../../../../tmp/x' is not a safe name ${RULE}`;

    const v = await arena(["validate", "--arenas-dir", root], root);
    expect(v.exitCode).toBe(1);
    expect(v.stdout.split("\n")).toContain(`  ERROR alpha: ${message}`);

    const r = await run(root);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`arena run: ${message}`);
    expect(r.stdout).toBe("");
  });

  it("an id aimed at a sentinel folder through the checkpoint path: run exits 2, the folder is untouched", async () => {
    const root = tempRoot();
    const sentinel = path.join(root, "sentinel");
    mkdirSync(sentinel);
    writeFileSync(path.join(sentinel, "keep.txt"), "still here");
    // Where `arena run` builds checkpoint folders: <repo>/checkpoints/<run id>/<adapter>/<arena id>.
    const target = path.relative(path.join(REPO_ROOT, "checkpoints", "run-id", "vanilla"), sentinel);
    writeArena(root, "alpha", { toml: `id = ${JSON.stringify(target)}\n` });
    const before = readdirSync(root).sort();

    const r = await run(root);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/^arena run: alpha\/arena\.toml:1: id '\.\.\/.* is not a safe name /);
    expect(existsSync(path.join(sentinel, "keep.txt"))).toBe(true);
    expect(readdirSync(root).sort()).toEqual(before);
  });

  it("JSON nested 5,000 deep in dataset.jsonl: one located line from validate and list, no stack", async () => {
    const root = tempRoot();
    writeArena(root, "alpha", { dataset: `${"[".repeat(5000)}${"]".repeat(5000)}\n` });
    const message = "alpha/dataset.jsonl:1: invalid JSON (Nested deeper than 64 levels)";

    const v = await arena(["validate", "--arenas-dir", root], root);
    expect(v.exitCode).toBe(1);
    expect(v.stdout).toBe(`  ERROR alpha: ${message}\nalpha: 1 error(s)\n\n1/1 arena(s) invalid`);
    expect(v.stderr).toBe("");

    const l = await arena(["list", "--arenas-dir", root], root);
    expect(l.exitCode).toBe(1);
    expect(l.stdout.split("\n")[1]).toMatch(new RegExp(`^alpha +- +- +- +does not load: ${message.replace(/[()]/g, "\\$&")}$`));
    expect(`${v.stdout}${v.stderr}${l.stdout}${l.stderr}`).not.toMatch(STACK_LINE);
  });

  it("a FIFO as dataset.jsonl: validate and list answer at once, naming the file", async () => {
    const root = tempRoot();
    writeArena(root, "alpha", { dataset: { kind: "fifo" } });
    const message = "alpha/dataset.jsonl:1: not a regular file (a FIFO)";

    const v = await arena(["validate", "--arenas-dir", root], root);
    expect(v.timedOut).toBe(false);
    expect(v.exitCode).toBe(1);
    expect(v.stdout.split("\n")[0]).toBe(`  ERROR alpha: ${message}`);

    const l = await arena(["list", "--arenas-dir", root], root);
    expect(l.timedOut).toBe(false);
    expect(l.exitCode).toBe(1);
    expect(l.stdout).toContain(`does not load: ${message}`);
  });

  it("a FIFO as cases.json: run exits 2 at once, before anything hashes or reads it", async () => {
    const root = tempRoot();
    writeArena(root, "alpha", { cases: { kind: "fifo" } });
    const r = await run(root);
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe("arena run: alpha/cases.json:1: not a regular file (a FIFO)");
  });

  it("a FIFO as the corpus: run is a usage error naming it, at once", async () => {
    const root = tempRoot();
    writeArena(root, "alpha");
    const corpus = path.join(root, "corpus.json");
    putFile(corpus, { kind: "fifo" });
    const r = await arena(["run", "--arenas-dir", root, "--arena", "alpha", "--framework", "vanilla", "--corpus", corpus], root);
    expect(r.timedOut).toBe(false);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`arena run: --corpus ${corpus}: not a regular file (a FIFO)`);
  });

  it("an empty dataset: validate reports it, run exits 2", async () => {
    const root = tempRoot();
    writeArena(root, "alpha", { dataset: "# nothing here yet\n" });
    const message = "alpha/dataset.jsonl:1: dataset.jsonl has no items";

    const v = await arena(["validate", "--arenas-dir", root], root);
    expect(v.exitCode).toBe(1);
    expect(v.stdout.split("\n")[0]).toBe(`  ERROR alpha: ${message}`);

    const r = await run(root);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toBe(`arena run: ${message}`);
  });
});
