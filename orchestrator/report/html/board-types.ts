/**
 * The report's first screen as data: the leaderboard per arena, the overall row per framework,
 * the banner's notices and each framework's visual identity. Plain JSON, embedded in the page.
 */

/** A 95% interval (the same shape as types.ts's Interval; not imported, so types.ts can import this file without a circle). */
export interface BoardInterval {
  readonly low: number;
  readonly high: number;
}

/** The paired test against the baseline, as types.ts's PairedComparison, plus whether it reached the level. */
export interface BoardPairedTest {
  readonly better: number;
  readonly worse: number;
  readonly tied: number;
  readonly paired: number;
  readonly pValue: number;
  readonly dropped: number;
  readonly significant: boolean;
}

/** The significance level a paired test must reach before the leaderboard prints it in the row. */
export const SIGNIFICANCE_LEVEL = 0.05;

/**
 * A rank that knows whether it is shared: competition ranking (1, =2, =2, 4), so a tie never
 * hides behind an arbitrary order.
 */
export interface Rank {
  readonly position: number;
  readonly tied: boolean;
}

/** One framework's row on one arena's leaderboard. */
export interface BoardRow {
  readonly series: string;
  /** Absent where the framework could not run the arena (unsupported, not installed, …). */
  readonly rank?: Rank;
  readonly unavailable?: string;
  /** Cells the provider served (the denominator of every figure in the row). */
  readonly n: number;
  readonly passed: number;
  readonly passRate: number;
  readonly passInterval?: BoardInterval;
  /** Cells the provider failed: their own column, never counted as failures. */
  readonly notServed: number;
  /** Served cells the framework itself errored on. */
  readonly errors: number;
  readonly meanCostUsd?: number;
  /** Mean prompt + completion tokens per served cell. */
  readonly meanTokens?: number;
  readonly meanLatencyS?: number;
  /** Against the baseline; `significant` decides whether the row states it or the detail view holds it. */
  readonly vsBaseline?: BoardPairedTest;
}

export interface ArenaBoard {
  readonly arena: string;
  /** Ranked rows first (best first, ties in the report's framework order), then the frameworks that could not run it. */
  readonly rows: BoardRow[];
}

/** A framework over every arena it was ranked on: the mean of its arena pass rates, and their spread. */
export interface OverallRow {
  readonly series: string;
  /** Absent for a framework ranked on fewer arenas than the most any was: its mean is over other questions. */
  readonly rank?: Rank;
  readonly meanPassRate: number;
  readonly minPassRate: number;
  readonly maxPassRate: number;
  readonly arenas: number;
  /** Arenas where the paired test says it beat, or lost to, the baseline (p below the level). */
  readonly significantlyBetter: number;
  readonly significantlyWorse: number;
}

/** How a framework is drawn in every chart: the same in every report, keyed by the adapter catalogue. */
export interface SeriesStyle {
  readonly series: string;
  /** Its position in the catalogue; frameworks outside it follow the catalogue in name order. */
  readonly index: number;
  readonly colour: string;
  /** One of Plot's symbol names (circle, square, …). */
  readonly symbol: string;
}

export type NoticeKind = "mock" | "mixed" | "provider-faults" | "partial";

export interface Notice {
  readonly kind: NoticeKind;
  readonly text: string;
}

export interface Board {
  readonly significanceLevel: number;
  readonly arenas: ArenaBoard[];
  readonly overall: OverallRow[];
  readonly styles: SeriesStyle[];
  readonly notices: Notice[];
}
