/**
 * Run against run on the real CLI, in a temp output root: a mock run of tool_use with two
 * repeats; a re-score of it after one item's check changed (that item broke on both repeats);
 * and a partial run of two items. `arena compare` in text and Markdown names the fixed and broken
 * items and exits 1 on a regression; `arena report A B` carries the same cells into the HTML
 * report's run-vs-run view, each run with its own mode.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { arenaCli, arenasCopy, editItems, outputRoot, runIdsIn } from "../support/cli.ts";
import { REPO_ROOT } from "../support/reference.ts";

let arenas = "";
let root = "";
let env: Record<string, string> = {};
const ids: Record<string, string> = {};
const lines = (text: string) => text.trimEnd().split("\n");
const cols = (line: string) => line.split(/ {2,}/);

/** Moves tu-01's expected number off by one, so its recorded answers fail when re-scored. */
function breakFirstItem(): void {
  editItems<{ id: string; checks: { type: string; value: number }[] }>(arenas, "tool_use", (item) => {
    if (item.id !== "tu-01") return undefined;
    for (const c of item.checks) if (c.type === "numeric_equals") c.value += 1;
    return item;
  });
}

async function newRun(args: string[]): Promise<string> {
  const before = existsSync(path.join(root, "runs")) ? runIdsIn(root) : [];
  const r = await arenaCli(args, env);
  expect(r.exitCode, r.stderr).toBe(0);
  const added = runIdsIn(root).filter((id) => !before.includes(id));
  expect(added).toHaveLength(1);
  return added[0]!;
}

beforeAll(async () => {
  arenas = arenasCopy();
  ({ root, env } = outputRoot());
  ids.a = await newRun(["run", "--arenas-dir", arenas, "--arena", "tool_use", "--framework", "vanilla", "--repeat", "2", "--quiet"]);
  ids.partial = await newRun(["run", "--arenas-dir", arenas, "--item", "tu-02", "--item", "tu-03", "--framework", "vanilla", "--repeat", "2", "--quiet"]);
  breakFirstItem();
  ids.b = await newRun(["score", ids.a]);
}, 180_000);

describe("arena compare and arena report A B (real CLI)", () => {
  it("text: the broken item by name with its passes over both repeats, counted per item, exit 1", async () => {
    const r = await arenaCli(["compare", ids.a!, ids.b!], env);
    expect(r.exitCode, r.stderr).toBe(1);
    const out = lines(r.stdout);
    expect(out.slice(0, 2)).toEqual([`A: ${ids.a} (mock)`, `B: ${ids.b} (mock)`]);
    expect(cols(out[4]!)).toEqual(["tool_use", "vanilla", "36/36 100% [82–100]", "34/36 94% [74–99]", "0", "1", "17", "1.000", "REGRESSION"]);
    expect(out).toContain("  broke      tool_use/vanilla: tu-01 2/2 → 0/2");
    expect(out.at(-1)).toBe("1 regression(s) (--threshold 0): tool_use/vanilla");
  });

  it("the other way round the item is fixed, and nothing regresses (exit 0)", async () => {
    const r = await arenaCli(["compare", ids.b!, ids.a!], env);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(lines(r.stdout)).toContain("  fixed      tool_use/vanilla: tu-01 0/2 → 2/2");
    expect(cols(lines(r.stdout)[4]!).slice(4)).toEqual(["1", "0", "17", "1.000", "improved"]);
  });

  it("a partial second run: the items it did not run are only in A, the two it ran unchanged", async () => {
    const r = await arenaCli(["compare", ids.a!, ids.partial!], env);
    expect(r.exitCode, r.stderr).toBe(0);
    expect(cols(lines(r.stdout)[4]!).slice(4)).toEqual(["0", "0", "2", "1.000", "same"]);
    const onlyA = lines(r.stdout).find((l) => l.startsWith("  only in A "))!;
    expect(onlyA.split(": ")[1]!.split(", ")).toHaveLength(16);
    expect(onlyA).not.toContain("tu-02");
  });

  it("--format markdown: a table row with the counts and p, the named items, and the verdict", async () => {
    const r = await arenaCli(["compare", ids.a!, ids.b!, "--format", "markdown"], env);
    expect(r.exitCode, r.stderr).toBe(1);
    const md = lines(r.stdout);
    expect(md[0]).toBe("## arena compare");
    expect(md).toContain(`- **A (baseline):** \`${ids.a}\` (mock)`);
    const row = md.find((l) => l.startsWith("| tool_use | vanilla |"))!.split(" | ");
    expect(row.slice(4, 11)).toEqual(["0", "1", "17", "0", "0", "0", "1.000"]);
    expect(md).toContain("- broke: `tu-01` 2/2 → 0/2");
    expect(md.at(-1)).toBe("**1 regression(s) (--threshold 0): tool_use/vanilla**");
    const bad = await arenaCli(["compare", ids.a!, ids.b!, "--format", "html"], env);
    expect([bad.exitCode, bad.stderr.trim()]).toEqual([2, "arena compare: --format: 'html' is not one of text, markdown"]);
  });

  it("arena report A B: the run-vs-run view holds the same cells, each run's mode and links into each run", async () => {
    const r = await arenaCli(["report", ids.a!, ids.b!], env);
    expect(r.exitCode, r.stderr).toBe(0);
    const html = readFileSync(path.resolve(REPO_ROOT, r.stdout.trim()), "utf8");
    const json = /<script type="application\/json" id="report-data">(.*?)<\/script>/s.exec(html)![1]!;
    const data = JSON.parse(json) as { comparisons: { a: unknown; b: unknown; lanes: { changes: Record<string, number>; test: { pValue: number }; items: { itemId: string; change: string; linkA: string; linkB: string }[] }[] }[] };
    expect(data.comparisons).toHaveLength(1);
    const [c] = data.comparisons;
    expect([c!.a, c!.b]).toEqual([{ runId: ids.a, label: "R1", mode: "mock" }, { runId: ids.b, label: "R2", mode: "mock" }]);
    expect(c!.lanes[0]!.changes).toMatchObject({ fixed: 0, broke: 1, unchanged: 17 });
    expect(c!.lanes[0]!.items.find((i) => i.itemId === "tu-01")).toEqual(expect.objectContaining({ change: "broke", linkA: "#tool_use/tu-01/R1%2Fvanilla/1", linkB: "#tool_use/tu-01/R2%2Fvanilla/1" }));
  });
});
