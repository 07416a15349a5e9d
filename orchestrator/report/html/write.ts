/**
 * Writing reports: `runs/<run>/report.html` for one run, or one combined file for several. The
 * one call a run or bench needs at its end is `writeRunReport(layout.dir)`.
 */
import path from "node:path";
import { writeFileAtomic } from "../../files/atomic.ts";
import { loadAssets } from "./assets.ts";
import { buildReportData, type RunInput } from "./data.ts";
import { loadRun, ReportInputError } from "./load.ts";
import { renderReportHtml } from "./render.ts";
import type { ReportStatistics } from "./types.ts";

export interface ReportOptions {
  readonly statistics?: ReportStatistics;
  readonly now?: Date;
}

export const REPORT_FILE = "report.html";

function loadAll(dirs: readonly string[]): RunInput[] {
  const runs: RunInput[] = [];
  for (const dir of dirs) {
    const loaded = loadRun(dir);
    if (!loaded.ok) throw new ReportInputError(loaded.error);
    // The same run named twice (an id and its path) is one run.
    if (!runs.some((r) => r.runId === loaded.value.runId)) runs.push(loaded.value);
  }
  return runs;
}

function build(runs: readonly RunInput[], options: ReportOptions): string {
  const data = buildReportData(runs, {
    generatedAt: (options.now ?? new Date()).toISOString(),
    ...(options.statistics ? { statistics: options.statistics } : {}),
  });
  return renderReportHtml(data, loadAssets());
}

/** `<runDir>/report.html`; throws ReportInputError naming the file when the run cannot be read. */
export async function writeRunReport(runDir: string, options: ReportOptions = {}): Promise<string> {
  const file = path.join(runDir, REPORT_FILE);
  writeFileAtomic(file, build(loadAll([runDir]), options));
  return file;
}

/** `runs/report-<UTC stamp>.html`: a name that sorts by time and never overwrites a run's own report. */
export function combinedReportFile(runsDir: string, now: Date): string {
  return path.join(runsDir, `report-${now.toISOString().replace(/[-:.]/g, "")}.html`);
}

/** One report over several runs; a single distinct run is written as that run's own report. */
export async function writeReport(runDirs: readonly string[], runsDir: string, options: ReportOptions = {}): Promise<string> {
  const runs = loadAll(runDirs);
  const now = options.now ?? new Date();
  const file = runs.length === 1 ? path.join(runDirs[0]!, REPORT_FILE) : combinedReportFile(runsDir, now);
  writeFileAtomic(file, build(runs, { ...options, now }));
  return file;
}
