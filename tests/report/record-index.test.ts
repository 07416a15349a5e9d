/**
 * The record index behind the run-folder summary across runs (report/record-index.ts): the
 * summary it gives is the one reading every record gives, it reads whole only the records it
 * shows, it reads again a record that changed, and a damaged index or a record that no longer
 * reads whole costs only time and a warning.
 */
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { latestRecords, writeRunRecord } from "../../orchestrator/report/output.ts";
import { RECORD_INDEX_FILE } from "../../orchestrator/report/record-index.ts";
import type { RunRecord } from "../../orchestrator/report/record.ts";
import { outputRoots, RunLayout } from "../../orchestrator/store/layout.ts";
import { item, lane, record } from "../report-html/fixture.ts";
import { setTimeNs } from "../../fixtures/support/set-times.ts";

const infra = (id: string) => item(id, { passed: false, error: "Error: 503 Service Unavailable", error_class: "infra" });
const full = (framework: string) => lane(framework, [item("a"), item("b")]);
const some = (framework: string) => lane(framework, [item("a"), infra("b")]);

const IDS = ["20261201T080000000Z-000001", "20261201T090000000Z-000002", "20261201T100000000Z-000003"];

/** Three mock runs of two arenas: the newest run's `other` lane is served in part, so run 2's stays. */
function runs(): { runsDir: string; file: (run: number, arena: string) => string } {
  const roots = outputRoots(mkdtempSync(path.join(os.tmpdir(), "arena-index-")));
  const lanes: RunRecord["frameworks"][] = [[full("vanilla"), full("other")], [full("vanilla"), full("other")], [full("vanilla"), some("other")]];
  for (const [k, id] of IDS.entries()) {
    for (const arena of ["demo", "second"]) {
      writeRunRecord(new RunLayout(roots, id), { ...record(arena, lanes[k]!, { mode: "mock", run_id: id, started_at: `2026-12-0${k + 1}T00:00:00Z` }) });
    }
  }
  return { runsDir: roots.runsDir, file: (run, arena) => path.join(roots.runsDir, IDS[run - 1]!, "records", `${arena}.json`) };
}

const picked = (runsDir: string, warnings: string[] = []) => {
  const latest = latestRecords(runsDir, "mock", (w) => warnings.push(w));
  return { sources: latest.sources.map((s) => `${s.arena}/${s.framework}:${s.runId.slice(-1)}`), records: latest.records };
};

/** Writes `text` over a record in place (same inode), asserting the same size, and puts its mtime back to the nanosecond: only a reader of the text can tell. */
function rewriteInPlace(file: string, text: string): void {
  const before = statSync(file, { bigint: true });
  writeFileSync(file, text);
  expect(statSync(file, { bigint: true }).size).toBe(before.size);
  setTimeNs(file, "mtime", before.mtimeNs);
  expect(statSync(file, { bigint: true }).mtimeNs).toBe(before.mtimeNs);
}

const garbleInPlace = (file: string) => rewriteInPlace(file, "x".repeat(statSync(file).size));

describe("the record index", () => {
  it("gives the summary that reading every record gives, and is kept beside the run folders", () => {
    const { runsDir } = runs();
    const first = picked(runsDir);
    expect(first.sources).toEqual(["demo/vanilla:3", "demo/other:2", "second/vanilla:3", "second/other:2"]);
    expect(JSON.parse(readFileSync(path.join(runsDir, RECORD_INDEX_FILE), "utf8")).entries).toHaveProperty([`${IDS[0]}/records/demo.json`]);
    expect(picked(runsDir)).toEqual(first);
  });

  it("reads whole only the records it shows: an older record it does not show is never read again", () => {
    const { runsDir, file } = runs();
    const first = picked(runsDir);
    garbleInPlace(file(1, "demo"));
    const warnings: string[] = [];
    expect(picked(runsDir, warnings)).toEqual(first);
    expect(warnings).toEqual([]);
  });

  it("reads again a record that changed since it was noted", () => {
    const { runsDir, file } = runs();
    picked(runsDir);
    writeFileSync(file(1, "demo"), "not json");
    const warnings: string[] = [];
    // The same lanes; `second` now comes first, as it is the first arena of the oldest run that reads.
    expect(picked(runsDir, warnings).sources).toEqual(["second/vanilla:3", "second/other:2", "demo/vanilla:3", "demo/other:2"]);
    expect(warnings).toEqual([expect.stringMatching(/^skipped .*000001\/records\/demo\.json: not valid JSON/)]);
  });

  it("skips a record it shows that no longer reads whole, with a warning, and chooses again without it", () => {
    const { runsDir, file } = runs();
    picked(runsDir);
    garbleInPlace(file(2, "demo"));
    const warnings: string[] = [];
    // Run 2's `other` lane was shown; without run 2's record, run 1's is the best served one.
    expect(picked(runsDir, warnings).sources).toEqual(["demo/vanilla:3", "demo/other:1", "second/vanilla:3", "second/other:2"]);
    expect(warnings).toEqual([expect.stringMatching(/^skipped .*000002\/records\/demo\.json: not valid JSON/)]);
    // It is no longer in the index, so the next summary reads it, and warns, again.
    const again: string[] = [];
    picked(runsDir, again);
    expect(again).toEqual(warnings);
  });

  it("skips a record it shows whose lanes moved since it was noted, as if it did not read", () => {
    const { runsDir, file } = runs();
    picked(runsDir);
    // The same record with its two lanes swapped: same size, same inode, its mtime put back.
    const f = file(2, "demo");
    const swapped = JSON.parse(readFileSync(f, "utf8")) as RunRecord;
    swapped.frameworks.reverse();
    rewriteInPlace(f, JSON.stringify(swapped, null, 2) + "\n");
    const warnings: string[] = [];
    expect(picked(runsDir, warnings).sources).toEqual(["demo/vanilla:3", "demo/other:1", "second/vanilla:3", "second/other:2"]);
    expect(warnings).toEqual([expect.stringMatching(/^skipped .*000002\/records\/demo\.json: changed while the summary was made \(no other lane at 1\)$/)]);
  });

  it("that is damaged or of another version is read past: the summary is the same", () => {
    const { runsDir } = runs();
    const first = picked(runsDir);
    for (const text of ["{", JSON.stringify({ version: 99, entries: {} })]) {
      writeFileSync(path.join(runsDir, RECORD_INDEX_FILE), text);
      expect(picked(runsDir)).toEqual(first);
    }
  });
});
