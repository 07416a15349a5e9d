/**
 * Statistics for scorecards: intervals for pass rates, the paired test between two frameworks,
 * and pass@k / pass^k. Pure functions, no dependencies; "not applicable" is `undefined`.
 */
export { wilsonInterval, type Interval } from "./wilson.ts";
export { exactMcNemar, type McNemarResult } from "./mcnemar.ts";
export {
  pairOutcomes,
  pairedMcNemar,
  type Outcome,
  type OutcomePair,
  type PairedOutcomes,
  type PairedMcNemarResult,
} from "./pairing.ts";
export { bootstrapMeanInterval, type BootstrapOptions, type MeanInterval } from "./bootstrap.ts";
export { passAtK, passHatK, meanPassAtK, meanPassHatK, type ItemCounts } from "./pass-at-k.ts";
export { zForConfidence } from "./normal.ts";
export { itemOutcomes, clusteredPassInterval, type ItemOutcomes, type ClusteredInterval } from "./items.ts";
export { pairedItemTest, type PairedItemResult } from "./item-test.ts";
