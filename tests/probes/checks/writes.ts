/**
 * Checkpoint writes stay inside the harness-owned directory (probes.md §14). The durable legs run
 * with the working directory an empty temp dir and HOME/TMPDIR fresh temp dirs; the repository
 * tree, the working dir, HOME and TMPDIR are snapshotted before and after, and any file created or
 * modified there is a violation (harness outputs — runs/, results/, checkpoints/ — excluded). An
 * adapter that declares an on-disk checkpointer must write something inside checkpoint_dir.
 */
import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import type { FileEntry } from "./durable.ts";

/**
 * How each resumable adapter carries a run across the durable gap — a declaration checked from
 * both ends: `disk` must leave files in checkpoint_dir, `state` must leave none (the whole run
 * travels in resume_state). A resumable adapter missing from this table fails the suite.
 */
export const CHECKPOINT_STORES: Readonly<Record<string, "disk" | "state">> = {
  vanilla: "state", // the transcript in resume_state (harness.md §6)
  openai_agents: "state", // RunState JSON in resume_state
  "openai_agents-multi": "state",
  langgraph: "disk", // the SQLite checkpointer under checkpoint_dir
  ai_sdk: "state", // the AI SDK message list (JSON) in resume_state
  "ai_sdk-multi": "state",
  strands: "state", // the agent's session snapshot (JSON) in resume_state
  google_adk: "disk", // the session's events as JSON under checkpoint_dir
  "google_adk-multi": "disk",
  mastra: "disk", // Mastra's LibSQL storage (workflow snapshots) under checkpoint_dir
  // fixtures
  litterbug: "disk",
};

/**
 * Paths (relative to the repository root) that hold harness outputs or tooling, not sources — and
 * the browser test's screenshot folder, which another test file may be writing at the same time.
 */
export const REPO_EXCLUDED: ReadonlySet<string> = new Set([".git", "node_modules", "runs", "results", "checkpoints", "tests/report-html/.output"]);

export interface FileStamp {
  readonly mtimeMs: number;
  readonly size: number;
}

export type Snapshot = ReadonlyMap<string, FileStamp>;

export function snapshot(root: string, exclude: ReadonlySet<string> = new Set()): Snapshot {
  const out = new Map<string, FileStamp>();
  const walk = (dir: string, rel: string) => {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      return;
    }
    for (const name of names) {
      const full = path.join(dir, name);
      const r = rel === "" ? name : `${rel}/${name}`;
      if (exclude.has(r)) continue;
      const st = statSync(full, { throwIfNoEntry: false });
      if (!st) continue;
      if (st.isDirectory()) walk(full, r);
      else out.set(r, { mtimeMs: st.mtimeMs, size: st.size });
    }
  };
  walk(root, "");
  return out;
}

export interface Changes {
  readonly created: string[];
  readonly modified: string[];
}

export function changes(before: Snapshot, after: Snapshot): Changes {
  const created: string[] = [];
  const modified: string[] = [];
  for (const [p, s] of after) {
    const b = before.get(p);
    if (!b) created.push(p);
    else if (b.mtimeMs !== s.mtimeMs || b.size !== s.size) modified.push(p);
  }
  return { created: created.sort(), modified: modified.sort() };
}

export interface Area {
  /** e.g. "the working directory" */
  readonly label: string;
  readonly changes: Changes;
}

export function writesViolations(
  areas: readonly Area[],
  checkpointFiles: readonly FileEntry[],
  store: "disk" | "state" | undefined,
): string[] {
  const out: string[] = [];
  for (const { label, changes: c } of areas) {
    for (const p of c.created) out.push(`created ${p} in ${label} (outside checkpoint_dir)`);
    for (const p of c.modified) out.push(`modified ${p} in ${label} (outside checkpoint_dir)`);
  }
  if (store === undefined) out.push("no checkpoint-store declaration (CHECKPOINT_STORES): declare disk or state");
  if (store === "disk" && checkpointFiles.length === 0) out.push("declares an on-disk checkpointer but wrote nothing inside checkpoint_dir");
  if (store === "state" && checkpointFiles.length > 0) {
    out.push(`declares stateless resume but wrote ${checkpointFiles.map((f) => f.path).join(", ")} in checkpoint_dir (stale declaration)`);
  }
  return out;
}
