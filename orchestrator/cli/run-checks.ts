/**
 * Everything that can fail before the first item, checked before it: memory for the requested
 * concurrency, a live provider that answers, and output roots that can be written. Money and
 * hours are spent only on a run that can finish and be written up.
 */
import { existsSync } from "node:fs";
import { boundConcurrency, poolDemands } from "../config/concurrency.ts";
import { seatsFor } from "../config/items-per-worker.ts";
import { PreflightError, preflightLive } from "../config/preflight.ts";
import { asOutputError, probeWritable, removeQuietly } from "../files/fs-error.ts";
import { claimRunFolder, type RunLayout } from "../store/layout.ts";
import { pointLatestAt } from "../store/latest.ts";
import { writeManifest } from "../store/manifest.ts";
import type { Io } from "./command.ts";
import { EXIT_INFRA } from "./exit-codes.ts";
import type { RunRequest } from "./run-plan.ts";

export interface Checked {
  readonly concurrency: number;
  /** The request to run: a new run's under the id its folder was claimed with (it may differ from the plan's). */
  readonly request: RunRequest;
  /** Set when the run must not start. */
  readonly exitCode?: number;
}

/** `requested.given`: whether the user asked for it (the message names the flag, or the default). */
export async function beforeFirstItem(request: RunRequest, requested: { value: number; given: boolean }, io: Io): Promise<Checked> {
  const itemRuns = (a: RunRequest["arenas"][number]) =>
    request.itemFilter ? a.items.filter((i) => request.itemFilter!.includes(i.id)).length : a.items.length;
  const bound = boundConcurrency(requested.value, {
    adapters: poolDemands(
      // Without restarts (--no-restart) a durable lane keeps no spares.
      request.arenas.map((a) => ({ id: a.id, durable: a.durable && request.manifest.no_restart !== true, items: itemRuns(a) })),
      request.adapters.map((a) => ({ ...a, seats: seatsFor(a, request.manifest.items_per_worker) })),
      request.config.repeat,
    ),
    label: requested.given ? "--concurrency" : "the default concurrency",
  });
  if (bound.clamped && bound.message) io.stderr(`arena: ${bound.message}\n`);
  const concurrency = bound.concurrency;

  if (request.config.mode === "live") {
    try {
      await preflightLive(request.config);
    } catch (err) {
      if (!(err instanceof PreflightError)) throw err;
      io.stderr(`arena: ${err.message} — nothing ran (exit ${EXIT_INFRA})\n`);
      return { concurrency, request, exitCode: EXIT_INFRA };
    }
  }

  // A new run's folders are made here, after everything else passed, so a refused run leaves none.
  let ready = request;
  const made: string[] = [];
  try {
    if (request.session === 0) {
      // runs/ too, when this run is what would create it: an empty runs/ is debris as well.
      if (!existsSync(request.layout.roots.runsDir)) made.push(request.layout.roots.runsDir);
      ready = withLayout(request, claimRunFolder(request.layout.roots, request.startedAt));
      made.push(ready.layout.dir, ready.layout.checkpointRoot);
    }
    const { layout } = ready;
    probeWritable(layout.dir);
    probeWritable(layout.checkpointRoot);
    if (request.config.mode === "live") probeWritable(layout.roots.resultsDir);
    writeManifest(layout.manifest, ready.manifest);
    pointLatestAt(layout.roots.runsDir, layout.runId);
  } catch (err) {
    for (const dir of made) removeQuietly(dir);
    const output = asOutputError(err);
    if (!output) throw err;
    io.stderr(`arena: ${output.message} — nothing ran (exit ${EXIT_INFRA})\n`);
    return { concurrency, request: ready, exitCode: EXIT_INFRA };
  }
  return { concurrency, request: ready };
}

/** The request under the run id its folder was actually claimed with (see claimRunFolder). */
function withLayout(request: RunRequest, layout: RunLayout): RunRequest {
  return { ...request, layout, manifest: { ...request.manifest, run_id: layout.runId } };
}
