/**
 * What the HTML report is drawn from: plain JSON (no Map, no bigint, no undefined inside arrays),
 * because it is embedded in the page and read back by the browser with JSON.parse. The client
 * script only reads this; every figure is computed here, once, in Node, where it can be tested.
 */
import type { ErrorClass } from "../../run/error-class.ts";
import type { ItemOutcomes } from "../../stats/index.ts";
import type { ItemDetail, ItemRow } from "./item-types.ts";
import type { CompactTranscript, TranscriptBlocks } from "./transcript.ts";
import type { Board } from "./board-types.ts";
import type { RunComparison } from "./compare-types.ts";

export interface Interval {
  readonly low: number;
  readonly high: number;
}

/**
 * The statistics the report can show but does not compute itself (orchestrator/stats/ does):
 * passed in, so the data stays testable without them and the wiring is one argument. Pass rates
 * and the paired test take items, not cells: each item's repeats are folded into one
 * {@link ItemOutcomes} first, since the repeats of an item are not independent samples.
 */
export interface ReportStatistics {
  /** A 95% interval for the pass rate over items (the mean of their pass fractions). */
  clusteredPassInterval(items: readonly ItemOutcomes[]): Interval | undefined;
  bootstrapMeanInterval(values: readonly number[], options: { seed: number }): { mean: number; low: number; high: number } | undefined;
  /** The paired test over the items both lanes ran; `better` counts items whose pass fraction is higher in the first. */
  pairedItemTest?(first: readonly ItemOutcomes[], second: readonly ItemOutcomes[]): { better: number; worse: number; tied: number; paired: number; pValue: number };
}

/** A lane against the baseline on the same run and arena, item by item (an item's repeats one unit). */
export interface PairedComparison {
  /** Items whose pass fraction is higher in this lane than in the baseline. */
  readonly better: number;
  /** Items whose pass fraction is lower in this lane than in the baseline. */
  readonly worse: number;
  /** Items both ran with equal pass fractions. */
  readonly tied: number;
  /** Items both ran. */
  readonly paired: number;
  /** Two-sided, the sign-flip test on per-item differences (exact McNemar on items when every fraction is 0 or 1). */
  readonly pValue: number;
  /** Cell pairs (same item, same repeat) left out because the provider failed either side. */
  readonly dropped: number;
}

export interface Metric {
  readonly mean: number;
  readonly n: number;
  readonly meanInterval?: Interval;
}

export const METRICS = ["promptTokens", "completionTokens", "llmCalls", "latencyS", "costUsd"] as const;
export type MetricName = (typeof METRICS)[number];

/** One run's provenance: a combined report lists several. */
export interface RunInfo {
  readonly runId: string;
  /** Short label used where a combined report must tell lanes of different runs apart. */
  readonly label: string;
  readonly createdAt: string;
  readonly mode: "mock" | "live";
  readonly models: string[];
  readonly command?: string;
  readonly argv?: string[];
  readonly gitSha?: string;
  readonly harnessVersion: string;
  readonly node: string;
  readonly platform: string;
  readonly statuses: Record<string, "complete" | "interrupted">;
  readonly sessions: number;
  readonly pricing?: { readonly inputPerM: number; readonly outputPerM: number };
}

/** A column of the report: one framework in one run (a single-run report has one per framework). */
export interface Series {
  readonly id: string;
  readonly framework: string;
  readonly runId: string;
  readonly label: string;
  readonly variant: boolean;
  readonly libVersions: string[];
  /** Its declared departures from the witness's exact rules, as its lanes recorded them (deduplicated). */
  readonly declarations: DeclaredDeparture[];
}

export interface DeclaredDeparture {
  readonly kind: string;
  readonly what: string;
  readonly why: string;
}

export interface ArenaInfo {
  readonly id: string;
  readonly description: string;
  readonly datasetSize: number;
}

export interface Isolation {
  readonly level: "sandbox" | "watched";
  readonly network: "sealed" | "shared";
  readonly tool: string;
  readonly violations: string[];
}

/** Series × arena: the overview cell and the chart figures. */
export interface Cell {
  readonly series: string;
  readonly arena: string;
  readonly available: boolean;
  /** unsupported, stub, not_installed, load_failed, build_failed (when not available). */
  readonly unavailable?: string;
  readonly reason?: string;
  readonly n: number;
  readonly passed: number;
  readonly passRate: number;
  readonly passInterval?: Interval;
  /** Against the baseline lane of the same run and arena (absent on the baseline, or without one). */
  readonly vsBaseline?: PairedComparison;
  readonly errors: number;
  readonly errorsByClass: Partial<Record<ErrorClass, number>>;
  /** Cells the provider failed: in none of this cell's figures (`n` excludes them), by cause. */
  readonly notServed: number;
  readonly notServedByCause: Record<string, number>;
  /** Items with at least one broken rule, and per rule the items that broke it. */
  readonly violationItems: number;
  readonly violationsByRule: Record<string, number>;
  readonly metrics: Partial<Record<MetricName, Metric>>;
  /** Mean prompt tokens over the baseline's on the same arena and run (absent without one). */
  readonly promptOverhead?: number;
  readonly latencySamples: number[];
  readonly isolation?: Isolation;
}

/** Σ of a series' mean prompt tokens over Σ of the baseline's, on the arenas both ran. */
export interface OverheadRow {
  readonly series: string;
  readonly ratio: number;
  readonly arenas: number;
}

export interface ResilienceRow {
  readonly series: string;
  readonly recovered: number;
  readonly n: number;
  readonly failedItems: string[];
  readonly erroredItems: string[];
  readonly violationItems: number;
}

export interface PauseRow {
  readonly series: string;
  readonly arena: string;
  readonly kind: "pause" | "durable";
  readonly n: number;
  /** Items that paused at least once, and those of them that passed. */
  readonly paused: number;
  readonly pausedAndPassed: number;
  readonly meanLegs: number;
  readonly meanResumeStateBytes?: number;
  readonly maxResumeStateBytes?: number;
  /** Mean prompt tokens per leg position: a resumed leg that re-sends everything shows here. */
  readonly legPromptTokens: number[];
}

export type { GroupStatus, ItemDetail, ItemGroup, ItemRow, ItemStatus, RepeatCell } from "./item-types.ts";

/** One framework's transcripts on one arena: the unit the page parses when one is opened. */
export interface LaneTranscripts {
  readonly series: string;
  readonly arena: string;
  readonly blocks: TranscriptBlocks;
  readonly items: Record<string, CompactTranscript>;
}

export interface ReportData {
  readonly formatVersion: 1;
  readonly generatedAt: string;
  readonly mode: "mock" | "live" | "mixed";
  readonly baseline: string;
  readonly runs: RunInfo[];
  readonly series: Series[];
  readonly arenas: ArenaInfo[];
  readonly cells: Cell[];
  readonly overhead: OverheadRow[];
  readonly resilience: ResilienceRow[];
  readonly pause: PauseRow[];
  readonly items: ItemRow[];
  readonly details: ItemDetail[];
  /** The first screen: leaderboards, the overall row, each framework's colour and symbol, the banner (leaderboard.ts). */
  readonly board: Board;
  /** Each in its own JSON block in the page, parsed only when one of its items' transcript is opened. */
  readonly transcripts: LaneTranscripts[];
  /** A combined report's run-vs-run view (html/compare.ts): consecutive runs, item by item; absent for one run. */
  readonly comparisons?: RunComparison[];
}
