/**
 * The expectations file and what a run is compared with: the public surface the CLI uses (load,
 * compare, render, update). The parsing, the TOML rewriting and the comparison rules are private.
 */
export {
  DEFAULT_PREAMBLE,
  ExpectationsError,
  itemKey,
  loadExpectations,
  serializeExpectations,
  REASON_PLACEHOLDER,
  unwrittenReasons,
  type ExpectationsProblemKind,
  type ExpectedEntry,
  type Expectations,
  type Mode,
} from "./file.ts";

export { compareWithExpectations, type CompareOptions, type ComparedAdapter, type ComparedItem, type ComparedRecord, type Difference } from "./compare.ts";
export { acceptable, excerpt, renderDiff, renderDifference, type RenderOptions } from "./render.ts";
export { updateExpectations, type ExpectedItem, type UpdateResult } from "./update.ts";
export { loadThresholds, thresholdFor, ThresholdsError, type AppliedThreshold, type ThresholdEntry, type Thresholds, type ThresholdsProblemKind } from "./thresholds.ts";
export { judgeBaseline, judgeThresholds, thresholdText, type ThresholdJudgement, type ThresholdLane } from "./live.ts";
