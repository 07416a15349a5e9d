/** `arena clean [--keep N]`: prune old run folders and their checkpoints. */
import { parseCount, readEnvironment } from "../../config/arena-config.ts";
import { ConfigError, MAX_COUNT } from "../../config/values.ts";
import { cleanRuns } from "../../store/clean.ts";
import { UsageError, type CommandContext } from "../command.ts";
import { REPO_ROOT, resolveOutputRoots } from "../paths.ts";

export function run(ctx: CommandContext): number {
  let keep = 10;
  try {
    if (ctx.flags.keep !== undefined) keep = parseCount(String(ctx.flags.keep), "--keep", { min: 0, max: MAX_COUNT });
  } catch (err) {
    if (err instanceof ConfigError) throw new UsageError(err.message);
    throw err;
  }
  const env = readEnvironment(process.env, REPO_ROOT);
  const result = cleanRuns(resolveOutputRoots(env, ctx.io.cwd), keep);
  for (const id of result.removed) ctx.io.stdout(`removed ${id}\n`);
  ctx.io.stdout(`${result.removed.length} run(s) removed, ${result.kept.length} kept\n`);
  return 0;
}
