/**
 * §14 Checkpoint writes stay inside the harness-owned directory: §13's durable runs on our
 * durable_state, judged from what the run records exactly as a bench records it — a sealed
 * worker's write elsewhere refused (its item fails), a watched worker's recorded on the lane —
 * and an on-disk checkpointer must have written inside checkpoint_dir. The probe is the
 * registry's (orchestrator/probes/writes-probes.ts). Which of the two a machine gives depends on
 * bubblewrap, so the judge is held to both here on the records each produces.
 */
import { describe, expect, it } from "vitest";
import { STORE } from "../../fixtures/adapters/litterbug/index.ts";
import { watchedWrites, writesViolations } from "../../orchestrator/probes/judges/writes.ts";
import { LITTERBUG_STORE } from "../../orchestrator/probes/writes-probes.ts";
import { describeProbe } from "./registry-suite.ts";
import { syntheticRun } from "./wire-runs.ts";

describe("§14 the judge", () => {
  it("the registry expects litterbug's store under the fixture's own name", () => {
    expect(LITTERBUG_STORE).toBe(STORE);
  });

  it("sealed: a refused write in an item's error; watched: a write recorded on the lane; and the store declaration", () => {
    const refused = syntheticRun([], [{ item_id: "dur-01", passed: false, error: "Error: EROFS: read-only file system, open '/repo/litterbug-checkpoints.json'\n    at writeFileSync" }]);
    expect(writesViolations(refused, "disk")).toEqual([
      "dur-01: a write outside checkpoint_dir was refused by the sandbox (EROFS: read-only file system, open '/repo/litterbug-checkpoints.json')",
      "declares an on-disk checkpointer but wrote nothing inside checkpoint_dir",
    ]);
    const base = syntheticRun([]);
    const isolation = { level: "watched" as const, network: "shared" as const, tool: "watcher (/proc)", violations: ["w1: created x.json in the repository (/repo/x.json)", "w1: a process outlived the worker outside its process group (pid 7: sleep 300); killed"] };
    const watched = { ...base, record: { ...base.record, isolation }, checkpointFiles: [{ path: "dur-01.r0/store.sqlite", bytes: 10 }] };
    expect(writesViolations(watched, "state")).toEqual([
      "wrote outside checkpoint_dir: w1: created x.json in the repository (/repo/x.json)",
      "declares stateless resume but wrote dur-01.r0/store.sqlite in checkpoint_dir (stale declaration)",
    ]);
    expect(watchedWrites(watched)).toEqual(["/repo/x.json"]);
    expect(writesViolations(watched, "disk")).toHaveLength(1);
    expect(writesViolations(base, undefined)).toEqual(["no checkpoint-store declaration (CHECKPOINT_STORES): declare disk or state"]);
    expect(writesViolations(base, "any")).toEqual([]);
  });
});

describeProbe("checkpoint-writes", { fixtures: ["litterbug"] });
