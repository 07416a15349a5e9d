/**
 * After the run: write its folder (records always; scorecards and summaries only for a complete
 * run), publish live scorecards lane by lane where the provider served them (report/publish.ts;
 * nothing at all after a harness error), clean up the run's checkpoints, and decide the exit
 * code — interrupted, infrastructure, a difference from the expectations file, or clean. The last line always says where to look.
 */
import { rmSync } from "node:fs";
import path from "node:path";
import { asOutputError } from "../files/fs-error.ts";
import { isoSeconds, type RunRecord } from "../report/record.ts";
import {
  compareWithExpectations,
  loadExpectations,
  renderDiff,
  updateExpectations,
  ExpectationsError,
  unwrittenReasons,
} from "../expectations/index.ts";
import { publishLiveScorecards, writeCrossRunSummary, writeRunRecord, writeRunSummary, writeScorecards } from "../report/output.ts";
import { servedItems, unservedText } from "../report/not-served.ts";
import { PublishedReadError } from "../report/publish.ts";
import type { RunOutcome } from "../run/index.ts";
import { writeManifest } from "../store/manifest.ts";
import { REPORT_STATISTICS } from "../report/html/statistics.ts";
import { writeRunReport } from "../report/html/write.ts";
import { writeLaneTranscripts } from "../report/transcripts-file.ts";
import type { FlagValue, Io } from "./command.ts";
import { EXIT_DIFFERENCE, EXIT_INFRA, EXIT_OK, EXIT_USAGE } from "./exit-codes.ts";
import type { RunRequest } from "./run-plan.ts";
import { judgeLive, type LiveJudgement } from "./run-judgement.ts";

export interface Conclusion {
  readonly request: RunRequest;
  readonly outcome: RunOutcome;
  readonly io: Io;
  readonly flags: Readonly<Record<string, FlagValue>>;
  readonly command: "run" | "bench";
  readonly interruptedBy?: NodeJS.Signals;
  readonly interruptExit?: number;
  /** A live run's judgement (run-judgement.ts); absent on a mock run, or a live one that asked for none. */
  readonly judgement?: LiveJudgement;
}

function countErrors(records: readonly RunRecord[]): { infra: number; harness: number } {
  let infra = 0;
  let harness = 0;
  for (const r of records) {
    for (const adapterRecord of r.frameworks) {
      for (const i of adapterRecord.items) {
        if (i.error_class === "infra") infra++;
        if (i.error_class === "harness") harness++;
      }
    }
  }
  return { infra, harness };
}

export async function concludeRun(c: Conclusion): Promise<number> {
  const { request, outcome, io, flags } = c;
  const { layout } = request;
  const rel = (p: string) => path.relative(io.cwd, p) || ".";
  const complete = !outcome.interrupted && outcome.refused === undefined && outcome.records.every((r) => r.status === "complete");
  // A shard is a part of a run: its scorecards would be a part's; `arena merge` writes the whole's.
  const partial = request.itemFilter !== undefined || request.manifest.shard !== undefined;
  const errors = countErrors(outcome.records);
  const trustworthy = errors.infra === 0 && errors.harness === 0;
  // A provider's fault no longer holds publishing back (the rule keeps those lanes out); our own does.
  const publishable = errors.harness === 0;
  const warn = (line: string) => io.stderr(`warning: ${line}\n`);
  const written: string[] = [];
  const keptLines: string[] = [];
  const unpublished: string[] = [];
  try {
    for (const record of outcome.records) written.push(writeRunRecord(layout, record));
    writeLaneTranscripts(layout.dir, outcome.transcripts);
    if (complete && !partial) {
      for (const record of outcome.records) writeScorecards(layout.scorecardDir(record.arena), record);
      written.push(writeRunSummary(layout, outcome.records));
      if (request.config.mode === "live" && publishable) {
        for (const record of outcome.records) {
          let published: ReturnType<typeof publishLiveScorecards>;
          try {
            published = publishLiveScorecards(layout.roots.resultsDir, record);
          } catch (err) {
            // A published file that does not read: that arena is not published, the rest of the run still is.
            if (!(err instanceof PublishedReadError)) throw err;
            unpublished.push(err.message);
            continue;
          }
          if (published.file) written.push(published.dir);
          for (const k of published.kept) {
            keptLines.push(`${rel(published.dir)}: ${k.framework} not published (${k.reason})${k.keptRun ? `; the row from run ${k.keptRun} stays` : ""}\n`);
          }
        }
      }
      if (request.config.mode === "mock" || publishable) {
        const summary = writeCrossRunSummary(layout.roots, request.config.mode, warn);
        if (summary) written.push(summary);
      }
    }
    const sessions = request.manifest.sessions.map((s, i) =>
      i === request.session ? { ...s, finished_at: isoSeconds(new Date()), status: complete ? ("complete" as const) : ("interrupted" as const) } : s,
    );
    writeManifest(layout.manifest, { ...request.manifest, sessions });
  } catch (err) {
    const output = asOutputError(err);
    if (!output) throw err;
    io.stderr(`arena: ${output.message}; the finished cells are in ${rel(layout.journal)} (exit ${EXIT_INFRA})\n`);
    return EXIT_INFRA;
  }
  if (complete && flags["keep-checkpoints"] !== true) rmSync(layout.checkpointRoot, { recursive: true, force: true });
  // Every run gets its report, whatever its exit: an interrupted run, a breaker trip or an infra
  // error is exactly the run someone opens the report to understand (its banner says what it is).
  const report = await reportOf(layout.dir, warn);
  const reportLine = () => {
    if (report) io.stdout(`report: ${rel(report)}\n`);
  };

  for (const record of outcome.records) {
    for (const adapterRecord of record.frameworks) {
      // Over the cells the provider served; the others are named beside the count.
      const served = servedItems(adapterRecord.items);
      const passed = served.filter((i) => i.passed).length;
      const cells = record.dataset_size * record.repeat;
      const unfinished = adapterRecord.items.length < cells && !request.manifest.shard ? ` (${adapterRecord.items.length} of ${cells} finished)` : "";
      const unserved = unservedText(adapterRecord.items);
      io.stdout(
        adapterRecord.available
          ? `${record.arena} ${adapterRecord.framework}: ${passed}/${served.length} passed${unfinished}${unserved ? `; ${unserved}` : ""}\n`
          : `${record.arena} ${adapterRecord.framework}: not available (${adapterRecord.reason})\n`,
      );
    }
  }
  for (const line of keptLines) io.stdout(line);
  io.stdout(`run: ${rel(layout.dir)}\n`);
  if (unpublished.length > 0) {
    for (const problem of unpublished) io.stderr(`arena: cannot publish: ${problem}\n`);
    reportLine();
    io.stdout(`exit ${EXIT_INFRA}: ${unpublished.length} arena(s) not published to results/; the run itself is in ${rel(layout.dir)}\n`);
    return EXIT_INFRA;
  }

  if (outcome.refused !== undefined) {
    reportLine();
    io.stderr(`arena: ${outcome.refused}\n`);
    return EXIT_USAGE;
  }
  const done = outcome.records.reduce((n, r) => n + r.frameworks.reduce((m, adapterRecord) => m + adapterRecord.items.length, 0), 0);
  if (outcome.breaker !== undefined) {
    reportLine();
    // The provider is down: one line with the cause and the way back, as an interrupt gives. The
    // way back is --retry-errors: it runs the cells never dispatched and the ones the provider failed.
    io.stderr(
      `arena: ${outcome.breaker}; ${done} cell(s) finished are kept in ${rel(layout.journal)}; once the provider is back, resume with: pnpm arena ${c.command} --retry-errors ${layout.runId} (exit ${EXIT_INFRA})\n`,
    );
    return EXIT_INFRA;
  }
  if (!complete) {
    reportLine();
    io.stdout(`interrupted (${c.interruptedBy ?? "stopped"}): ${done} cell(s) finished and are kept in ${rel(layout.journal)}\n`);
    io.stdout(`resume with: pnpm arena ${c.command} --resume ${layout.runId}\n`);
    return c.interruptExit ?? EXIT_INFRA;
  }
  if (!trustworthy) {
    reportLine();
    io.stdout(
      `exit ${EXIT_INFRA}: ${errors.infra} infra and ${errors.harness} harness error(s) — these results are not the frameworks' own` +
        `${request.config.mode === "live" ? `; ${publishable ? "results/ got only the lanes the provider served" : "nothing was written to results/"}` : ""} (rerun them: pnpm arena ${c.command} --retry-errors ${layout.runId})\n`,
    );
    return EXIT_INFRA;
  }

  // The last line names the judgement and where to look; a live run is judged by its thresholds
  // or baseline (run-judgement.ts), never by the mock's expectations file below.
  const finish = async (verdict: string, code: number): Promise<number> => {
    const summary = partial ? undefined : request.config.mode === "live" ? path.join(layout.roots.resultsDir, "summary.md") : layout.summary;
    if (complete && !partial) io.stdout(`scorecards: ${rel(layout.scorecardsDir)}/\n`);
    const where = summary ? `summary: ${rel(summary)}` : `records: ${rel(path.dirname(written[0] ?? layout.dir))}`;
    io.stdout(`${verdict}; ${where}${report ? `; report: ${rel(report)}` : ""}\n`);
    return code;
  };
  // Judged as a whole once merged: a part's failures, or an expected failure it did not hold, say nothing yet.
  const shard = request.manifest.shard;
  if (shard) return finish(`shard ${shard.index}/${shard.count} finished; arena merge judges the whole run`, EXIT_OK);
  if (request.config.mode === "live") {
    const live = judgeLive(c.judgement ?? {}, outcome.records, io);
    return finish(live.verdict, live.code);
  }

  const expectationsFile =
    typeof flags.expectations === "string"
      ? path.resolve(io.cwd, flags.expectations)
      : path.join(path.dirname(request.arenas[0]!.dir), "expectations.toml");
  const mode = request.config.mode;
  let code = EXIT_OK;
  let verdict = "results match the expectations";
  try {
    const opts = { cwd: io.cwd };
    if (flags["update-expected"] === true) {
      const update = updateExpectations(expectationsFile, outcome.records, mode, opts);
      io.stdout(
        `expectations: ${rel(expectationsFile)} ${update.written ? "updated" : "unchanged"} (${update.added.length} added, ${update.removed.length} removed, ${update.kept.length} kept)\n`,
      );
      for (const a of update.added) io.stdout(`  added ${a.arena}/${a.framework}/${a.item_id}: write its reason in the file\n`);
    }
    // After an update too: what an update cannot accept (a framework that did not build) still counts.
    const expectations = loadExpectations(expectationsFile, opts);
    for (const entry of unwrittenReasons(expectations)) {
      io.stderr(`warning: ${rel(expectationsFile)}: ${entry.mode}/${entry.arena}/${entry.framework}: the reason is still the placeholder; say why it fails\n`);
    }
    const differences = compareWithExpectations(outcome.records, expectations, mode, { strict: flags.strict === true });
    const lines = renderDiff(differences, { updateCommand: `pnpm arena ${c.command} --resume ${layout.runId} --update-expected` });
    for (const line of lines) io.stdout(`${line}\n`);
    if (differences.length > 0) {
      code = EXIT_DIFFERENCE;
      const violation = differences.find((d) => d.kind === "violation");
      const kinds = [...new Set(differences.map((d) => d.kind.replace("_", " ")))].join(", ");
      verdict = `${differences.length} difference(s) from the expectations (${kinds})${
        violation && violation.kind === "violation" ? `, first unexpected rule violation: ${violation.arena}/${violation.framework}/${violation.item_id} ${violation.rule}` : ""
      }`;
    }
  } catch (err) {
    if (!(err instanceof ExpectationsError)) throw err;
    io.stderr(`arena: ${err.message}\n`);
    return EXIT_USAGE;
  }
  return finish(verdict, code);
}

/** The run's HTML report; a report that cannot be built costs a warning, never the run's results. */
async function reportOf(runDir: string, warn: (line: string) => void): Promise<string | undefined> {
  try {
    return await writeRunReport(runDir, { statistics: REPORT_STATISTICS });
  } catch (err) {
    warn(`no report: ${err instanceof Error ? err.message : String(err)}`);
    return undefined;
  }
}
