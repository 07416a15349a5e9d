/**
 * From loaded run records (and each run's manifest) to the report's data. Pure: the clock and
 * the statistics come in as arguments, so the same records always give the same report. Figures
 * count only the cells the provider served (report/not-served.ts); the item table shows every cell.
 */
import { itemOutcomes } from "../../stats/index.ts";
import type { Manifest } from "../../store/manifest.ts";
import { servedItems, servedPairs, unservedCauses } from "../not-served.ts";
import type { RunRecord } from "../record.ts";
import { itemTable } from "./items.ts";
import { buildBoard } from "./leaderboard.ts";
import { runComparisons } from "./compare.ts";
import { hasPricing } from "../pricing.ts";
import { errorsByClass, laneMetrics, violationsByRule } from "./metrics.ts";
import { baselineLane, overheadRows, pauseRows, promptOverhead, resilienceRows, type Lane } from "./tables.ts";
import type { LaneTranscriptFile } from "./transcript.ts";
import type { ArenaInfo, Cell, DeclaredDeparture, PairedComparison, ReportData, ReportStatistics, RunInfo, Series } from "./types.ts";

export interface RunInput {
  readonly runId: string;
  readonly manifest?: Manifest;
  /** The commit the run was made from, when something recorded it. */
  readonly gitSha?: string;
  readonly records: readonly RunRecord[];
  readonly transcripts?: readonly LaneTranscriptFile[];
  /** Each arena's questions by item id (html/inputs.ts), when the run's datasets are at hand. */
  readonly inputs?: Readonly<Record<string, Readonly<Record<string, string>>>>;
}

export interface BuildOptions {
  /** ISO time the report was built (the caller's clock). */
  readonly generatedAt: string;
  readonly statistics?: ReportStatistics;
  /** The framework overheads are measured against (default `vanilla`). */
  readonly baseline?: string;
}

export const DEFAULT_BASELINE = "vanilla";

function runInfo(run: RunInput, label: string): RunInfo {
  const records = [...run.records];
  const first = records[0];
  const statuses: RunInfo["statuses"] = {};
  for (const r of records) statuses[r.arena] = r.status;
  const priced = records.find((r) => hasPricing(r.pricing));
  return {
    runId: run.runId,
    label,
    createdAt: run.manifest?.created_at ?? first?.started_at ?? "",
    mode: run.manifest?.mode ?? first?.mode ?? "mock",
    models: [...new Set(records.map((r) => r.model))],
    ...(run.manifest ? { command: run.manifest.command, argv: run.manifest.argv } : {}),
    ...(run.gitSha ? { gitSha: run.gitSha } : {}),
    harnessVersion: first?.harness_version ?? "",
    node: first?.node ?? "",
    platform: first?.platform ?? "",
    statuses,
    sessions: run.manifest?.sessions.length ?? 1,
    ...(priced ? { pricing: { inputPerM: priced.pricing.input_per_m, outputPerM: priced.pricing.output_per_m } } : {}),
  };
}

/** The paired test of a lane against the baseline's lane on the same run and arena, over items; none on the baseline itself. */
function againstBaseline(lane: Lane, lanes: readonly Lane[], baseline: string, statistics: ReportStatistics | undefined): PairedComparison | undefined {
  if (!statistics?.pairedItemTest || lane.adapterRecord.framework === baseline || !lane.adapterRecord.available) return undefined;
  const base = baselineLane(lanes, lane, baseline);
  if (!base?.adapterRecord.available) return undefined;
  // A pair either side of which the provider failed is dropped, and the count says so.
  const { first, second, dropped } = servedPairs(lane.adapterRecord.items, base.adapterRecord.items);
  const t = statistics.pairedItemTest(itemOutcomes(first), itemOutcomes(second));
  return t.paired === 0 ? undefined : { better: t.better, worse: t.worse, tied: t.tied, paired: t.paired, pValue: t.pValue, dropped };
}

/** `lanes` whole (the paired test drops unserved pairs itself); every other figure is over served cells. */
function cellOf(lane: Lane, lanes: readonly Lane[], baseline: string, statistics: ReportStatistics | undefined): Cell {
  const { adapterRecord, record } = lane;
  const items = servedItems(adapterRecord.items);
  const passed = items.filter((i) => i.passed).length;
  // Over items, each item's repeats folded into its pass fraction: repeats are not independent samples.
  const passInterval = adapterRecord.available && items.length > 0 ? statistics?.clusteredPassInterval(itemOutcomes(items)) : undefined;
  const overhead = promptOverhead(lanes, lane, baseline);
  const vsBaseline = againstBaseline(lane, lanes, baseline, statistics);
  return {
    series: lane.seriesId,
    arena: record.arena,
    available: adapterRecord.available,
    ...(adapterRecord.available ? {} : { unavailable: adapterRecord.unavailable_kind ?? "load_failed", reason: adapterRecord.reason ?? "" }),
    n: items.length,
    passed,
    passRate: items.length === 0 ? 0 : passed / items.length,
    ...(passInterval ? { passInterval: { low: passInterval.low, high: passInterval.high } } : {}),
    ...(vsBaseline ? { vsBaseline } : {}),
    errors: items.filter((i) => i.error).length,
    errorsByClass: errorsByClass(items),
    notServed: adapterRecord.items.length - items.length,
    notServedByCause: unservedCauses(adapterRecord.items),
    violationItems: items.filter((i) => (i.violations?.length ?? 0) > 0).length,
    violationsByRule: violationsByRule(items),
    metrics: laneMetrics(items, record.pricing, `${lane.runId}/${record.arena}/${lane.seriesId}`, statistics),
    ...(overhead !== undefined ? { promptOverhead: overhead } : {}),
    latencySamples: items.map((i) => i.latency_s),
    ...(adapterRecord.isolation
      ? { isolation: { level: adapterRecord.isolation.level, network: adapterRecord.isolation.network, tool: adapterRecord.isolation.tool, violations: adapterRecord.isolation.violations ?? [] } }
      : {}),
  };
}

/** Every lane of one adapter declares the same departures; a lane recorded by another version may differ, so both show. */
function addDeclarations(series: Series, declared: readonly DeclaredDeparture[]): void {
  for (const d of declared) {
    if (!series.declarations.some((o) => o.kind === d.kind && o.what === d.what && o.why === d.why)) series.declarations.push({ kind: d.kind, what: d.what, why: d.why });
  }
}

export function buildReportData(runs: readonly RunInput[], options: BuildOptions): ReportData {
  const baseline = options.baseline ?? DEFAULT_BASELINE;
  const combined = runs.length > 1;
  const runLabel = (index: number) => (combined ? `R${index + 1}` : "");
  const seriesList: Series[] = [];
  const lanes: Lane[] = [];
  const arenas = new Map<string, ArenaInfo>();
  runs.forEach((run, index) => {
    const records = [...run.records].sort((a, b) => a.arena.localeCompare(b.arena));
    for (const record of records) {
      if (!arenas.has(record.arena)) arenas.set(record.arena, { id: record.arena, description: record.arena_description, datasetSize: record.dataset_size });
      for (const adapterRecord of record.frameworks) {
        const id = combined ? `${runLabel(index)}/${adapterRecord.framework}` : adapterRecord.framework;
        let series = seriesList.find((s) => s.id === id);
        if (!series) {
          series = { id, framework: adapterRecord.framework, runId: run.runId, label: combined ? `${adapterRecord.framework} (${runLabel(index)})` : adapterRecord.framework, variant: adapterRecord.variant, libVersions: [], declarations: [] };
          seriesList.push(series);
        }
        if (adapterRecord.available && !series.libVersions.includes(adapterRecord.lib_version)) series.libVersions.push(adapterRecord.lib_version);
        addDeclarations(series, adapterRecord.declarations ?? []);
        lanes.push({ seriesId: id, runId: run.runId, record, adapterRecord });
      }
    }
  });
  const seriesOrder = seriesList.map((s) => s.id);
  const arenaIds = [...arenas.keys()].sort();
  // Arena-major, then series order: the item table's rows and the charts' facets follow it.
  lanes.sort((a, b) => arenaIds.indexOf(a.record.arena) - arenaIds.indexOf(b.record.arena) || seriesOrder.indexOf(a.seriesId) - seriesOrder.indexOf(b.seriesId));
  const transcriptFiles = new Map<string, LaneTranscriptFile>();
  for (const run of runs) for (const t of run.transcripts ?? []) transcriptFiles.set(`${run.runId}/${t.arena}/${t.framework}`, t);
  const inputs = new Map(runs.map((r) => [r.runId, r.inputs]));
  const grid = itemTable(
    lanes,
    seriesOrder,
    (l) => transcriptFiles.get(`${l.runId}/${l.record.arena}/${l.adapterRecord.framework}`),
    (l) => inputs.get(l.runId)?.[l.record.arena],
  );
  const servedLanes = lanes.map((l) => ({ ...l, adapterRecord: { ...l.adapterRecord, items: servedItems(l.adapterRecord.items) } }));
  const modes = new Set(runs.map((r) => r.manifest?.mode ?? r.records[0]?.mode ?? "mock"));
  const data: Omit<ReportData, "board"> = {
    formatVersion: 1,
    generatedAt: options.generatedAt,
    mode: modes.size === 1 ? [...modes][0]! : "mixed",
    baseline,
    runs: runs.map((r, i) => runInfo(r, runLabel(i))),
    series: seriesList,
    arenas: arenaIds.map((id) => arenas.get(id)!),
    cells: lanes.map((l) => cellOf(l, lanes, baseline, options.statistics)),
    overhead: overheadRows(lanes, seriesOrder, baseline),
    resilience: resilienceRows(servedLanes),
    pause: pauseRows(servedLanes),
    ...grid,
    ...(combined ? { comparisons: runComparisons(runs, runs.map((_, i) => runLabel(i))) } : {}),
  };
  return { ...data, board: buildBoard(data) };
}
