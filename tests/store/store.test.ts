/** Run ids, the run layout, the journal, the manifest's drift check and `arena clean`. */
import { appendFileSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { cleanRuns } from "../../orchestrator/store/clean.ts";
import { cellKey, itemKey, JournalWriter, readJournal } from "../../orchestrator/store/journal.ts";
import { latestRunId, pointLatestAt } from "../../orchestrator/store/latest.ts";
import { outputRoots, RunLayout } from "../../orchestrator/store/layout.ts";
import { configHash, manifestDrift } from "../../orchestrator/store/manifest.ts";
import { isRunId, newRunId } from "../../orchestrator/store/run-id.ts";
import { benchManifest, minimalItem } from "../support/records.ts";

const tmp = () => mkdtempSync(path.join(os.tmpdir(), "arena-store-"));

describe("run ids", () => {
  it("sort by time and do not collide within one millisecond", () => {
    const at = new Date("2026-12-01T08:00:00.123Z");
    const ids = new Set(Array.from({ length: 200 }, () => newRunId(at)));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(isRunId(id)).toBe(true);
    expect(newRunId(at) < newRunId(new Date("2026-12-01T08:00:00.124Z"))).toBe(true);
    expect([...ids][0]).toMatch(/^20261201T080000123Z-[0-9a-f]{6}$/);
  });
});

describe("RunLayout", () => {
  it("puts everything of a run under runs/<id>/ and its checkpoints under checkpoints/<id>/", () => {
    const roots = outputRoots("/base");
    const layout = new RunLayout(roots, "20261201T080000123Z-abcdef");
    expect(layout.record("tool_use")).toBe("/base/runs/20261201T080000123Z-abcdef/records/tool_use.json");
    expect(layout.scorecardDir("rag")).toBe("/base/runs/20261201T080000123Z-abcdef/scorecards/rag");
    expect(layout.checkpointDir(1, "vanilla", "durable_state")).toBe("/base/checkpoints/20261201T080000123Z-abcdef/s1/vanilla/durable_state");
  });
  it("refuses an arena id that would climb out of the run folder", () => {
    const layout = new RunLayout(outputRoots("/base"), "20261201T080000123Z-abcdef");
    expect(() => layout.record("../../../../tmp/x")).toThrow(/not a safe name/);
    expect(() => layout.checkpointDir(0, "vanilla", "..")).toThrow(/not a safe name/);
  });
});

describe("journal", () => {
  it("keeps every appended cell; a later line for the same cell wins; a line cut short by a kill is skipped", () => {
    const file = path.join(tmp(), "journal.jsonl");
    const j = new JournalWriter(file);
    j.append({ type: "lane", arena: "a", lane: { framework: "vanilla", available: true, lib_version: "v1", variant: false } });
    j.append({ type: "item", arena: "a", framework: "vanilla", record: minimalItem("x-01", { passed: false, error: "boom", error_class: "infra" }) });
    j.append({ type: "item", arena: "a", framework: "vanilla", record: minimalItem("x-02") });
    j.append({ type: "item", arena: "a", framework: "vanilla", record: minimalItem("x-01") });
    appendFileSync(file, '{"type":"item","arena":"a","framework":"vani');
    const read = readJournal(file);
    const cells = read.items.get(cellKey("a", "vanilla"))!;
    expect(cells.size).toBe(2);
    expect(cells.get(itemKey(0, "x-01"))!.passed).toBe(true);
    expect(read.lanes.get(cellKey("a", "vanilla"))!.lib_version).toBe("v1");
    expect(read.skipped).toEqual([{ line: 5, problem: "not valid JSON" }]);
  });
  it("a missing journal is an empty one", () => {
    expect(readJournal(path.join(tmp(), "none.jsonl")).items.size).toBe(0);
  });
});

describe("manifest drift", () => {
  const base = benchManifest({
    run_id: "20261201T080000123Z-abcdef",
    arenas: [{ id: "tool_use", path: "/a/tool_use", sha256: "aa" }],
    corpus: { path: "/a/corpus.json", sha256: "cc" },
    config: { model: "m", temperature: 0 },
  });
  it("names each difference: arena files, corpus, config values", () => {
    expect(manifestDrift(base, { arenas: base.arenas, corpus: base.corpus, config: base.config })).toEqual([]);
    const drift = manifestDrift(base, {
      arenas: [{ id: "tool_use", path: "/a/tool_use", sha256: "bb" }],
      corpus: { path: "/a/corpus.json", sha256: "dd" },
      config: { model: "m", temperature: 0.5 },
    });
    expect(drift).toEqual([
      "arena tool_use: its files changed (/a/tool_use)",
      "corpus /a/corpus.json changed",
      "config temperature: 0 then, 0.5 now",
    ]);
  });
  it("the config hash ignores key order", () => {
    expect(configHash({ a: 1, b: "x" })).toBe(configHash({ b: "x", a: 1 }));
    expect(configHash({ a: 1 })).not.toBe(configHash({ a: 2 }));
  });
});

describe("latest and clean", () => {
  it("runs/latest names the newest run; clean keeps the newest N and what latest names", () => {
    const base = tmp();
    const roots = outputRoots(base);
    const ids = ["20261201T080000001Z-000001", "20261201T080000002Z-000002", "20261201T080000003Z-000003"];
    for (const id of ids) {
      mkdirSync(path.join(roots.runsDir, id), { recursive: true });
      mkdirSync(path.join(roots.checkpointsDir, id), { recursive: true });
    }
    mkdirSync(path.join(roots.checkpointsDir, "20261130T080000001Z-0000aa"), { recursive: true });
    writeFileSync(path.join(roots.runsDir, "summary.md"), "");
    pointLatestAt(roots.runsDir, ids[0]!);
    expect(latestRunId(roots.runsDir)).toBe(ids[0]);
    const result = cleanRuns(roots, 1);
    expect([...result.removed].sort()).toEqual(["20261130T080000001Z-0000aa", ids[1]]);
    expect(existsSync(path.join(roots.runsDir, ids[0]!))).toBe(true);
    expect(existsSync(path.join(roots.runsDir, ids[2]!))).toBe(true);
    expect(existsSync(path.join(roots.checkpointsDir, ids[1]!))).toBe(false);
    expect(existsSync(path.join(roots.runsDir, "summary.md"))).toBe(true);
  });
});
