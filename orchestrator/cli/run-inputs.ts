/**
 * The inputs of `run`/`bench` that the loader alone does not refuse, checked before anything runs:
 * what `arena validate` calls an error (duplicate item ids, an unknown check type, a `tol` of -5,
 * an input past the gateway's body limit) and the expectations file. Each used to surface only
 * after every item had run, or never: a run "matched" a missing `--expectations` file, and
 * `--expectations /dev/zero` ran the whole matrix before exit 2.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import type { Arena } from "../arena/schemas.ts";
import type { Mode } from "../config/arena-config.ts";
import { validateArena } from "../arena/validate.ts";
import { ExpectationsError, loadExpectations } from "../expectations/index.ts";
import { UsageError, type FlagValue } from "./command.ts";

/**
 * Every error `arena validate` reports on these arenas, as one {@link UsageError}: the first, by
 * `file:line`, and how many more there are. Warnings do not stop a run, as in `validate`; nor, in
 * a live run, what is wrong only with the mock script, which a live run never reads (the loader
 * still refuses a script it cannot parse, in either mode).
 */
export function refuseInvalidArenas(arenas: readonly Arena[], mode: Mode, cwd: string): void {
  const errors = arenas.flatMap((a) => validateArena(a.dir, { cwd, mockScript: mode === "mock" }).errors);
  const first = errors[0];
  if (first === undefined) return;
  const more = errors.length > 1 ? ` (and ${errors.length - 1} more: arena validate lists them)` : "";
  throw new UsageError(`${first.message}${more}`);
}

/** Where the expectations live: `--expectations FILE`, else expectations.toml beside the arenas (as run-conclude.ts). */
export function expectationsPath(flag: FlagValue, arenas: readonly Arena[], cwd: string): { file: string; given: boolean } {
  if (typeof flag === "string") return { file: path.resolve(cwd, flag), given: true };
  return { file: path.join(path.dirname(arenas[0]!.dir), "expectations.toml"), given: false };
}

/**
 * Reads the expectations file the run will be judged by, now rather than after the last item. A
 * file named by `--expectations` must exist — unless `--update-expected` is to create it — since
 * an absent file expects nothing and every run would "match"; only the default may be absent. A
 * FIFO, a device or a file with a mistake is refused with the loader's `file:line` message.
 */
export function checkExpectations(flags: Readonly<Record<string, FlagValue>>, arenas: readonly Arena[], cwd: string): void {
  const { file, given } = expectationsPath(flags["expectations"], arenas, cwd);
  if (given && !existsSync(file) && flags["update-expected"] !== true) {
    throw new UsageError(`--expectations ${String(flags["expectations"])}: no such file (only the default expectations.toml may be absent; --update-expected creates it)`);
  }
  try {
    loadExpectations(file, { cwd });
  } catch (err) {
    if (err instanceof ExpectationsError) throw new UsageError(err.message);
    throw err;
  }
}
