/**
 * `arena runs`' bracketed scope (history/runs.ts runScope): a whole run says nothing; a partial
 * run, a shard, a merged run and a `--no-restart` run each say what they are, so a list with a
 * plan's shards beside its merge tells one from another. The real CLI's rows are checked in
 * tests/shard/merge-cli.test.ts.
 */
import { describe, expect, it } from "vitest";
import { runScope } from "../../orchestrator/history/runs.ts";
import type { Manifest } from "../../orchestrator/store/manifest.ts";

const shard = { index: 2, count: 3, plan_sha256: "ab", cells: 28, total_cells: 84, cost: 10, total_cost: 30 };
const manifest = (fields: Partial<Manifest>) => fields as Manifest;

describe("arena runs: a run's scope", () => {
  it("is empty for a whole run, and names each way a run is not one", () => {
    expect(runScope(manifest({}))).toBe("");
    expect(runScope(manifest({ item_filter: ["a"] }))).toBe(" (partial)");
    expect(runScope(manifest({ shard }))).toBe(" (shard 2/3: 28 of 84 cells)");
    expect(runScope(manifest({ merged_from: ["r1", "r2", "r3"] }))).toBe(" (merged from 3 shards)");
    expect(runScope(manifest({ merged_from: ["r1"] }))).toBe(" (merged from 1 shard)");
    expect(runScope(manifest({ no_restart: true }))).toBe(" (no restart, measurement only)");
  });

  it("joins the labels of a run that is more than one of them", () => {
    expect(runScope(manifest({ item_filter: ["a"], shard, no_restart: true }))).toBe(" (partial; shard 2/3: 28 of 84 cells; no restart, measurement only)");
  });
});
