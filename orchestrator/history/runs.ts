/**
 * Reading recorded runs back: a run folder's manifest and records, by id, `latest` or path, and
 * the list of every run folder for `arena runs`. Everything is read through the zod schemas; a
 * folder that does not read is a typed error naming the file, never a guess.
 */
import { readdirSync } from "node:fs";
import path from "node:path";
import { readRunRecord, RecordReadError } from "../report/output.ts";
import { isServed } from "../report/not-served.ts";
import type { RunRecord } from "../report/record.ts";
import { latestRunId } from "../store/latest.ts";
import { RunLayout, type OutputRoots } from "../store/layout.ts";
import { ManifestError, readManifest, type Manifest } from "../store/manifest.ts";
import { ownerState, type OwnerState, type SessionOwner } from "../store/owner.ts";
import { isRunId } from "../store/run-id.ts";
import { HistoryError } from "./error.ts";

export { HistoryError };

export interface StoredRun {
  readonly layout: RunLayout;
  readonly manifest: Manifest;
  /** One per arena with a record file, in the manifest's arena order. */
  readonly records: readonly RunRecord[];
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** Every run id under `runs/`, oldest first (ids sort by start time). */
export function runIds(roots: OutputRoots): string[] {
  return listDir(roots.runsDir).filter(isRunId);
}

/** `ref`: a run id, `latest`, or a path to a run folder (its name is the id). */
export function resolveRun(roots: OutputRoots, ref: string, cwd: string): RunLayout {
  const id = ref === "latest" ? latestRunId(roots.runsDir) : path.basename(path.resolve(cwd, ref));
  if (id === undefined) throw new HistoryError(`no run: ${path.join(roots.runsDir, "latest")} does not name one`);
  if (!isRunId(id)) throw new HistoryError(`'${ref}' is not a run id (runs/<YYYYmmddTHHMMSSmmmZ-xxxxxx>) or 'latest'`);
  if (!runIds(roots).includes(id)) throw new HistoryError(`no such run '${id}' in ${roots.runsDir}`);
  return new RunLayout(roots, id);
}

export function loadRun(layout: RunLayout): StoredRun {
  let manifest: Manifest;
  try {
    manifest = readManifest(layout.manifest);
  } catch (err) {
    if (err instanceof ManifestError) throw new HistoryError(err.message);
    throw err;
  }
  const order = new Map(manifest.arenas.map((a, i) => [a.id, i]));
  const files = listDir(path.join(layout.dir, "records")).filter((f) => f.endsWith(".json"));
  const records: RunRecord[] = [];
  for (const file of files) {
    try {
      records.push(readRunRecord(path.join(layout.dir, "records", file)));
    } catch (err) {
      if (err instanceof RecordReadError) throw new HistoryError(err.message);
      throw err;
    }
  }
  records.sort((a, b) => (order.get(a.arena) ?? Infinity) - (order.get(b.arena) ?? Infinity));
  return { layout, manifest, records };
}

/**
 * The run's state as its last session left it; a re-scored run says what it was scored from. A
 * session still marked `running` is checked against its process (store/owner.ts): one whose
 * process is gone was killed before it could write itself up, so it is `interrupted`; one that
 * names no process (written before sessions recorded theirs) is `stale`, never `running`.
 */
export function runStatus(manifest: Manifest, state: (owner: SessionOwner) => OwnerState = ownerState): string {
  const session = manifest.sessions.at(-1);
  let last: string = session?.status ?? "unknown";
  if (session?.status === "running") {
    const owner = session.process;
    const now = owner === undefined ? "gone" : state(owner);
    if (owner === undefined) last = "stale (no process recorded)";
    else if (now === "gone") last = `interrupted (process ${owner.pid} is gone)`;
    else if (now === "unknown") last = `running? (process ${owner.pid} on ${owner.host})`;
  }
  return manifest.scored_from ? `${last}, scored from ${manifest.scored_from}` : last;
}

/**
 * What part of a plan the run holds, or how it was made, for `arena runs`: a run of some items
 * only, one shard of a `--shard` plan, a run `arena merge` joined, or one that kept durable
 * pauses on the same process (`--no-restart`, whose figures are not a restart's), or one whose
 * workers carried several items at once (`--items-per-worker`). Empty for a
 * whole, ordinary run; otherwise the labels in brackets, after the status.
 */
export function runScope(manifest: Manifest): string {
  const labels = [
    manifest.item_filter ? "partial" : "",
    manifest.shard ? `shard ${manifest.shard.index}/${manifest.shard.count}: ${manifest.shard.cells} of ${manifest.shard.total_cells} cells` : "",
    manifest.merged_from ? `merged from ${manifest.merged_from.length} shard${manifest.merged_from.length === 1 ? "" : "s"}` : "",
    manifest.no_restart ? "no restart, measurement only" : "",
    manifest.items_per_worker ? `${manifest.items_per_worker} items per worker` : "",
  ].filter(Boolean);
  return labels.length > 0 ? ` (${labels.join("; ")})` : "";
}

export interface PassCount {
  /** Over the cells the provider served; `notServed` are the rest (report/not-served.ts). */
  readonly passed: number;
  readonly cells: number;
  readonly errored: number;
  readonly notServed: number;
}

export function passCount(records: readonly RunRecord[]): PassCount {
  let passed = 0;
  let cells = 0;
  let errored = 0;
  let notServed = 0;
  for (const r of records) {
    for (const adapterRecord of r.frameworks) {
      for (const item of adapterRecord.items) {
        if (!isServed(item)) {
          notServed++;
          continue;
        }
        cells++;
        if (item.passed) passed++;
        if (item.error) errored++;
      }
    }
  }
  return { passed, cells, errored, notServed };
}
