/**
 * `--no-restart`: durable pauses resume on the same process instead of a fresh one. It exists to
 * measure what the restarts cost (`durable_state` with and without it, docs/performance.md), so a
 * run made with it proves nothing about surviving a restart, and it is refused wherever a run
 * would stand for that proof:
 *
 * - a live run: its scorecards are published to results/ and judged against thresholds;
 * - `--update-expected`: the expectations file would then pin results no restart produced;
 * - a resume (`--resume`, `--retry-errors`): it runs as the run was recorded, with or without.
 *
 * A mock run made with it is still compared with the expectations (the exit code says whether the
 * results match), and its manifest and every record say `no_restart: true`.
 */
import type { Manifest } from "../store/manifest.ts";
import { UsageError } from "./command.ts";
import type { RunRequest } from "./run-plan.ts";

export const NO_RESTART_FLAG = "no-restart";

/** Whether this session resumes durable pauses in place: the flag on a new run, the manifest on a resume. */
export function noRestartOf(flags: Readonly<Record<string, unknown>>, request: RunRequest): boolean {
  const given = flags[NO_RESTART_FLAG] === true;
  if (request.session > 0) return request.manifest.no_restart === true;
  if (!given) return false;
  if (request.config.mode === "live") {
    throw new UsageError(`--${NO_RESTART_FLAG} is for measuring mock runs: a live run's scorecards are published and judged, and must come from real restarts`);
  }
  if (flags["update-expected"] === true) {
    throw new UsageError(`--${NO_RESTART_FLAG} cannot be combined with --update-expected: the expectations file must be written by a run whose durable pauses really restarted`);
  }
  return true;
}

/** The request whose manifest records that its durable pauses resumed in place. */
export function markedNoRestart(request: RunRequest): RunRequest {
  const manifest: Manifest = { ...request.manifest, no_restart: true };
  return { ...request, manifest };
}
