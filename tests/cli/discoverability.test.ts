/** `--version`, `--help`'s environment / exit codes / outputs, nearest-name suggestions, `arena adapters`, `bench --arena`: on the real CLI. */
import { readFileSync } from "node:fs";
import { findPackageJSON } from "node:module";
import path from "node:path";
import { ADAPTER_CATALOG } from "../../contract/catalogue.ts";
import { describe, expect, it } from "vitest";
import { COMPARE_RULE } from "../../orchestrator/cli/commands/index.ts";
import { arenaCli, outputRoot } from "../support/cli.ts";
import { REPO_ROOT } from "../support/reference.ts";

const first = (text: string) => text.split("\n")[0];

describe("discoverability (real CLI)", () => {
  it("--version names the harness, the record format and Node", async () => {
    const r = await arenaCli(["--version"], {});
    expect(r).toMatchObject({ exitCode: 0, stdout: `arena 0.1.0 (record format 2), Node ${process.versions.node}`, stderr: "" });
  });

  it("--help names the environment variables, the exit codes and where outputs go", async () => {
    const r = await arenaCli(["--help"], {});
    expect(r.exitCode).toBe(0);
    const out = r.stdout.split("\n");
    for (const heading of ["environment:", "exit codes:", "outputs:"]) expect(out).toContain(heading);
    for (const name of ["ARENA_OUTPUT_ROOT", "OPENAI_API_KEY", "ARENA_SANDBOX", "ARENA_LLM_MODE"]) expect(r.stdout).toContain(name);
    expect(out).toContain("  129, 130, 143  interrupted by SIGHUP / SIGINT / SIGTERM: resume with --resume");
    expect(out.some((l) => /^ {2}runs\/<run-id>\/ +each run: run\.json/.test(l))).toBe(true);
    for (const name of ["runs", "compare", "score", "adapters"]) expect(out.some((l) => l.startsWith(`  ${name} `))).toBe(true);
    const compare = await arenaCli(["compare", "--help"], {});
    expect(compare.stdout.split("\n").slice(0, 4 + COMPARE_RULE.length)).toEqual([
      "usage: arena compare [--threshold N] [--alpha P] [--format F] RUN_A RUN_B",
      "",
      "diff two runs item by item (paired); exit 1 on a regression from RUN_A to RUN_B",
      "",
      ...COMPARE_RULE,
    ]);
  });

  it("an unknown command, flag, arena, framework or item suggests the nearest name", async () => {
    const { env } = outputRoot();
    const cases: [string[], string][] = [
      [["rnus"], "arena: unknown command 'rnus'; did you mean 'runs'?"],
      [["run", "--framwork", "vanilla"], "arena run: unknown flag '--framwork'; did you mean --framework?"],
      [["compare", "--treshold", "1"], "arena compare: unknown flag '--treshold'; did you mean --threshold?"],
      [["bench", "--arena", "tool_us"], `arena bench: no such arena 'tool_us' in ${path.join(REPO_ROOT, "arenas")}; did you mean 'tool_use'? (available: durable_state, human_in_the_loop, multi_agent, rag, resilience, structured_output, tool_use)`],
      [["run", "--arena", "tool_use", "--framework", "vanila"], `arena run: unknown framework 'vanila'; did you mean 'vanilla'? (known: ${[...ADAPTER_CATALOG.map((e) => e.name), "all", "all-ts", "all-py"].join(", ")})`],
      [["run", "--item", "tu-1", "--framework", "vanilla"], "arena run: no such item(s) in any arena: tu-1; did you mean 'tu-01'?"],
      [["run", "--item", "zzzzzz", "--framework", "vanilla"], "arena run: no such item(s) in any arena: zzzzzz"],
      // `run` alone once ran the whole matrix: it asks what to run, and names the command that runs everything.
      [["run", "--framework", "vanilla"], "arena run: --arena ID or --item ID says what to run (the whole matrix is arena bench)"],
    ];
    for (const [argv, line] of cases) {
      const r = await arenaCli(argv, env);
      expect(r.exitCode, argv.join(" ")).toBe(2);
      expect(first(r.stderr), argv.join(" ")).toBe(line);
    }
  }, 60_000);

  it("arena adapters: every catalogue adapter, installed, its arenas, its pause mechanism and its framework's version", async () => {
    const r = await arenaCli(["adapters"], {});
    expect(r.exitCode, r.stderr).toBe(0);
    const [catalogue, declarations] = r.stdout.split("\n\n");
    const rows = catalogue!.split("\n").map((l) => l.split(/ {2,}/));
    expect(rows[0]).toEqual(["adapter", "installed", "arenas", "pause / durable", "version"]);
    expect(rows.map((row) => row[0])).toEqual(["adapter", ...ADAPTER_CATALOG.map((e) => e.name)]);
    const version = (pkg: string) => JSON.parse(readFileSync(findPackageJSON(pkg, import.meta.url)!, "utf8")).version;
    expect(rows[1]).toEqual(["vanilla", "yes", "all", "own loop stops at the pause tool; the transcript travels in resume_state", "Node standard library (no framework package)"]);
    expect(rows[2]!.slice(0, 4)).toEqual(["vanilla-multi", "yes", "multi_agent (any arena when named)", "none (pipeline: no resume, unsupported on pause arenas)"]);
    expect(rows[3]![4]).toBe(`@openai/agents ${version("@openai/agents")}`);
    expect(rows[7]![4]).toBe(`ai ${version("ai")} (@ai-sdk/openai-compatible ${version("@ai-sdk/openai-compatible")})`);
    // Then every adapter's wire declarations (declarations.json), with their reasons.
    expect(declarations).toMatch(/^What each adapter declares about its wire/);
    const declared = r.stdout.split("\n\n").slice(2).join("\n\n").split("\n").filter(Boolean).map((l) => l.split(/ {2,}/));
    expect(declared[0]).toEqual(["adapter", "declares", "what", "why"]);
    expect(declared.find((d) => d[0] === "vanilla")?.slice(1, 3)).toEqual(["nothing", "the baseline's wire"]);
    expect(declared.find((d) => d[0] === "mastra" && d[1] === "tool_transforms")?.[2]).toBe("json-schema-draft-07");
    expect(new Set(declared.slice(1).map((d) => d[0]))).toEqual(new Set(ADAPTER_CATALOG.map((e) => e.name)));
  });

  it("bench --arena runs only the named arenas", async () => {
    const { root, env } = outputRoot();
    const r = await arenaCli(["bench", "--arena", "tool_use", "--framework", "vanilla", "--concurrency", "2", "--quiet"], env);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout.split("\n")[0]).toBe("tool_use vanilla: 18/18 passed");
    const manifest = JSON.parse(readFileSync(path.join(root, "runs", "latest", "run.json"), "utf8"));
    expect(manifest).toMatchObject({ command: "bench", arenas: [{ id: "tool_use" }] });
  }, 120_000);
});
