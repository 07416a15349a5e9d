/**
 * `arena run --shard I/N` and `arena merge` on the real CLI: a small arena set run whole, then as
 * three shards merged back, gives the same records, transcripts, scorecards, summary and report
 * (timings and names masked, tests/shard/support.ts); shards that do not belong together are
 * refused with exit 2 and a message naming the run and the reason.
 */
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { arenaCli, arenasCopy, outputRoot, runIdsIn } from "../support/cli.ts";
import { comparableRun, readJson } from "./support.ts";

const ARENAS = ["tool_use", "durable_state", "human_in_the_loop"];
const runArgs = (extra: readonly string[] = [], arenas = ARENAS) => ["run", ...arenas.flatMap((a) => ["--arena", a]), "--framework", "vanilla", "--repeat", "2", ...extra];

interface Shards {
  readonly root: string;
  readonly env: Record<string, string>;
  readonly whole: string;
  /** Shard run folders, by shard number (1-based: index 0 is shard 1). */
  readonly shards: string[];
}

/** Runs the plan whole, then as `count` shards, under one output root. */
async function runSharded(count: number): Promise<Shards> {
  const { root, env } = outputRoot();
  const whole = await arenaCli(runArgs(), env);
  expect(whole.exitCode, whole.stderr).toBe(0);
  const [wholeId] = runIdsIn(root);
  const shards: string[] = [];
  for (let i = 1; i <= count; i++) {
    const before = new Set(runIdsIn(root));
    const r = await arenaCli(runArgs(["--shard", `${i}/${count}`]), env);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toMatch(new RegExp(`shard ${i}/${count}: \\d+ of 84 cell\\(s\\), expected cost \\d+ of \\d+`));
    expect(r.stdout).toContain(`shard ${i}/${count} finished; arena merge judges the whole run`);
    shards.push(path.join(root, "runs", runIdsIn(root).find((id) => !before.has(id))!));
  }
  return { root, env, whole: path.join(root, "runs", wholeId!), shards };
}

const manifestOf = (dir: string) => readJson(path.join(dir, "run.json")) as { shard?: { index: number; count: number; cells: number; total_cells: number; plan_sha256: string }; merged_from?: string[]; sessions: { status: string }[] };

describe("--shard and arena merge (real CLI)", () => {
  let run: Shards;
  beforeAll(async () => {
    run = await runSharded(3);
  }, 240_000);

  it("each shard records its part in the manifest, runs only its cells, and writes no scorecards", () => {
    const manifests = run.shards.map(manifestOf);
    expect(manifests.map((m) => [m.shard?.index, m.shard?.count])).toEqual([[1, 3], [2, 3], [3, 3]]);
    expect(new Set(manifests.map((m) => m.shard?.plan_sha256)).size).toBe(1);
    expect(manifests.reduce((n, m) => n + m.shard!.cells, 0)).toBe(84);
    const cells = run.shards.map((dir) =>
      readFileSync(path.join(dir, "journal.jsonl"), "utf8")
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l) as { type: string; arena: string; record?: { item_id: string; repeat: number } })
        .filter((l) => l.type === "item")
        .map((l) => `${l.arena}/${l.record!.item_id}#${l.record!.repeat}`),
    );
    // Every cell of the plan in exactly one shard, as many as the manifest says.
    expect(cells.map((c) => c.length)).toEqual(manifests.map((m) => m.shard!.cells));
    expect(new Set(cells.flat()).size).toBe(84);
    for (const dir of run.shards) expect(existsSync(path.join(dir, "scorecards"))).toBe(false);
  });

  it("the merged run equals the unsharded run: records, transcripts, scorecards, summary and report, timings masked", async () => {
    // A runs folder of its own (the merge's --out), so `arena compare` can find the run in it.
    const out = path.join(mkdtempSync(path.join(os.tmpdir(), "arena-merged-")), "runs");
    // Shards named as folders in another order, as a CI job that downloaded artifacts would.
    const r = await arenaCli(["merge", run.shards[2]!, run.shards[0]!, run.shards[1]!, "--out", out], run.env);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stdout).toContain("results match the expectations");
    const [mergedId] = readdirSync(out).filter((n) => /^\d{8}T/.test(n));
    const merged = path.join(out, mergedId!);
    expect(manifestOf(merged).merged_from).toEqual(run.shards.map((d) => path.basename(d)));
    expect(manifestOf(merged).shard).toBeUndefined();
    expect(manifestOf(merged).sessions.at(-1)?.status).toBe("complete");
    const want = comparableRun(run.whole, ARENAS, "vanilla");
    const got = comparableRun(merged, ARENAS, "vanilla");
    for (const file of Object.keys(want)) expect(got[file], file).toEqual(want[file]);
    // The merged journal holds every cell, so the merged folder reads back as any run does.
    const items = readFileSync(path.join(merged, "journal.jsonl"), "utf8").split("\n").filter((l) => l.includes('"type":"item"'));
    expect(items).toHaveLength(84);
    // `arena runs` tells the shards from the whole run, and the merged run from both.
    const listed = await arenaCli(["runs"], run.env);
    expect(listed.exitCode, listed.stderr).toBe(0);
    const rowOf = (stdout: string, dir: string) => stdout.split("\n").find((l) => l.startsWith(path.basename(dir))) ?? "";
    expect(rowOf(listed.stdout, run.whole)).toMatch(/complete\s*$/);
    run.shards.forEach((dir, i) => expect(rowOf(listed.stdout, dir)).toMatch(new RegExp(`\\(shard ${i + 1}/3: ${manifestOf(dir).shard!.cells} of 84 cells\\)\\s*$`)));
    const listedOut = await arenaCli(["runs"], { ...run.env, ARENA_OUTPUT_ROOT: path.dirname(out) });
    expect(rowOf(listedOut.stdout, merged)).toMatch(/complete \(merged from 3 shards\)\s*$/);
    // And reads back as a run: paired item by item with the whole run, nothing regressed either way.
    cpSync(run.whole, path.join(out, path.basename(run.whole)), { recursive: true });
    for (const [a, b] of [[run.whole, merged], [merged, run.whole]]) {
      const compared = await arenaCli(["compare", path.basename(a!), path.basename(b!)], { ...run.env, ARENA_OUTPUT_ROOT: path.dirname(out) });
      expect(compared.exitCode, compared.stdout + compared.stderr).toBe(0);
    }
  }, 60_000);

  it("judges a mock merge by the expectations file: a live run's flags are refused (exit 2)", async () => {
    const r = await arenaCli(["merge", ...run.shards, "--min-pass-rate", "0.5"], run.env);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--min-pass-rate judges a live run; a mock run is judged by the expectations file");
  });

  it.each([
    ["a shard missing", (s: Shards) => [s.shards[0]!, s.shards[1]!], /cannot merge: shard 3\/3 missing/],
    ["a shard given twice", (s: Shards) => [...s.shards, s.shards[1]!], /cannot merge: shard 2\/3 given 2 times/],
    ["a run that is not a shard", (s: Shards) => [s.whole, ...s.shards], new RegExp(`${"[^ ]*"}[0-9a-f]{6} is not a shard \\(it ran without --shard\\)`)],
  ])("refuses %s (exit 2, naming it)", async (_what, pick, message) => {
    const r = await arenaCli(["merge", ...pick(run)], run.env);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(message);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("refuses a shard not finished, and names how to finish it", async () => {
    const copy = path.join(mkdtempSync(path.join(os.tmpdir(), "arena-shard-")), path.basename(run.shards[1]!));
    cpSync(run.shards[1]!, copy, { recursive: true });
    const manifest = readJson(path.join(copy, "run.json")) as { sessions: { status: string }[] };
    manifest.sessions.at(-1)!.status = "interrupted";
    writeFileSync(path.join(copy, "run.json"), JSON.stringify(manifest));
    const r = await arenaCli(["merge", run.shards[0]!, copy, run.shards[2]!], run.env);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`(shard 2/3) is interrupted, not complete: finish it first (arena run --resume ${path.basename(copy)})`);
  });

  it.each([["records/tool_use.json"], ["transcripts/tool_use/vanilla.json"]])("refuses a shard whose %s does not read, naming the file, no stack trace", async (file) => {
    const copy = path.join(mkdtempSync(path.join(os.tmpdir(), "arena-shard-")), path.basename(run.shards[0]!));
    cpSync(run.shards[0]!, copy, { recursive: true });
    // Shard 1 of this plan holds tool_use cells (36 of its 84 cells are tool_use's), so both files exist.
    expect(existsSync(path.join(copy, file))).toBe(true);
    writeFileSync(path.join(copy, file), "{not json");
    const r = await arenaCli(["merge", copy, run.shards[1]!, run.shards[2]!], run.env);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain(`cannot merge: ${path.join(copy, file)}: not valid JSON`);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it("refuses shards of another plan, or of changed arena data, naming the difference", async () => {
    // Another plan: the same arenas at one repeat.
    const other = await arenaCli(["run", ...ARENAS.flatMap((a) => ["--arena", a]), "--framework", "vanilla", "--shard", "3/3"], run.env);
    expect(other.exitCode, other.stderr).toBe(0);
    const otherDir = path.join(run.root, "runs", runIdsIn(run.root).at(-1)!);
    const r = await arenaCli(["merge", run.shards[0]!, run.shards[1]!, otherDir], run.env);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/does not belong with .*: repeat is 1, not 2/);
    expect(r.stderr).toMatch(/plan is [0-9a-f]{12}, not [0-9a-f]{12}/);

    // The same plan over arena files that differ (a changed comment in the mock script).
    const arenas = arenasCopy();
    const script = path.join(arenas, "tool_use", "mock_script.json");
    writeFileSync(script, readFileSync(script, "utf8").replace('"_comment": "', '"_comment": "changed. '));
    const changed = await arenaCli([...runArgs(["--shard", "3/3"]), "--arenas-dir", arenas], run.env);
    expect(changed.exitCode, changed.stderr).toBe(0);
    const changedDir = path.join(run.root, "runs", runIdsIn(run.root).at(-1)!);
    const c = await arenaCli(["merge", run.shards[0]!, run.shards[1]!, changedDir], run.env);
    expect(c.exitCode).toBe(2);
    expect(c.stderr).toMatch(/does not belong with .*: arena tool_use sha256 is [0-9a-f]{12}, not [0-9a-f]{12}/);
  }, 120_000);

  it.each([["0/4"], ["5/4"], ["a/b"]])("run --shard %s exits 2 with the reason, before any folder is made", async (value) => {
    const { root, env } = outputRoot();
    const r = await arenaCli(runArgs(["--shard", value]), env);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toMatch(/--shard (must be I\/N|\d\/\d: I must be between 1 and N)/);
    expect(existsSync(path.join(root, "runs"))).toBe(false);
  });

  it("a resumed shard runs only its own missing cells", async () => {
    const { root, env } = outputRoot();
    const first = await arenaCli(["run", "--arena", "tool_use", "--framework", "vanilla", "--shard", "2/3"], env);
    expect(first.exitCode, first.stderr).toBe(0);
    const dir = path.join(root, "runs", runIdsIn(root)[0]!);
    const journal = path.join(dir, "journal.jsonl");
    const cellsOf = () => readFileSync(journal, "utf8").trim().split("\n").filter((l) => l.includes('"type":"item"')).map((l) => (JSON.parse(l) as { record: { item_id: string } }).record.item_id);
    const all = cellsOf();
    expect(all).toHaveLength(6);
    // Keep the lane line and the first two cells, as a run killed there would have.
    const lines = readFileSync(journal, "utf8").trim().split("\n");
    const keep = [...lines.filter((l) => l.includes('"type":"lane"')).slice(0, 1), ...lines.filter((l) => l.includes('"type":"item"')).slice(0, 2)];
    writeFileSync(journal, `${keep.join("\n")}\n`);
    const manifest = readJson(path.join(dir, "run.json")) as { sessions: { status: string; process?: unknown }[] };
    Object.assign(manifest.sessions.at(-1)!, { status: "interrupted" });
    writeFileSync(path.join(dir, "run.json"), JSON.stringify(manifest));
    const resumed = await arenaCli(["run", "--resume", path.basename(dir)], env);
    expect(resumed.exitCode, resumed.stderr).toBe(0);
    expect(resumed.stderr).toContain("shard 2/3: 6 of 18 cell(s)");
    expect(cellsOf().sort()).toEqual([...all].sort());
    expect(manifestOf(dir).shard).toMatchObject({ index: 2, count: 3, cells: 6 });
  }, 60_000);

  it("a resume keeps the recorded shard and refuses a new --shard", async () => {
    const r = await arenaCli(["run", "--resume", path.basename(run.shards[0]!), "--shard", "2/3"], run.env);
    expect(r.exitCode).toBe(2);
    expect(r.stderr).toContain("--shard cannot be combined with a resume: it runs the recorded shard");
  });
});

describe("--shard and arena merge with a Python adapter beside a Node one (real CLI)", () => {
  it("the merged run equals the unsharded run, both lanes in plan order", async () => {
    const { root, env } = outputRoot();
    const args = ["run", "--arena", "tool_use", "--framework", "vanilla", "--framework", "vanilla-py"];
    const whole = await arenaCli(args, env);
    expect(whole.exitCode, whole.stderr).toBe(0);
    const shards: string[] = [];
    for (const s of ["1/2", "2/2"]) {
      const before = new Set(runIdsIn(root));
      const r = await arenaCli([...args, "--shard", s], env);
      expect(r.exitCode, r.stderr).toBe(0);
      shards.push(path.join(root, "runs", runIdsIn(root).find((id) => !before.has(id))!));
    }
    // The Python lane's cells cost twice the Node lane's: each shard takes some of both.
    for (const dir of shards) {
      const lanes = new Set(readFileSync(path.join(dir, "journal.jsonl"), "utf8").split("\n").filter((l) => l.includes('"type":"item"')).map((l) => (JSON.parse(l) as { framework: string }).framework));
      expect([...lanes].sort()).toEqual(["vanilla", "vanilla-py"]);
    }
    const merged = await arenaCli(["merge", ...shards], env);
    expect(merged.exitCode, merged.stderr).toBe(0);
    const mergedDir = path.join(root, "runs", runIdsIn(root).at(-1)!);
    const record = readJson(path.join(mergedDir, "records", "tool_use.json")) as { frameworks: { framework: string }[] };
    expect(record.frameworks.map((f) => f.framework)).toEqual(["vanilla", "vanilla-py"]);
    const wholeDir = path.join(root, "runs", runIdsIn(root)[0]!);
    for (const adapter of ["vanilla", "vanilla-py"]) {
      const want = comparableRun(wholeDir, ["tool_use"], adapter);
      const got = comparableRun(mergedDir, ["tool_use"], adapter);
      for (const file of Object.keys(want)) expect(got[file], file).toEqual(want[file]);
    }
  }, 180_000);
});
