/**
 * Everything that can fail before the first item, checked before it: memory for the requested
 * concurrency, a live provider that answers, and output roots that can be written. Money and
 * hours are spent only on a run that can finish and be written up.
 */
import { boundConcurrency, poolDemands } from "../config/concurrency.ts";
import { PreflightError, preflightLive } from "../config/preflight.ts";
import { asOutputError, probeWritable } from "../files/fs-error.ts";
import { pointLatestAt } from "../store/latest.ts";
import { writeManifest } from "../store/manifest.ts";
import type { Io } from "./command.ts";
import { EXIT_INFRA } from "./exit-codes.ts";
import type { RunRequest } from "./run-plan.ts";

export interface Checked {
  readonly concurrency: number;
  /** Set when the run must not start. */
  readonly exitCode?: number;
}

/** `requested.given`: whether the user asked for it (the message names the flag, or the default). */
export async function beforeFirstItem(request: RunRequest, requested: { value: number; given: boolean }, io: Io): Promise<Checked> {
  const itemRuns = (a: RunRequest["arenas"][number]) =>
    request.itemFilter ? a.items.filter((i) => request.itemFilter!.includes(i.id)).length : a.items.length;
  const bound = boundConcurrency(requested.value, {
    adapters: poolDemands(
      request.arenas.map((a) => ({ id: a.id, durable: a.durable, items: itemRuns(a) })),
      request.adapters,
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
      return { concurrency, exitCode: EXIT_INFRA };
    }
  }

  const { layout } = request;
  try {
    probeWritable(layout.dir);
    probeWritable(layout.checkpointRoot);
    if (request.config.mode === "live") probeWritable(layout.roots.resultsDir);
    writeManifest(layout.manifest, request.manifest);
    pointLatestAt(layout.roots.runsDir, layout.runId);
  } catch (err) {
    const output = asOutputError(err);
    if (!output) throw err;
    io.stderr(`arena: ${output.message} — nothing ran (exit ${EXIT_INFRA})\n`);
    return { concurrency, exitCode: EXIT_INFRA };
  }
  return { concurrency };
}
