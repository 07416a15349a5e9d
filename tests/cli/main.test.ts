/** The CLI in-process: dispatch, usage errors, output format. */
import path from "node:path";
import { DEFAULT_CORPUS_PATH } from "../../contract/tools/search.ts";
import { describe, expect, it } from "vitest";
import type { Command, Io } from "../../orchestrator/cli/command.ts";
import { ArenaLoadError } from "../../orchestrator/arena/diagnostics.ts";
import { COMMANDS } from "../../orchestrator/cli/commands/index.ts";
import { main } from "../../orchestrator/cli/main.ts";
import { jsonl, tempRoot, writeArena } from "../arena-loader/fixture.ts";

function io(cwd: string) {
  let stdout = "";
  let stderr = "";
  const sink: Io = { cwd, stdout: (t) => void (stdout += t), stderr: (t) => void (stderr += t) };
  return { sink, out: () => stdout, err: () => stderr };
}

async function run(argv: string[], cwd = tempRoot(), commands?: readonly Command[]) {
  const s = io(cwd);
  const code = await main(argv, s.sink, commands);
  return { code, stdout: s.out(), stderr: s.err() };
}

describe("arena CLI", () => {
  it("registers validate and list (other commands are added beside them)", () => {
    const names = COMMANDS.map((c) => c.name);
    expect(names).toEqual(expect.arrayContaining(["validate", "list"]));
    expect(new Set(names).size).toBe(names.length);
  });

  it("no command: usage on stderr, exit 2", async () => {
    const r = await run([]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain("usage: arena <command>");
    expect(r.stderr).toContain("validate");
  });

  it("--help and help <cmd> print usage on stdout, exit 0", async () => {
    expect((await run(["--help"])).code).toBe(0);
    const help = await run(["help", "validate"]);
    expect(help.stdout).toContain("usage: arena validate [--arenas-dir DIR] [--arena ID|PATH]...");
    const own = await run(["list", "--help"]);
    expect(own).toMatchObject({ code: 0, stderr: "" });
    expect(own.stdout).toContain("usage: arena list [--arenas-dir DIR]");
  });

  it("unknown command: usage on stderr, exit 2", async () => {
    const r = await run(["frobnicate"]);
    expect(r).toMatchObject({ code: 2, stdout: "" });
    expect(r.stderr).toMatch(/^arena: unknown command 'frobnicate'\n\nusage: arena <command>/);
  });

  it("unknown flag, missing flag value, stray positional: exit 2 with the command's usage", async () => {
    for (const argv of [["validate", "--bogus"], ["validate", "--arena"], ["validate", "extra"], ["list", "--arena", "x"]]) {
      const r = await run(argv);
      expect(r.code, argv.join(" ")).toBe(2);
      expect(r.stderr).toMatch(/^arena (validate|list): .+\n\nusage: arena (validate|list)/);
      expect(r.stderr).not.toMatch(/\n\s+at /);
    }
  });

  it("unknown --arena id or missing --arenas-dir: exit 2, one line", async () => {
    const root = tempRoot();
    writeArena(root, "alpha");
    const r = await run(["validate", "--arenas-dir", root, "--arena", "nope"]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`arena validate: no such arena 'nope' in ${root} (available: alpha)\n`);
    const missing = await run(["list", "--arenas-dir", path.join(root, "nope")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toBe(`arena list: arenas directory not found: ${path.join(root, "nope")}\n`);
  });

  it("validate prints warnings, errors and a summary in the §7 format", async () => {
    const root = tempRoot();
    writeArena(root, "alpha");
    writeArena(root, "beta", {
      toml: 'id = "beta"\ntools = ["search", "calculator"]\nsystem_prompt_intent = "x"\n',
      dataset: jsonl({ id: "d-01", input: "What is 2 plus 2?", checks: [{ type: "contains", value: "4" }] }, { id: "d-01", input: "unmatched", checks: [{ type: "no_tool" }] }),
    });
    const r = await run(["validate", "--arenas-dir", "."], root);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe(
      [
        "alpha: ok",
        "  warn  beta: beta/arena.toml:1: empty 'description' (it heads the scorecard)",
        "  ERROR beta: beta/dataset.jsonl:2: duplicate id 'd-01'",
        "  ERROR beta: beta/dataset.jsonl:2: d-01: no mock scenario matches its input — this item would silently fall through to the default scenario in mock mode",
        "beta: 2 error(s)",
        "",
        "1/2 arena(s) invalid",
        "",
      ].join("\n"),
    );
  });

  it("validate --arena takes ids and paths, in the order given", async () => {
    const root = tempRoot();
    writeArena(root, "alpha");
    writeArena(root, "beta");
    const r = await run(["validate", "--arenas-dir", root, "--arena", "beta", "--arena", path.join(root, "alpha")]);
    expect(r).toMatchObject({ code: 0, stdout: "beta: ok\nalpha: ok\n", stderr: "" });
  });

  it("list shows id, items, tools, durable and description", async () => {
    const root = tempRoot();
    writeArena(root, "alpha");
    writeArena(root, "durable", { toml: 'id = "durable"\ndescription = "Pauses."\ntools = ["search", "save_progress"]\ndurable = true\n' });
    const r = await run(["list", "--arenas-dir", root]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(
      [
        "id       items  tools                 durable  description",
        "alpha    1      search,calculator     no       A demo arena.",
        "durable  1      search,save_progress  yes      Pauses.",
        "",
      ].join("\n"),
    );
  });

  it("list reports an arena that does not load, exit 1", async () => {
    const root = tempRoot();
    writeArena(root, "alpha");
    writeArena(root, "broken", { dataset: "{\n" });
    const r = await run(["list", "--arenas-dir", root], root);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain("does not load: broken/dataset.jsonl:1: invalid JSON (Expecting property name enclosed in double quotes)");
  });

  it("a new command is one registry entry: common flags are parsed for it", async () => {
    const seen: unknown[] = [];
    const example: Command = {
      name: "example",
      summary: "test command",
      common: ["arenas-dir", "arena", "corpus"],
      flags: { repeat: { type: "string", valueName: "N", description: "how many" } },
      positionals: "<framework>...",
      run: (ctx) => {
        seen.push(ctx.common, ctx.flags, ctx.positionals);
        return 0;
      },
    };
    const cwd = tempRoot();
    const r = await run(["example", "--arenas-dir", "a", "--arena", "x", "--arena", "y", "--repeat", "3", "vanilla"], cwd, [...COMMANDS, example]);
    expect(r.code).toBe(0);
    expect(seen).toEqual([
      { arenasDir: path.join(cwd, "a"), arenas: ["x", "y"], corpus: DEFAULT_CORPUS_PATH },
      { repeat: "3" },
      ["vanilla"],
    ]);
  });

  it("an arena that does not load, escaping a command, is one line on stderr and exit 2", async () => {
    const failing: Command = {
      name: "failing",
      summary: "throws",
      common: [],
      run: () => {
        throw new ArenaLoadError("arenas/x/dataset.jsonl", 7, "d-04.checks[1]", "must be an object, got str");
      },
    };
    const r = await run(["failing"], tempRoot(), [failing]);
    expect(r).toMatchObject({ code: 2, stdout: "", stderr: "arena failing: arenas/x/dataset.jsonl:7: d-04.checks[1]: must be an object, got str\n" });
  });
});
