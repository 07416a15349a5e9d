/**
 * Every exit code of `arena`, in one place, so a CI can rely on them:
 *
 * - 0: a mock run matched the expectations file (every failure in it was expected, nothing else
 *   failed); a live run met its thresholds and did not regress from its baseline, or asked for
 *   neither (its last line then says it was not judged);
 * - 1: a mock run differs from the expectations — a new failure, an error, an expected failure
 *   that now passes, a rule violation — or, with `--strict`, any failed item; a live run has a lane
 *   below its minimum pass rate (`--min-pass-rate`, `--thresholds`) or regressed from `--baseline`;
 * - 2: a usage or input mistake; nothing ran (or a resume was refused);
 * - 3: infrastructure or the harness failed (provider unreachable, an output root unwritable, an
 *   `infra`/`harness` item error, a bug): the results are not the frameworks';
 * - 129 / 130 / 143: interrupted by SIGHUP / SIGINT / SIGTERM (128 + the signal's number, as a
 *   shell reports a process the signal killed); what finished is kept and the run can be resumed.
 */
export const EXIT_OK = 0;
export const EXIT_DIFFERENCE = 1;
export const EXIT_USAGE = 2;
export const EXIT_INFRA = 3;
export const EXIT_SIGHUP = 129;
export const EXIT_SIGINT = 130;
export const EXIT_SIGTERM = 143;

export function exitForSignal(signal: NodeJS.Signals): number {
  if (signal === "SIGTERM") return EXIT_SIGTERM;
  return signal === "SIGHUP" ? EXIT_SIGHUP : EXIT_SIGINT;
}
