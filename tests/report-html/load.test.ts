import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadRun, resolveRunDir } from "../../orchestrator/report/html/load.ts";
import { arenaCli } from "../support/cli.ts";
import { RUN_ID, writeFixtureRun } from "./fixture.ts";

const roots: string[] = [];
afterAll(() => {
  for (const r of roots) rmSync(r, { recursive: true, force: true });
});

function fixture() {
  const f = writeFixtureRun();
  roots.push(f.root);
  return f;
}

describe("loadRun", () => {
  it("reads the manifest, every record, the transcripts and a recorded git sha", () => {
    const { runDir } = fixture();
    const loaded = loadRun(runDir);
    if (!loaded.ok) throw new Error(loaded.error.problem);
    expect(loaded.value.runId).toBe(RUN_ID);
    expect(loaded.value.records.map((r) => r.arena)).toEqual(["durable_state", "resilience", "tool_use"]);
    expect(loaded.value.transcripts?.map((t) => `${t.arena}/${t.framework}`)).toEqual(["tool_use/fancy"]);
    expect(loaded.value.gitSha).toBe("0123456789abcdef0123456789abcdef01234567");
  });

  const broken: [string, (runDir: string) => string][] = [
    ["a missing folder", (d) => (rmSync(d, { recursive: true }), d)],
    ["a missing manifest", (d) => (rmSync(path.join(d, "run.json")), path.join(d, "run.json"))],
    ["a corrupt record", (d) => (writeFileSync(path.join(d, "records", "rag.json"), '{"format_version": 2,'), path.join(d, "records", "rag.json"))],
    ["no records", (d) => (rmSync(path.join(d, "records"), { recursive: true }), path.join(d, "records"))],
    [
      "a record of another format",
      (d) => (writeFileSync(path.join(d, "records", "old.json"), JSON.stringify({ format_version: 1 })), path.join(d, "records", "old.json")),
    ],
    [
      "a transcript of an item the record lacks",
      (d) => {
        const file = path.join(d, "transcripts", "tool_use", "fancy.json");
        const t = JSON.parse(readFileSync(file, "utf8"));
        t.items["t-99#0"] = { legs: [] };
        writeFileSync(file, JSON.stringify(t));
        return file;
      },
    ],
    [
      "a transcript whose block is missing",
      (d) => {
        const file = path.join(d, "transcripts", "tool_use", "fancy.json");
        const t = JSON.parse(readFileSync(file, "utf8"));
        t.blocks = {};
        writeFileSync(file, JSON.stringify(t));
        return file;
      },
    ],
  ];
  for (const [what, breakIt] of broken) {
    it(`names the file at fault for ${what}`, () => {
      const { runDir } = fixture();
      const file = breakIt(runDir);
      const loaded = loadRun(runDir);
      expect(loaded.ok).toBe(false);
      if (!loaded.ok) {
        expect(loaded.error.file).toBe(file);
        expect(loaded.error.problem).not.toBe("");
      }
    });
  }
});

describe("resolveRunDir", () => {
  it("takes runs/latest by default, a run id under runs/, or a folder path", () => {
    const { runsDir, runDir } = fixture();
    expect(resolveRunDir(runsDir, undefined, "/")).toMatchObject({ ok: false, error: { file: path.join(runsDir, "latest") } });
    symlinkSync(RUN_ID, path.join(runsDir, "latest"));
    expect(resolveRunDir(runsDir, undefined, "/")).toEqual({ ok: true, value: runDir });
    expect(resolveRunDir(runsDir, RUN_ID, "/")).toEqual({ ok: true, value: runDir });
    expect(resolveRunDir(runsDir, path.relative(process.cwd(), runDir), process.cwd())).toEqual({ ok: true, value: runDir });
    expect(resolveRunDir(runsDir, "20990101T000000000Z-000000", "/")).toMatchObject({ ok: false, error: { problem: "no such run folder" } });
  });
});

describe("arena report", () => {
  it("writes runs/<run>/report.html for the latest run and prints its path", async () => {
    const { root, runsDir, runDir } = fixture();
    symlinkSync(RUN_ID, path.join(runsDir, "latest"));
    const r = await arenaCli(["report"], { ARENA_OUTPUT_ROOT: root });
    expect(r.stderr).toBe("");
    expect(r.exitCode).toBe(0);
    expect(r.stdout.trim()).toBe(path.join(runDir, "report.html"));
    expect(readFileSync(path.join(runDir, "report.html"), "utf8")).toMatch(/^<!doctype html>/);
  });

  it("combines several runs into one runs/report-<time>.html", async () => {
    const { root, runsDir, runDir } = fixture();
    const other = path.join(runsDir, "20261202T080000000Z-def456");
    mkdirSync(other);
    for (const f of ["run.json", "records"]) {
      const src = path.join(runDir, f);
      if (f === "records") {
        mkdirSync(path.join(other, f));
        writeFileSync(path.join(other, f, "tool_use.json"), readFileSync(path.join(src, "tool_use.json")));
      } else writeFileSync(path.join(other, f), readFileSync(src, "utf8").replace(RUN_ID, "20261202T080000000Z-def456"));
    }
    const r = await arenaCli(["report", RUN_ID, other], { ARENA_OUTPUT_ROOT: root });
    expect(r.exitCode).toBe(0);
    const file = r.stdout.trim();
    expect(path.dirname(file)).toBe(runsDir);
    expect(path.basename(file)).toMatch(/^report-\d{8}T\d{9}Z\.html$/);
    expect(readFileSync(file, "utf8")).toContain("agentic-arena report — 2 runs");
    expect(existsSync(path.join(runDir, "report.html"))).toBe(false);
  });

  it("refuses a missing run or a corrupt record in one line naming the file, exit 2", async () => {
    const { root, runDir } = fixture();
    const missing = await arenaCli(["report", path.join(root, "nowhere")], { ARENA_OUTPUT_ROOT: root });
    expect(missing.exitCode).toBe(2);
    expect(missing.stderr).toBe(`arena report: ${path.join(root, "nowhere")}: no such run folder`);
    const record = path.join(runDir, "records", "tool_use.json");
    writeFileSync(record, "{ truncated");
    const corrupt = await arenaCli(["report", runDir], { ARENA_OUTPUT_ROOT: root });
    expect(corrupt.exitCode).toBe(2);
    expect(corrupt.stderr.split("\n")).toHaveLength(1);
    expect(corrupt.stderr).toContain(`arena report: ${record}: not valid JSON`);
    expect(corrupt.stderr).not.toMatch(/\n\s+at /);
  });
});
