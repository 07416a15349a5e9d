/**
 * The report's run-vs-run view (html/compare.ts builds it; client/compare.js draws it): plain JSON,
 * like the rest of the report's data. One comparison per pair of consecutive runs (R1 → R2, R2 → R3),
 * A the earlier-named run (the baseline), B the later (the candidate).
 */
import type { ItemChange } from "../../history/item-diff.ts";
import type { Delta, DeltaMetric } from "../../history/paired-items.ts";

/** One side of a comparison: which run, and whether it was mock or live (each run keeps its own). */
export interface ComparedRun {
  readonly runId: string;
  /** `R1`, `R2`…: the label the combined report gives the run. */
  readonly label: string;
  readonly mode: "mock" | "live";
}

export interface ComparedItem {
  readonly itemId: string;
  readonly change: ItemChange;
  /** Passes over the cells compared; absent where the item did not run on that side. */
  readonly a?: { readonly passes: number; readonly runs: number };
  readonly b?: { readonly passes: number; readonly runs: number };
  /** The item view's link in each run: `#arena/item/series/repeat` (its first repeat, 1-based), each part URI-encoded. */
  readonly linkA?: string;
  readonly linkB?: string;
}

/** One arena × framework cell across the two runs. */
export interface ComparedLane {
  readonly arena: string;
  readonly framework: string;
  /** The report's column id of this framework in each run (`R1/vanilla`); absent where that run lacks the lane. */
  readonly seriesA?: string;
  readonly seriesB?: string;
  readonly changes: Record<ItemChange, number>;
  /** The paired test over items both runs served: `better` counts items whose pass fraction fell (A above B). */
  readonly test: { readonly better: number; readonly worse: number; readonly tied: number; readonly paired: number; readonly pValue: number };
  /** Cell pairs left out because the provider failed either side. */
  readonly dropped: number;
  readonly deltas: Partial<Record<DeltaMetric, Delta>>;
  readonly items: ComparedItem[];
}

export interface RunComparison {
  readonly a: ComparedRun;
  readonly b: ComparedRun;
  readonly lanes: ComparedLane[];
}
