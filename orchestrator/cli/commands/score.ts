/**
 * `arena score RUN`: re-score a recorded run's answers with today's checks, into a new run folder
 * whose manifest links back (`scored_from`). Records, scorecards and the run summary are written by
 * the writers a run uses; nothing is published to results/ and runs/latest is left alone (a
 * re-score is not a run: `--resume` and `arena clean` keep meaning what they meant).
 */
import path from "node:path";
import { loadArena } from "../../arena/load.ts";
import type { Arena } from "../../arena/schemas.ts";
import { readEnvironment } from "../../config/arena-config.ts";
import { rescoreRecords } from "../../history/rescore.ts";
import { loadRun, resolveRun } from "../../history/runs.ts";
import { writeRunRecord, writeRunSummary, writeScorecards } from "../../report/output.ts";
import { servedItems, unservedText } from "../../report/not-served.ts";
import { isoSeconds } from "../../report/record.ts";
import { claimRunFolder } from "../../store/layout.ts";
import { fingerprintArena, writeManifest, type Manifest } from "../../store/manifest.ts";
import { removeQuietly } from "../../files/fs-error.ts";
import { UsageError, type CommandContext } from "../command.ts";
import { EXIT_OK } from "../exit-codes.ts";
import { REPO_ROOT, resolveOutputRoots } from "../paths.ts";

export async function run(ctx: CommandContext): Promise<number> {
  const { io, positionals } = ctx;
  if (positionals.length !== 1) throw new UsageError(`expected one run (RUN: a run id, 'latest' or a run folder), got ${positionals.length}`);
  const rel = (p: string) => path.relative(io.cwd, p) || ".";
  const roots = resolveOutputRoots(readEnvironment(process.env, REPO_ROOT), io.cwd);
  const original = loadRun(resolveRun(roots, positionals[0]!, io.cwd));
  if (original.records.length === 0) throw new UsageError(`${rel(original.layout.dir)}: no records to re-score`);

  const arenas = new Map<string, Arena>();
  const fingerprints: Manifest["arenas"] = [];
  for (const recorded of original.manifest.arenas) {
    if (!original.records.some((r) => r.arena === recorded.id)) continue;
    arenas.set(recorded.id, loadArena(recorded.path, { cwd: io.cwd }));
    const sha256 = fingerprintArena(recorded.path);
    if (sha256 !== recorded.sha256) io.stderr(`warning: arena ${recorded.id}: its files changed since ${original.layout.runId} ran (${rel(recorded.path)}); scoring with today's checks\n`);
    fingerprints.push({ ...recorded, sha256 });
  }

  // Claimed exclusively (a taken id is drawn again), and given back if the re-scoring fails.
  const layout = claimRunFolder(roots, new Date());
  let rescored: Awaited<ReturnType<typeof rescoreRecords>>;
  try {
    rescored = await rescoreRecords(original.records, arenas, layout.runId);
  } catch (err) {
    removeQuietly(layout.dir);
    throw err;
  }
  for (const m of rescored.missing) io.stderr(`warning: ${m.arena}/${m.item_id}: no longer in the arena; its recorded score is kept\n`);

  const now = isoSeconds(new Date());
  const complete = rescored.records.every((r) => r.status === "complete");
  const manifest: Manifest = {
    ...original.manifest,
    run_id: layout.runId,
    command: "score",
    scored_from: original.layout.runId,
    argv: process.argv.slice(2),
    created_at: now,
    arenas: fingerprints,
    sessions: [{ started_at: now, finished_at: now, status: complete ? "complete" : "interrupted" }],
  };
  writeManifest(layout.manifest, manifest);
  for (const record of rescored.records) writeRunRecord(layout, record);
  if (complete && !original.manifest.item_filter) {
    for (const record of rescored.records) writeScorecards(layout.scorecardDir(record.arena), record);
    writeRunSummary(layout, rescored.records);
  }

  for (const c of rescored.changes) {
    const verdict = (p: boolean) => (p ? "passed" : "failed");
    io.stdout(`${c.arena}/${c.framework}/${c.item_id}${c.repeat ? `#${c.repeat + 1}` : ""}: ${verdict(c.before)} → ${verdict(c.after)}\n`);
  }
  for (const [i, record] of rescored.records.entries()) {
    for (const [j, adapterRecord] of record.frameworks.entries()) {
      // Over the cells the provider served, as every figure; the others are named beside the count.
      const was = servedItems(original.records[i]!.frameworks[j]!.items).filter((x) => x.passed).length;
      const served = servedItems(adapterRecord.items);
      const passedNow = served.filter((x) => x.passed).length;
      const unserved = unservedText(adapterRecord.items);
      io.stdout(
        adapterRecord.available
          ? `${record.arena} ${adapterRecord.framework}: ${passedNow}/${served.length} passed (was ${was})${unserved ? `; ${unserved}` : ""}\n`
          : `${record.arena} ${adapterRecord.framework}: not available (${adapterRecord.reason})\n`,
      );
    }
  }
  io.stdout(`${rescored.changes.length} verdict(s) changed; scored from ${original.layout.runId}, no model call\n`);
  io.stdout(`run: ${rel(layout.dir)}\n`);
  return EXIT_OK;
}
