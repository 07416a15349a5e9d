/** The real executable as a child process: what CI and users run. */
import path from "node:path";
import { execa } from "execa";
import { describe, expect, it } from "vitest";
import { describeWithReference, REFERENCE_ARENAS, REPO_ROOT } from "../support/reference.ts";
import { jsonl, tempRoot, writeArena } from "../arena-loader/fixture.ts";

const BIN = path.join(REPO_ROOT, "orchestrator/cli/bin.mjs");

function arena(args: string[], cwd: string) {
  return execa(process.execPath, [BIN, ...args], { cwd, reject: false });
}

describe("arena (child process)", () => {
  it("validate: exit 0 on valid arenas", async () => {
    const root = tempRoot();
    writeArena(root, "alpha");
    writeArena(root, "beta");
    const r = await arena(["validate", "--arenas-dir", root], root);
    expect(r.exitCode).toBe(0);
    expect(r.stdout).toBe("alpha: ok\nbeta: ok");
    expect(r.stderr).toBe("");
  });

  it("validate: exit 1 with the messages on invalid arenas", async () => {
    const root = tempRoot();
    writeArena(root, "alpha");
    writeArena(root, "bad", {
      toml: 'id = "bad"\ndescription = "d"\ntools = ["search", "calculator", "telepathy"]\nsystem_prompt_intent = "i"\n',
      dataset: jsonl({ id: "d-01", input: "What is 2 plus 2?", checks: [{ type: "vibes" }] }),
    });
    const r = await arena(["validate", "--arenas-dir", root], root);
    expect(r.exitCode).toBe(1);
    const lines = r.stdout.split("\n");
    expect(lines[0]).toBe("alpha: ok");
    expect(lines[1]).toMatch(/^ {2}ERROR bad: bad\/arena\.toml:3: declares tools \['telepathy'\] that arena\.tools does not provide/);
    expect(lines[2]).toMatch(/^ {2}ERROR bad: bad\/dataset\.jsonl:1: d-01\.checks\[0\]: unknown check type 'vibes' \(known: /);
    expect(lines.slice(3)).toEqual(["bad: 2 error(s)", "", "1/2 arena(s) invalid"]);
  });

  it("bad input never prints a stack trace", async () => {
    const root = tempRoot();
    writeArena(root, "alpha", { toml: new Uint8Array([0x69, 0x64, 0x20, 0x3d, 0x20, 0x22, 0xff, 0x22, 0x0a]), script: "[" });
    const r = await arena(["validate", "--arenas-dir", root], root);
    expect(r.exitCode).toBe(1);
    expect(r.stdout).toContain("  ERROR alpha: alpha/arena.toml:1: invalid UTF-8 (byte 0xff at offset 6)");
    expect(`${r.stdout}${r.stderr}`).not.toMatch(/\n\s+at /);
  });

  it("run: a corpus that cannot be read is a usage error naming the file, before anything runs", async () => {
    const root = tempRoot();
    writeArena(root, "alpha");
    const missing = path.join(root, "no-such-corpus.json");
    const r = await arena(["run", "--arenas-dir", root, "--arena", "alpha", "--framework", "vanilla", "--corpus", missing], root);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`arena run: --corpus ${missing}: cannot read`);
    expect(r.stdout).toBe("");
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("usage errors exit 2", async () => {
    const r = await arena(["nonsense"], tempRoot());
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("unknown command 'nonsense'");
  });
});

describeWithReference("arena validate on the reference arenas", () => {
  it("every reference arena is ok", async () => {
    const r = await arena(["validate", "--arenas-dir", REFERENCE_ARENAS], REPO_ROOT);
    expect(r.exitCode).toBe(0);
    expect(r.stdout.split("\n")).toEqual(
      ["boundary_response", "durable_state", "human_in_the_loop", "multi_agent", "rag", "resilience", "structured_output", "tool_use"].map((id) => `${id}: ok`),
    );
  });
});
