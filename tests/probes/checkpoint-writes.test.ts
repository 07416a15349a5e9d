/**
 * §14 Checkpoint writes stay inside the harness-owned directory: every resumable adapter runs the
 * durable legs (our durable_state dur-01, a real restart at the pause) with its workers' working
 * directory an empty temp dir and HOME/TMPDIR fresh temp dirs. Nothing may appear or change in
 * the repository tree, the working dir, HOME or TMPDIR; an adapter that declares an on-disk
 * checkpointer must have written inside checkpoint_dir. One adapter at a time, so a file in the
 * repository tree is blamed on the run that made it.
 */
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { FIXTURES } from "../../fixtures/catalogue.ts";
import { OUR_ARENAS } from "../support/run.ts";
import { REPO_ROOT } from "../support/reference.ts";
import { checkpointFiles } from "./checks/durable.ts";
import { proceed } from "../../orchestrator/probes/built.ts";
import { judge, knownFor, KNOWN_FINDINGS } from "../../orchestrator/probes/known.ts";
import { unsupportedViolations, WITHOUT_RESUME } from "./checks/pause.ts";
import { changes, CHECKPOINT_STORES, REPO_EXCLUDED, snapshot, writesViolations, type Area } from "./checks/writes.ts";
import { probeAdapters, probeRun, type ProbeRun } from "./support.ts";

/** Real adapters' known findings (adapter → case → expected violations). Empty: all pass. */
const KNOWN = KNOWN_FINDINGS["checkpoint-writes"]!; // kept with the registry (orchestrator/probes/known.ts)

const DURABLE = path.join(OUR_ARENAS, "durable_state");

async function isolatedRun(adapter: { name: string; module: string }): Promise<{ run: ProbeRun; areas: Area[] }> {
  const fresh = (label: string) => mkdtempSync(path.join(os.tmpdir(), `arena-probe-${label}-`));
  const cwd = fresh("cwd");
  const home = fresh("home");
  const tmp = fresh("tmp");
  const watched = [
    { label: "the repository tree", root: REPO_ROOT, exclude: REPO_EXCLUDED },
    { label: "the working directory", root: cwd, exclude: new Set<string>() },
    { label: "HOME", root: home, exclude: new Set<string>() },
    { label: "TMPDIR", root: tmp, exclude: new Set<string>() },
  ];
  const before = watched.map((w) => snapshot(w.root, w.exclude));
  const run = await probeRun({
    adapter,
    arena: DURABLE,
    items: ["dur-01"],
    workerCwd: cwd,
    workerEnv: { HOME: home, TMPDIR: tmp, TMP: tmp, TEMP: tmp, USERPROFILE: home },
  });
  const areas = watched.map((w, i) => ({ label: w.label, changes: changes(before[i]!, snapshot(w.root, w.exclude)) }));
  return { run, areas };
}

describe("§14 checkpoint writes stay inside checkpoint_dir (one adapter at a time)", () => {
  for (const adapter of probeAdapters()) {
    const title = WITHOUT_RESUME.has(adapter.name) ? "reported unsupported (no resume API)" : "writes nothing outside checkpoint_dir";
    it(`${adapter.name}: ${title}`, async (ctx) => {
      const { run, areas } = await isolatedRun(adapter);
      if (!proceed(ctx, run.framework)) return;
      if (WITHOUT_RESUME.has(adapter.name)) {
        expect(unsupportedViolations(run.framework)).toEqual([]);
        return;
      }
      expect(run.framework.available, `${run.framework.reason} (an adapter without resume must be listed in WITHOUT_RESUME)`).toBe(true);
      expect(run.framework.items[0]?.passed, run.framework.items[0]?.error ?? "").toBe(true);
      const v = writesViolations(areas, checkpointFiles(run), CHECKPOINT_STORES[adapter.name]);
      const { unexpected, stale } = judge(v, knownFor(KNOWN, adapter.name, "writes"));
      expect(unexpected).toEqual([]);
      expect(stale).toEqual([]);
    }, 300_000);
  }

  it("hostile litterbug (its store in the working directory) is caught twice: a file outside, nothing inside", async () => {
    const { run, areas } = await isolatedRun({ name: "litterbug", module: FIXTURES.litterbug.module });
    expect(run.framework.items[0]?.passed).toBe(true);
    const v = writesViolations(areas, checkpointFiles(run), CHECKPOINT_STORES.litterbug);
    expect(v).toEqual([
      "created litterbug-checkpoints.json in the working directory (outside checkpoint_dir)",
      "declares an on-disk checkpointer but wrote nothing inside checkpoint_dir",
    ]);
  }, 300_000);
});
