/**
 * The bad inputs of `arena run` that used to hang or lie (issue 20, part 7), against the real
 * executable: each is one clear line naming the flag, variable, file or field, exit 2 (3 for an
 * environment that cannot be written), never a stack trace, and no debris — no runs/, no
 * checkpoints/, nothing beside the arena in the temp root the outputs would go to.
 */
import { readdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { REPO_ROOT } from "../support/reference.ts";
import { putFile, tempRoot, writeArena } from "../arena-loader/fixture.ts";
import { MAX_INPUT_BYTES } from "../../orchestrator/arena/validate-dataset.ts";

const BIN = path.join(REPO_ROOT, "orchestrator/cli/bin.mjs");
/** Far more than a refusal needs; a blocking open or an endless mkdir would never return at all. */
const PROMPT_MS = 20_000;
const STACK_LINE = /^\s+at /m;

function arena(args: string[], cwd: string, env: Record<string, string> = {}) {
  return execa(process.execPath, [BIN, ...args], { cwd, reject: false, timeout: PROMPT_MS, env: { ARENA_OUTPUT_ROOT: cwd, ...env } });
}

const runArgs = (root: string, ...extra: string[]) => ["run", "--arenas-dir", root, "--arena", "alpha", "--framework", "vanilla", ...extra];

/** A refusal: the exit code, the first stderr line exactly, no stack, nothing on stdout, no output folder. */
async function expectRefused(root: string, args: string[], code: number, line: string, env: Record<string, string> = {}) {
  const before = readdirSync(root).sort();
  const r = await arena(args, root, env);
  expect(r.timedOut, args.join(" ")).toBe(false);
  expect(r.exitCode, `${args.join(" ")}: ${r.stderr}`).toBe(code);
  expect(r.stderr.split("\n")[0]).toBe(line);
  expect(r.stderr).not.toMatch(STACK_LINE);
  expect(r.stdout).toBe("");
  expect(readdirSync(root).sort()).toEqual(before);
  return r;
}

describe("hostile run flags and environment (child process)", () => {
  it("a repeated single-value flag is refused naming both values, not silently the last", async () => {
    const root = tempRoot();
    writeArena(root, "alpha");
    await expectRefused(root, [...runArgs(root), "--mode", "live", "--mode", "mock"], 2, "arena run: --mode given twice ('live', then 'mock'): give it once");
    await expectRefused(root, [...runArgs(root), "--repeat", "2", "--repeat=3"], 2, "arena run: --repeat given twice ('2', then '3'): give it once");
  });

  it("a negative count gets the flag's own rule, not parseArgs' 'argument is ambiguous'", async () => {
    const root = tempRoot();
    writeArena(root, "alpha");
    const r = await expectRefused(root, [...runArgs(root), "--repeat", "-5"], 2, "arena run: --repeat: '-5' must be between 1 and 1000");
    expect(r.stderr).not.toContain("ambiguous");
    await expectRefused(root, [...runArgs(root), "--concurrency", "-1"], 2, "arena run: --concurrency: '-1' must be between 1 and 1024");
    await expectRefused(root, ["clean", "--keep", "-2"], 2, "arena clean: --keep: '-2' must be between 0 and 1000000");
  });

  it("count flags are bounded, the bound in the message: --repeat 1000000000 is refused at once instead of growing to GBs", async () => {
    const root = tempRoot();
    writeArena(root, "alpha");
    await expectRefused(root, [...runArgs(root), "--repeat", "1000000000"], 2, "arena run: --repeat: '1000000000' must be between 1 and 1000");
    await expectRefused(root, [...runArgs(root), "--concurrency", "5000"], 2, "arena run: --concurrency: '5000' must be between 1 and 1024");
    await expectRefused(root, ["clean", "--keep", "99999999"], 2, "arena clean: --keep: '99999999' must be between 0 and 1000000");
    await expectRefused(root, ["compare", "--threshold", "2000000", "a", "b"], 2, "arena compare: --threshold: '2000000' must be between 0 and 1000000");
  });

  it.each(["/proc", "/proc/self/runs-here", "/sys/kernel"])("ARENA_OUTPUT_ROOT=%s is refused at once, before any mkdir (one loops forever there)", async (where) => {
    const root = tempRoot();
    writeArena(root, "alpha");
    const tree = where.split("/")[1];
    await expectRefused(root, runArgs(root), 2, `arena run: ARENA_OUTPUT_ROOT: '${where}' is under /${tree}, a kernel pseudo filesystem: nothing can be written there`, {
      ARENA_OUTPUT_ROOT: where,
    });
  });

  it("an empty ARENA_MODEL is the default model, and the run says so on its first stderr line", async () => {
    const root = tempRoot();
    writeArena(root, "alpha");
    // Refused afterwards (a missing --expectations file) so that nothing runs; the note comes first.
    const r = await arena([...runArgs(root), "--expectations", "nope.toml"], root, { ARENA_MODEL: " " });
    expect(r.exitCode).toBe(2);
    expect(r.stderr.split("\n").slice(0, 2)).toEqual([
      "note: ARENA_MODEL is set but empty: using the default model 'gpt-4.1-mini' (empty means the default)",
      "arena run: --expectations nope.toml: no such file (only the default expectations.toml may be absent; --update-expected creates it)",
    ]);
  });

  it("an output root whose checkpoints/ cannot be made: exit 3 naming the path, and no run folder left behind", async () => {
    const root = tempRoot();
    writeArena(root, "alpha");
    writeFileSync(path.join(root, "checkpoints"), "a file where a folder should be\n");
    const r = await arena(runArgs(root), root);
    expect(r.exitCode).toBe(3);
    expect(r.stderr).toMatch(new RegExp(`^arena: cannot write ${root}/checkpoints/\\d{8}T\\d{9}Z-[0-9a-f]{6}: ENOTDIR .* — nothing ran \\(exit 3\\)$`));
    expect(r.stderr).not.toMatch(STACK_LINE);
    // Neither runs/<id>/ with its write probe, nor an empty runs/: `arena runs` has nothing to list.
    expect(readdirSync(root).sort()).toEqual(["alpha", "checkpoints"]);
  });
});

describe("hostile expectations and arena data at run time (child process)", () => {
  it("--expectations naming a missing file is an error (only the default may be absent), before anything runs", async () => {
    const root = tempRoot();
    writeArena(root, "alpha");
    await expectRefused(
      root,
      [...runArgs(root), "--expectations", "nope.toml"],
      2,
      "arena run: --expectations nope.toml: no such file (only the default expectations.toml may be absent; --update-expected creates it)",
    );
  });

  it("--expectations /dev/zero or a FIFO is refused before the first item, without being opened", async () => {
    const root = tempRoot();
    writeArena(root, "alpha");
    const fifo = path.join(root, "expected.toml");
    putFile(fifo, { kind: "fifo" });
    await expectRefused(root, [...runArgs(root), "--expectations", "expected.toml"], 2, "arena run: expected.toml:1: not a regular file (a FIFO)");
    const dev = path.relative(root, "/dev/zero");
    await expectRefused(root, [...runArgs(root), "--expectations", "/dev/zero"], 2, `arena run: ${dev}:1: not a regular file (a character device)`);
  });

  it("run refuses every error validate reports: duplicate ids, an unknown check type, a tol of -5, 1e999 or NaN, an item no scenario matches", async () => {
    const cases: [string, string][] = [
      ["duplicate id", `{"id": "d-01", "input": "What is 2 plus 2?", "checks": [{"type": "contains", "value": "4"}]}\n`],
      ["unknown check", `{"id": "d-02", "input": "What is 2 plus 2?", "checks": [{"type": "nope"}]}\n`],
      ["negative tol", `{"id": "d-02", "input": "What is 2 plus 2?", "checks": [{"type": "numeric_equals", "value": 4, "tol": -5}]}\n`],
      ["infinite tol", `{"id": "d-02", "input": "What is 2 plus 2?", "checks": [{"type": "numeric_equals", "value": 4, "tol": 1e999}]}\n`],
      ["NaN tol", `{"id": "d-02", "input": "What is 2 plus 2?", "checks": [{"type": "numeric_equals", "value": 4, "tol": NaN}]}\n`],
      // A mock run only: a live run never reads the mock script (exit-codes.test.ts runs such an arena live).
      ["no scenario", `{"id": "d-02", "input": "What is 3 plus 3?", "checks": [{"type": "contains", "value": "6"}]}\n`],
    ];
    for (const [what, line] of cases) {
      const root = tempRoot();
      writeArena(root, "alpha", { dataset: `{"id": "d-01", "input": "What is 2 plus 2?", "checks": [{"type": "contains", "value": "4"}]}\n${line}` });
      const v = await arena(["validate", "--arenas-dir", root], root);
      expect(v.exitCode, what).toBe(1);
      const error = /^ {2}ERROR alpha: (.*)$/m.exec(v.stdout)?.[1];
      expect(error, `${what}: ${v.stdout}`).toMatch(/^alpha\/dataset\.jsonl:2: /);
      // The same message, word for word: run applies validate's rules, not a weaker copy of them.
      await expectRefused(root, runArgs(root), 2, `arena run: ${error}`);
    }
    // Twelve real CLI processes, one after another.
  }, 60_000);

  it("an input past what the gateway's 8 MiB body limit leaves for it: validate exits 1, run 2, naming the item", async () => {
    const root = tempRoot();
    const input = `What is 2 plus 2? ${"x".repeat(MAX_INPUT_BYTES)}`;
    writeArena(root, "alpha", { dataset: `${JSON.stringify({ id: "d-01", input, checks: [{ type: "contains", value: "4" }] })}\n` });
    const message = `alpha/dataset.jsonl:1: d-01: 'input' is ${MAX_INPUT_BYTES + 20} bytes as JSON, over the ${MAX_INPUT_BYTES} the gateway's 8 MiB request limit leaves for it`;
    const v = await arena(["validate", "--arenas-dir", root], root);
    expect(v.exitCode).toBe(1);
    expect(v.stdout.split("\n")[0]).toBe(`  ERROR alpha: ${message}`);
    await expectRefused(root, runArgs(root), 2, `arena run: ${message}`);
  });
});
