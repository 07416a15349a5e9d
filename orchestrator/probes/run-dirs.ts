/**
 * Where a probe run's folders go: where `arena bench` would put a new run started here, laid out
 * the same way. The output roots are resolved as the CLI resolves them (cli/paths.ts:
 * `ARENA_OUTPUT_ROOT`, from the environment or `.env`, else the repository), the run id is a new
 * run id, and the session is a new run's first (`s0`: RunLayout.sessionDirs). So every path a
 * worker is handed — its checkpoint folder above all — has the form a bench's has, under the same
 * root: a probe cannot be told by a temp-dir root or a session number.
 *
 * A probe run is not a recorded run: it writes no manifest, does not move `runs/latest`, and its
 * folders (`runs/<id>/`, `checkpoints/<id>/`) are removed once it has been reduced to a WireRun,
 * so `arena runs` and `arena report` never see it. (A worker that reads the file system outside
 * its own folders can still see that its run folder has no manifest: docs/methodology.md.)
 *
 * The inline arenas a probe writes go to a scratch folder of their own: the orchestrator reads
 * them, a worker is only handed their spec.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { REPO_ROOT, resolveOutputRoots } from "../cli/paths.ts";
import { readEnvironment } from "../config/arena-config.ts";
import { outputRoots, RunLayout, type OutputRoots } from "../store/layout.ts";
import { newRunId } from "../store/run-id.ts";

/** The output roots a bench started in `cwd` would write to. */
export function benchRoots(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): OutputRoots {
  return resolveOutputRoots(readEnvironment(env, REPO_ROOT), cwd);
}

export interface RunFolders {
  readonly layout: RunLayout;
  /** What runArenas is handed: the first session's folders. */
  readonly dirs: ReturnType<RunLayout["sessionDirs"]>;
  /** Removes the run's folders (never anything else under the roots). */
  readonly remove: () => void;
}

/** A new run's folders under `roots`, as planNewRun lays them out (cli/run-plan.ts). */
export function runFolders(roots: OutputRoots): RunFolders {
  const layout = new RunLayout(roots, newRunId());
  return {
    layout,
    dirs: layout.sessionDirs(0),
    remove: () => {
      rmSync(layout.dir, { recursive: true, force: true });
      rmSync(layout.checkpointRoot, { recursive: true, force: true });
    },
  };
}

/** A scratch folder for what only the orchestrator reads (inline arenas, copies of arenas). */
export function scratchDir(): string {
  return mkdtempSync(path.join(os.tmpdir(), "arena-scratch-"));
}

/**
 * A fresh temp output root holding one run's folders, laid out as a bench's new run (tests that
 * run the orchestrator directly and keep what it wrote; the probes use benchRoots).
 */
export function tempDirs() {
  const root = mkdtempSync(path.join(os.tmpdir(), "arena-out-"));
  const { layout, dirs } = runFolders(outputRoots(root));
  return { root, runId: layout.runId, dirs };
}
