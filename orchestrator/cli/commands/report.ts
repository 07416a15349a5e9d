/**
 * `arena report [RUN…]`: the self-contained HTML report of one run (`runs/<run>/report.html`), or
 * of several runs together (`runs/report-<UTC time>.html`). A run that cannot be read is one line
 * naming the file and exit 2, like any other bad input.
 */
import path from "node:path";
import { readEnvironment } from "../../config/arena-config.ts";
import { AssetError } from "../../report/html/assets.ts";
import { ReportInputError, resolveRunDir } from "../../report/html/load.ts";
import { writeReport } from "../../report/html/write.ts";
import type { CommandContext } from "../command.ts";
import { EXIT_INFRA, EXIT_OK, EXIT_USAGE } from "../exit-codes.ts";
import { REPO_ROOT, resolveOutputRoots } from "../paths.ts";
import { REPORT_STATISTICS } from "../../report/html/statistics.ts";

function shown(file: string, cwd: string): string {
  const relative = path.relative(cwd, file);
  return relative && !relative.startsWith("..") && !path.isAbsolute(relative) ? relative : file;
}

export async function run(ctx: CommandContext): Promise<number> {
  const { runsDir } = resolveOutputRoots(readEnvironment(process.env, REPO_ROOT), ctx.io.cwd);
  const refs = ctx.positionals.length > 0 ? ctx.positionals : [undefined];
  const dirs: string[] = [];
  for (const ref of refs) {
    const resolved = resolveRunDir(runsDir, ref, ctx.io.cwd);
    if (!resolved.ok) {
      ctx.io.stderr(`arena report: ${resolved.error.file}: ${resolved.error.problem}\n`);
      return EXIT_USAGE;
    }
    dirs.push(resolved.value);
  }
  try {
    const file = await writeReport(dirs, runsDir, { statistics: REPORT_STATISTICS });
    ctx.io.stdout(`${shown(file, ctx.io.cwd)}\n`);
    return EXIT_OK;
  } catch (err) {
    if (err instanceof ReportInputError) {
      ctx.io.stderr(`arena report: ${err.message}\n`);
      return EXIT_USAGE;
    }
    // The chart library missing from node_modules is an install problem, not the run's.
    if (err instanceof AssetError) {
      ctx.io.stderr(`arena report: ${err.message}\n`);
      return EXIT_INFRA;
    }
    throw err;
  }
}
