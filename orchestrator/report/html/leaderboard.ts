/**
 * Who is best at what: each arena's frameworks ranked by pass rate over the cells the provider
 * served, and one overall row per framework. Pure, from the report's cells, so it is tested as
 * data (tests/report-html/leaderboard.test.ts) and the page only draws it.
 *
 * A tie is an equal pass rate and shares its rank. The paired test against the baseline is
 * carried on every row but flagged `significant` only below SIGNIFICANCE_LEVEL: the page states
 * those in the row and keeps the rest in a collapsed detail view, so "no difference found" is
 * not printed thirty times over.
 */
import { ADAPTER_CATALOG } from "../../../contract/catalogue.ts";
import { bannerNotices } from "./banner.ts";
import { SIGNIFICANCE_LEVEL, type ArenaBoard, type Board, type BoardRow, type OverallRow, type Rank, type SeriesStyle } from "./board-types.ts";
import type { Cell, ReportData, Series } from "./types.ts";

/** Ten hues a reader tells apart; beyond ten a framework differs from its same-hued ones by symbol. */
export const PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"] as const;
/** Plot's filled symbol names, most distinct first. */
export const SYMBOLS = ["circle", "square", "triangle", "diamond", "star", "cross", "wye"] as const;

/** Pass rates this close are the same rate written two ways (floating-point division), not a lead. */
const RATE_EPSILON = 1e-9;

/**
 * Competition ranks over values already sorted best first: equal values share the rank of the
 * first of them, and the next distinct value skips as many places as shared it.
 */
export function competitionRanks(sortedValues: readonly number[]): Rank[] {
  const positions: number[] = [];
  sortedValues.forEach((v, i) => positions.push(i > 0 && Math.abs(sortedValues[i - 1]! - v) <= RATE_EPSILON ? positions[i - 1]! : i + 1));
  return positions.map((position) => ({ position, tied: positions.filter((p) => p === position).length > 1 }));
}

/** "=2" for a shared rank, "2" otherwise. */
export function rankLabel(rank: Rank): string {
  return `${rank.tied ? "=" : ""}${rank.position}`;
}

/**
 * Catalogue position first, so a framework is drawn alike in every report; names the catalogue
 * does not know (a combined report's other versions, tests) follow it in name order.
 */
export function seriesStyles(series: readonly Series[]): SeriesStyle[] {
  const catalogue = ADAPTER_CATALOG.map((e) => e.name);
  const strangers = [...new Set(series.map((s) => s.framework).filter((f) => !catalogue.includes(f)))].sort();
  return series.map((s) => {
    const known = catalogue.indexOf(s.framework);
    const index = known >= 0 ? known : catalogue.length + strangers.indexOf(s.framework);
    return { series: s.id, index, colour: PALETTE[index % PALETTE.length]!, symbol: SYMBOLS[Math.floor(index / PALETTE.length) % SYMBOLS.length]! };
  });
}

function boardRow(cell: Cell, rank: Rank | undefined, level: number): BoardRow {
  const m = cell.metrics;
  const tokens = m.promptTokens && m.completionTokens ? m.promptTokens.mean + m.completionTokens.mean : undefined;
  return {
    series: cell.series,
    ...(rank ? { rank } : {}),
    ...(cell.available ? {} : { unavailable: cell.unavailable ?? "unavailable" }),
    n: cell.n,
    passed: cell.passed,
    passRate: cell.passRate,
    ...(cell.passInterval ? { passInterval: cell.passInterval } : {}),
    notServed: cell.notServed,
    errors: cell.errors,
    ...(m.costUsd ? { meanCostUsd: m.costUsd.mean } : {}),
    ...(tokens !== undefined ? { meanTokens: tokens } : {}),
    ...(m.latencyS ? { meanLatencyS: m.latencyS.mean } : {}),
    ...(cell.vsBaseline ? { vsBaseline: { ...cell.vsBaseline, significant: cell.vsBaseline.pValue < level } } : {}),
  };
}

/** Ranked: available with at least one served cell. Ties keep the order of `seriesOrder`. */
function isRanked(c: Cell): boolean {
  return c.available && c.n > 0;
}

/**
 * One arena's leaderboard. `seriesOrder` breaks ties (the report's framework order); `level` is
 * the p below which a paired test is flagged significant.
 */
export function arenaBoard(arena: string, cells: readonly Cell[], seriesOrder: readonly string[], level = SIGNIFICANCE_LEVEL): ArenaBoard {
  const own = cells.filter((c) => c.arena === arena);
  const order = (c: Cell) => seriesOrder.indexOf(c.series);
  const ranked = own.filter(isRanked).sort((a, b) => b.passRate - a.passRate || order(a) - order(b));
  const ranks = competitionRanks(ranked.map((c) => c.passRate));
  const rest = own.filter((c) => !isRanked(c)).sort((a, b) => order(a) - order(b));
  return { arena, rows: [...ranked.map((c, i) => boardRow(c, ranks[i], level)), ...rest.map((c) => boardRow(c, undefined, level))] };
}

/**
 * Over the arenas each framework was ranked on; a framework ranked nowhere has no overall row.
 * Ranked: the frameworks ranked on the most arenas; after them, unranked, those on fewer.
 */
export function overallRows(boards: readonly ArenaBoard[], seriesOrder: readonly string[]): OverallRow[] {
  const rows: Omit<OverallRow, "rank">[] = [];
  for (const series of seriesOrder) {
    const ranked = boards.flatMap((b) => b.rows.filter((r) => r.series === series && r.rank));
    if (ranked.length === 0) continue;
    const rates = ranked.map((r) => r.passRate);
    rows.push({
      series,
      meanPassRate: rates.reduce((a, b) => a + b, 0) / rates.length,
      minPassRate: Math.min(...rates),
      maxPassRate: Math.max(...rates),
      arenas: ranked.length,
      significantlyBetter: ranked.filter((r) => r.vsBaseline?.significant && r.vsBaseline.better > r.vsBaseline.worse).length,
      significantlyWorse: ranked.filter((r) => r.vsBaseline?.significant && r.vsBaseline.worse > r.vsBaseline.better).length,
    });
  }
  // A mean over fewer arenas is a mean over other questions: only the frameworks that ran the
  // most arenas are ranked against each other; the rest keep their row, unranked, after them.
  const most = Math.max(0, ...rows.map((r) => r.arenas));
  const byMean = (a: (typeof rows)[number], b: (typeof rows)[number]) => b.meanPassRate - a.meanPassRate || seriesOrder.indexOf(a.series) - seriesOrder.indexOf(b.series);
  const full = rows.filter((r) => r.arenas === most).sort(byMean);
  const partial = rows.filter((r) => r.arenas < most).sort((a, b) => b.arenas - a.arenas || byMean(a, b));
  const ranks = competitionRanks(full.map((r) => r.meanPassRate));
  return [...full.map((r, i) => ({ ...r, rank: ranks[i]! })), ...partial];
}

/** The first screen, from the rest of the report's data; `level` as for {@link arenaBoard}. */
export function buildBoard(data: Omit<ReportData, "board">, level = SIGNIFICANCE_LEVEL): Board {
  const seriesOrder = data.series.map((s) => s.id);
  const arenas = data.arenas.map((a) => arenaBoard(a.id, data.cells, seriesOrder, level));
  return { significanceLevel: level, arenas, overall: overallRows(arenas, seriesOrder), styles: seriesStyles(data.series), notices: bannerNotices(data) };
}
