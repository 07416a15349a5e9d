/**
 * Run history on the real CLI, in a temp output root: `arena runs`, `arena score` (a re-score with
 * today's checks into a new linked run folder), `arena compare` (paired, exit 1 on a regression),
 * and the progress lines a piped run prints or `--quiet` suppresses.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { arenaCli, arenasCopy, comparableScorecard, editItems, outputRoot, runIdsIn } from "../support/cli.ts";
import { REPO_ROOT } from "../support/reference.ts";

let arenas = "";
let root = "";
let env: Record<string, string> = {};
const ids: Record<string, string> = {};

const cols = (line: string) => line.split(/ {2,}/);
const lines = (text: string) => text.trimEnd().split("\n");
const rel = (p: string) => path.relative(REPO_ROOT, p);
const runDir = (id: string) => path.join(root, "runs", id);
const record = (id: string) => JSON.parse(readFileSync(path.join(runDir(id), "records", "tool_use.json"), "utf8"));
const date = (id: string) => id.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2}).*$/, "$1-$2-$3 $4:$5:$6Z");

/** Moves the expected number of `ids`' numeric_equals checks off by one: their recorded answers now fail. */
function breakChecks(itemIds: readonly string[]): void {
  editItems<{ id: string; checks: { type: string; value: number }[] }>(arenas, "tool_use", (item) => {
    if (!itemIds.includes(item.id)) return undefined;
    for (const c of item.checks) if (c.type === "numeric_equals") c.value += 1;
    return item;
  });
}

/** The one run id that appeared since `before`. */
function newId(before: readonly string[]): string {
  const added = runIdsIn(root).filter((id) => !before.includes(id));
  expect(added).toHaveLength(1);
  return added[0]!;
}

beforeAll(() => {
  arenas = arenasCopy();
  ({ root, env } = outputRoot());
});

describe("run history (real CLI)", () => {
  it("a piped run prints no line per passing item, and its last stderr line is the final count", async () => {
    const r = await arenaCli(["run", "--arenas-dir", arenas, "--arena", "tool_use", "--framework", "vanilla", "--concurrency", "2"], env);
    expect(r.exitCode, r.stderr).toBe(0);
    ids.a = runIdsIn(root)[0]!;
    expect(lines(r.stderr).at(-1)).toMatch(/^\[18\/18\] 18 passed, 0 failed, 0 errored · \d+(m\d\d)?s elapsed$/);
    expect(r.stderr).not.toContain("tu-01");
  }, 120_000);

  it("--item without --arena finds the item's arena; --quiet prints no progress", async () => {
    const before = runIdsIn(root);
    const r = await arenaCli(["run", "--arenas-dir", arenas, "--item", "tu-07", "--item", "tu-01", "--framework", "vanilla", "--quiet"], env);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    ids.partial = newId(before);
    const manifest = JSON.parse(readFileSync(path.join(runDir(ids.partial), "run.json"), "utf8"));
    expect(manifest.arenas.map((a: { id: string }) => a.id)).toEqual(["tool_use"]);
    expect(record(ids.partial).filtered_to).toEqual(["tu-01", "tu-07"]);
    expect(lines(r.stdout)[0]).toBe("tool_use vanilla: 2/2 passed");
  }, 120_000);

  it("arena runs: one row per run folder with its date, mode, arenas, adapters, passes and status", async () => {
    const r = await arenaCli(["runs"], env);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(lines(r.stdout).map(cols)).toEqual([
      ["id", "date", "mode", "arenas", "adapters", "passed", "status"],
      [ids.a, date(ids.a!), "mock", "tool_use", "vanilla", "18/18", "complete"],
      [ids.partial, date(ids.partial!), "mock", "tool_use", "vanilla", "2/2", "complete (partial)"],
    ]);
  });

  it("arena score with unchanged checks: a new linked run whose records and scorecards equal the original's", async () => {
    const before = runIdsIn(root);
    const r = await arenaCli(["score", ids.a!], env);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(r.stderr).toBe("");
    const id = newId(before);
    expect(lines(r.stdout)).toEqual([
      "tool_use vanilla: 18/18 passed (was 18)",
      `0 verdict(s) changed; scored from ${ids.a}, no model call`,
      `run: ${rel(runDir(id))}`,
    ]);
    const manifest = JSON.parse(readFileSync(path.join(runDir(id), "run.json"), "utf8"));
    expect(manifest).toMatchObject({ command: "score", scored_from: ids.a, run_id: id });
    expect({ ...record(id), run_id: "-" }).toEqual({ ...record(ids.a!), run_id: "-" });
    expect(comparableScorecard(runDir(id), "tool_use")).toEqual(comparableScorecard(runDir(ids.a!), "tool_use"));
    expect(readFileSync(path.join(runDir(id), "summary.md"), "utf8")).toContain("tool_use");
    expect(readFileSync(path.join(root, "runs", "latest", "run.json"), "utf8")).not.toContain('"command": "score"');
  });

  it("arena score after a check changed: warns that the arena's files changed and says which verdicts moved", async () => {
    breakChecks(["tu-01"]);
    const before = runIdsIn(root);
    const r = await arenaCli(["score", ids.a!], env);
    expect(r.exitCode, r.stderr).toBe(0);
    ids.b = newId(before);
    expect(r.stderr).toBe(`warning: arena tool_use: its files changed since ${ids.a} ran (${rel(path.join(arenas, "tool_use"))}); scoring with today's checks`);
    expect(lines(r.stdout)).toEqual([
      "tool_use/vanilla/tu-01: passed → failed",
      "tool_use vanilla: 17/18 passed (was 18)",
      `1 verdict(s) changed; scored from ${ids.a}, no model call`,
      `run: ${rel(runDir(ids.b))}`,
    ]);
    const item = record(ids.b).frameworks[0].items.find((i: { item_id: string }) => i.item_id === "tu-01");
    expect(item.checks[0]).toMatchObject({ type: "numeric_equals", ok: false, spec: { value: 1648 } });
  });

  it("arena compare: a broken item is a regression (exit 1) at the default threshold, within the rule with --threshold 1", async () => {
    const r = await arenaCli(["compare", ids.a!, ids.b!], env);
    expect(r.exitCode, r.stderr + r.stdout).toBe(1);
    const out = lines(r.stdout);
    expect(out.slice(0, 3)).toEqual([`A: ${ids.a} (mock)`, `B: ${ids.b} (mock)`, ""]);
    expect(out.slice(3, 5).map(cols)).toEqual([
      ["arena", "framework", "A", "B", "fixed", "broke", "unchanged", "p", "verdict"],
      ["tool_use", "vanilla", "18/18 100% [82–100]", "17/18 94% [74–99]", "0", "1", "17", "1.000", "REGRESSION"],
    ]);
    // A re-score changes no answer: the same tokens, so every delta is exactly zero.
    expect(out.slice(5)).toEqual([
      "  broke      tool_use/vanilla: tu-01 1/1 → 0/1",
      "  B − A     tool_use/vanilla: prompt tokens 0.0 (0.0%), completion tokens 0.0 (0.0%), cost $ 0.000000 (0.0%), latency s 0.000 (0.0%)",
      "1 regression(s) (--threshold 0): tool_use/vanilla",
    ]);
    expect(r.stderr).toBe("warning: arena tool_use: its files differ between the runs");
    const allowed = await arenaCli(["compare", ids.a!, ids.b!, "--threshold", "1"], env);
    expect(allowed.exitCode).toBe(0);
    expect(lines(allowed.stdout).at(-1)).toBe("no regression (--threshold 1)");
    expect(cols(lines(allowed.stdout)[4]!).at(-1)).toBe("broke (within rule)");
    const back = await arenaCli(["compare", ids.b!, ids.a!], env);
    expect(back.exitCode).toBe(0);
    expect(cols(lines(back.stdout)[4]!).at(-1)).toBe("improved");
    expect(lines(back.stdout)).toContain("  fixed      tool_use/vanilla: tu-01 0/1 → 1/1");
  });

  it("arena compare --alpha: six broken of six differing items (p = 0.031) regress at 0.05, not at 0.01", async () => {
    breakChecks(["tu-02", "tu-03", "tu-04", "tu-05", "tu-06"]);
    const before = runIdsIn(root);
    expect((await arenaCli(["score", ids.a!], env)).exitCode).toBe(0);
    const c = newId(before);
    const at05 = await arenaCli(["compare", ids.a!, c, "--alpha", "0.05"], env);
    expect(at05.exitCode).toBe(1);
    expect(cols(lines(at05.stdout)[4]!).slice(4)).toEqual(["0", "6", "12", "0.031", "REGRESSION"]);
    expect(lines(at05.stdout).at(-1)).toBe("1 regression(s) (--threshold 0, --alpha 0.05): tool_use/vanilla");
    const at01 = await arenaCli(["compare", ids.a!, c, "--alpha", "0.01"], env);
    expect(at01.exitCode).toBe(0);
    expect(lines(at01.stdout).at(-1)).toBe("no regression (--threshold 0, --alpha 0.01)");
  });

  it("a re-scored run is listed as such and cannot be resumed", async () => {
    const r = await arenaCli(["runs"], env);
    expect(lines(r.stdout).map(cols).find((row) => row[0] === ids.b)).toEqual([ids.b, date(ids.b!), "mock", "tool_use", "vanilla", "17/18", `complete, scored from ${ids.a}`]);
    const resume = await arenaCli(["run", "--resume", ids.b!], env);
    expect(resume.exitCode).toBe(2);
    expect(resume.stderr).toBe(`arena run: refusing to resume ${ids.b}: it is a re-score of ${ids.a}, nothing in it ran (resume that run instead)`);
  });

  it("bad input is one line, exit 2", async () => {
    const cases: [string[], string][] = [
      [["compare", ids.a!], "arena compare: expected two runs (RUN_A RUN_B), got 1\n"],
      [["compare", ids.a!, "bogus"], "arena compare: 'bogus' is not a run id (runs/<YYYYmmddTHHMMSSmmmZ-xxxxxx>) or 'latest'\n"],
      [["score", "20200101T000000000Z-abcdef"], `arena score: no such run '20200101T000000000Z-abcdef' in ${path.join(root, "runs")}\n`],
      [["compare", ids.a!, ids.b!, "--alpha", "2"], "arena compare: --alpha: '2' must be greater than 0 and at most 1\n"],
    ];
    for (const [argv, stderr] of cases) {
      const r = await arenaCli(argv, env);
      expect(r.exitCode, argv.join(" ")).toBe(2);
      expect(`${r.stderr}\n`).toBe(stderr);
    }
  });
});
