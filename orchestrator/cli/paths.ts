/** The repository root, and the base the output roots (runs/, checkpoints/, results/) hang from. */
import path from "node:path";
import { fileURLToPath } from "node:url";
import { outputRoots, type OutputRoots } from "../store/layout.ts";

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/** The repo, unless ARENA_OUTPUT_ROOT moves all three outputs elsewhere (tests, read-only checkouts). */
export function resolveOutputRoots(env: Readonly<Record<string, string | undefined>>, cwd: string): OutputRoots {
  const raw = env.ARENA_OUTPUT_ROOT?.trim();
  return outputRoots(raw ? path.resolve(cwd, raw) : REPO_ROOT);
}
