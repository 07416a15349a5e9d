/**
 * The publishing rule (report/publish.ts), lane by lane: a lane the provider served entirely
 * replaces any published row, one served in part replaces only a partial row or none, one served
 * on no cell never replaces anything; a row that stays names the run not published over it.
 * Also through the files: `publishLiveScorecards` leaves a good row's figures as they were, and the
 * run-folder summary across runs (`latestRecords`) follows the same rule.
 */
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { latestRecords, publishedRecords, publishLiveScorecards, writeRunRecord } from "../../orchestrator/report/output.ts";
import { mergePublished, readPublished, PublishedReadError, type PublishedFile } from "../../orchestrator/report/publish.ts";
import type { RunRecord } from "../../orchestrator/report/record.ts";
import { outputRoots, RunLayout } from "../../orchestrator/store/layout.ts";
import { item, lane, record } from "../report-html/fixture.ts";

const infra = (id: string) => item(id, { passed: false, error: "Error: 503 Service Unavailable", error_class: "infra" });
const full = (framework: string) => lane(framework, [item("a"), item("b")]);
const some = (framework: string) => lane(framework, [item("a"), infra("b")]);
const none = (framework: string) => lane(framework, [infra("a"), infra("b")]);
const run = (id: string, lanes: RunRecord["frameworks"]) => record("demo", lanes, { mode: "live", run_id: id, started_at: `2026-12-0${id.at(-1)}T00:00:00Z` });

function published(lanes: RunRecord["frameworks"], id = "r1"): PublishedFile {
  const file = mergePublished(undefined, run(id, lanes)).file;
  if (!file) throw new Error("nothing published");
  return file;
}

describe("mergePublished", () => {
  it("first publish: served lanes go in; a lane the provider served on no cell does not", () => {
    const out = mergePublished(undefined, run("r1", [full("vanilla"), some("other"), none("third")]));
    expect(out.replaced).toEqual(["vanilla", "other"]);
    expect(out.file!.record.frameworks.map((f) => f.framework)).toEqual(["vanilla", "other"]);
    expect(out.kept).toEqual([{ framework: "third", reason: "2 of 2 cells not served by the provider: 2× 503" }]);
    expect(mergePublished(undefined, run("r1", [none("vanilla")])).file).toBeUndefined();
  });

  it("an all-503 run keeps every row and its figures, and names the run not published over it", () => {
    const before = published([full("vanilla"), full("other")]);
    const out = mergePublished(before, run("r2", [none("vanilla"), none("other")]));
    expect(out.replaced).toEqual([]);
    expect(out.file!.record.frameworks).toEqual(before.record.frameworks);
    expect(out.file!.record.run_id).toBe("r1");
    expect(out.file!.sources).toEqual([
      { framework: "vanilla", run_id: "r1", started_at: "2026-12-01T00:00:00Z", kept_over: { run_id: "r2", reason: "2 of 2 cells not served by the provider: 2× 503" } },
      { framework: "other", run_id: "r1", started_at: "2026-12-01T00:00:00Z", kept_over: { run_id: "r2", reason: "2 of 2 cells not served by the provider: 2× 503" } },
    ]);
    expect(out.kept.map((k) => k.keptRun)).toEqual(["r1", "r1"]);
  });

  it("a partly served lane replaces a partial row, not a fully served one; a fully served one replaces either", () => {
    const before = published([full("vanilla"), some("other")]);
    const out = mergePublished(before, run("r2", [some("vanilla"), some("other")]));
    expect(out.replaced).toEqual(["other"]);
    expect(out.file!.sources.map((s) => [s.framework, s.run_id, s.kept_over?.run_id])).toEqual([
      ["vanilla", "r1", "r2"],
      ["other", "r2", undefined],
    ]);
    expect(out.file!.record.run_id).toBe("r2");
    const again = mergePublished(out.file, run("r3", [full("vanilla")]));
    expect(again.replaced).toEqual(["vanilla"]);
    expect(again.file!.sources.map((s) => [s.framework, s.run_id, s.kept_over])).toEqual([
      ["vanilla", "r3", undefined],
      ["other", "r2", undefined],
    ]);
  });
});

describe("publishLiveScorecards on disk", () => {
  it("a good row survives an all-503 run byte for byte in its figures, marked with its run; the summary reads what is published", () => {
    const results = mkdtempSync(path.join(os.tmpdir(), "arena-results-"));
    publishLiveScorecards(results, run("r1", [full("vanilla")]));
    const rowsOf = () => JSON.parse(readFileSync(path.join(results, "demo", "scorecard.json"), "utf8")) as { rows: unknown[]; sources: unknown[]; meta: { run_id: string } };
    const good = rowsOf();
    const out = publishLiveScorecards(results, run("r2", [none("vanilla")]));
    expect(out.kept).toEqual([{ framework: "vanilla", reason: "2 of 2 cells not served by the provider: 2× 503", keptRun: "r1" }]);
    const after = rowsOf();
    expect(after.rows).toEqual(good.rows);
    expect(after.meta.run_id).toBe("r1");
    expect(after.sources).toEqual([{ framework: "vanilla", run_id: "r1", started_at: "2026-12-01T00:00:00Z", kept_over: { run_id: "r2", reason: "2 of 2 cells not served by the provider: 2× 503" } }]);
    const md = readFileSync(path.join(results, "demo", "scorecard.md"), "utf8");
    expect(md).toContain("| `vanilla` | vanilla 1.0.0 | 100% (2/2) |");
    expect(md).toContain("| `vanilla` | `r1` | 2026-12-01T00:00:00Z | kept: run `r2` was not published over it (2 of 2 cells not served by the provider: 2× 503) |");
    const { records, sources } = publishedRecords(results, () => {});
    expect(records.map((r) => r.frameworks[0]!.items.every((i) => i.passed))).toEqual([true]);
    expect(sources).toEqual([{ arena: "demo", framework: "vanilla", runId: "r1", startedAt: "2026-12-01T00:00:00Z" }]);
  });

  it("a published file that does not read is an error naming it, not replaced", () => {
    const results = mkdtempSync(path.join(os.tmpdir(), "arena-results-"));
    publishLiveScorecards(results, run("r1", [full("vanilla")]));
    const file = path.join(results, "demo", "published.json");
    writeFileSync(file, "{ truncated");
    expect(() => readPublished(path.join(results, "demo"))).toThrow(PublishedReadError);
    expect(() => publishLiveScorecards(results, run("r2", [full("vanilla")]))).toThrow(/published\.json: not valid JSON/);
    expect(readFileSync(file, "utf8")).toBe("{ truncated");
    const warnings: string[] = [];
    expect(publishedRecords(results, (l) => warnings.push(l)).records).toEqual([]);
    expect(warnings[0]).toMatch(/^skipped .*published\.json: not valid JSON/);
  });
});

describe("the run-folder summary across runs (latestRecords)", () => {
  it("a newer lane the provider served less completely does not hide an earlier, better-served one", () => {
    const base = mkdtempSync(path.join(os.tmpdir(), "arena-roots-"));
    const roots = outputRoots(base);
    const ids = ["20261201T080000000Z-000001", "20261201T090000000Z-000002", "20261201T100000000Z-000003"];
    const lanes = [[full("vanilla"), full("other")], [none("vanilla"), some("other")], [some("vanilla"), full("other")]];
    for (const [k, id] of ids.entries()) writeRunRecord(new RunLayout(roots, id), { ...run(id, lanes[k]!), mode: "mock" });
    const pick = (upTo: number) => {
      const runsDir = mkdtempSync(path.join(os.tmpdir(), "arena-runs-"));
      for (const id of ids.slice(0, upTo)) cpSync(path.join(roots.runsDir, id), path.join(runsDir, id), { recursive: true });
      const { sources } = latestRecords(runsDir, "mock", () => {});
      return sources.map((s) => `${s.framework}:${s.runId.slice(-1)}`);
    };
    expect(pick(2)).toEqual(["vanilla:1", "other:1"]);
    expect(pick(3)).toEqual(["vanilla:1", "other:3"]);
  });
});
