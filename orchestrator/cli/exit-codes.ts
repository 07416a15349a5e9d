/**
 * Every exit code of `arena`, in one place, so a CI can rely on them:
 *
 * - 0: the run matched the expectations file (every failure in it was expected, nothing else failed);
 * - 1: a difference from the expectations — a new failure, an error, an expected failure that now
 *   passes, a rule violation — or, with `--strict`, any failed item;
 * - 2: a usage or input mistake; nothing ran (or a resume was refused);
 * - 3: infrastructure or the harness failed (provider unreachable, an output root unwritable, an
 *   `infra`/`harness` item error, a bug): the results are not the frameworks';
 * - 130 / 143: interrupted by SIGINT / SIGTERM; what finished is kept and the run can be resumed.
 */
export const EXIT_OK = 0;
export const EXIT_DIFFERENCE = 1;
export const EXIT_USAGE = 2;
export const EXIT_INFRA = 3;
export const EXIT_SIGINT = 130;
export const EXIT_SIGTERM = 143;

export function exitForSignal(signal: NodeJS.Signals): number {
  return signal === "SIGTERM" ? EXIT_SIGTERM : EXIT_SIGINT;
}
