/** The repository root, and the base the output roots (runs/, checkpoints/, results/) hang from. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { ConfigError, quoted } from "../config/values.ts";
import { pseudoFilesystemProblem } from "../files/pseudo-fs.ts";
import { outputRoots, type OutputRoots } from "../store/layout.ts";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The repo, unless ARENA_OUTPUT_ROOT moves all three outputs elsewhere (tests, read-only checkouts).
 * An empty value is the repo too (harness.md §1: empty means the default; run-flow.ts says so).
 * A root on a kernel pseudo filesystem is a {@link ConfigError} before any folder is made.
 */
export function resolveOutputRoots(env: Readonly<Record<string, string | undefined>>, cwd: string): OutputRoots {
  const raw = env.ARENA_OUTPUT_ROOT?.trim();
  if (!raw) return outputRoots(REPO_ROOT);
  const base = path.resolve(cwd, raw);
  const problem = pseudoFilesystemProblem(base);
  if (problem) throw new ConfigError("ARENA_OUTPUT_ROOT", `${quoted(raw)} ${problem}`);
  return outputRoots(base);
}
