/**
 * `arena clean`: old run folders go, with their checkpoints; the newest `keep` stay, and so does
 * whatever `runs/latest` names. Only folders named like run ids are touched, inside their roots.
 */
import { readdirSync, rmSync } from "node:fs";
import { inside } from "../files/safe-path.ts";
import type { OutputRoots } from "./layout.ts";
import { latestRunId } from "./latest.ts";
import { isRunId } from "./run-id.ts";

export interface CleanResult {
  readonly removed: readonly string[];
  readonly kept: readonly string[];
}

function runIds(dir: string): string[] {
  try {
    return readdirSync(dir).filter(isRunId).sort();
  } catch {
    return [];
  }
}

export function cleanRuns(roots: OutputRoots, keep: number): CleanResult {
  const runs = runIds(roots.runsDir);
  const latest = latestRunId(roots.runsDir);
  const kept = new Set(runs.slice(Math.max(0, runs.length - keep)));
  if (latest) kept.add(latest);
  const removed: string[] = [];
  for (const id of runs) {
    if (kept.has(id)) continue;
    rmSync(inside(roots.runsDir, id), { recursive: true, force: true });
    rmSync(inside(roots.checkpointsDir, id), { recursive: true, force: true });
    removed.push(id);
  }
  // Checkpoints whose run folder is gone (a run killed before it could clean up after itself).
  for (const id of runIds(roots.checkpointsDir)) {
    if (!kept.has(id) && !runs.includes(id)) {
      rmSync(inside(roots.checkpointsDir, id), { recursive: true, force: true });
      removed.push(id);
    }
  }
  return { removed: [...new Set(removed)], kept: [...kept].sort() };
}
