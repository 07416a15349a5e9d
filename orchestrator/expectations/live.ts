/**
 * How a live run is judged for CI: by a minimum pass rate per arena × framework (thresholds.ts),
 * or against a stored baseline run by `arena compare`'s regression rule (history/compare.ts, used
 * as it is, so `arena compare BASE RUN --alpha P` and `run --baseline BASE --alpha P` agree).
 * The expectations file is not consulted: it lists which items fail under the mock's scripted
 * turns, and a live model's failures vary from run to run.
 */
import { compareRuns, type LaneDiff } from "../history/compare.ts";
import type { RunRecord } from "../report/record.ts";
import type { ComparedRecord } from "./compare.ts";
import { thresholdFor, type ThresholdEntry, type Thresholds } from "./thresholds.ts";

/** States a framework declares about an arena (it cannot, or does not, run it): not judged. */
const DECLARED_UNAVAILABLE = new Set<string>(["unsupported", "stub", "not_installed"]);

export interface ThresholdLane {
  readonly arena: string;
  readonly framework: string;
  readonly passed: number;
  /** Cells counted: the provider's own failures (`infra`) and the harness's (`harness`) are not the framework's. */
  readonly cells: number;
  readonly min: number;
  /** Where `min` came from: `file:line`, `--min-pass-rate`, or the file's top-level default. */
  readonly source: string;
  readonly ok: boolean;
  /** Set when the lane did not run (a build or load failure): it fails its threshold. */
  readonly unavailable?: string;
}

export interface ThresholdJudgement {
  readonly lanes: readonly ThresholdLane[];
  /** Lanes the run had that no threshold covers. */
  readonly unjudged: readonly { arena: string; framework: string }[];
  /** Entries of the file that match no lane of this run (a typo, or an arena not run). */
  readonly unmatched: readonly ThresholdEntry[];
}

const NOT_THE_FRAMEWORKS = new Set(["infra", "harness"]);

/** `records`: run records, or anything shaped like their compared parts (a test's small ones). */
export function judgeThresholds(records: readonly ComparedRecord[], thresholds: Thresholds): ThresholdJudgement {
  const lanes: ThresholdLane[] = [];
  const unjudged: { arena: string; framework: string }[] = [];
  const matched = new Set<ThresholdEntry>();
  for (const record of records) {
    for (const lane of record.frameworks) {
      for (const e of thresholds.entries) if (e.arena === record.arena && (e.framework === undefined || e.framework === lane.framework)) matched.add(e);
      if (!lane.available && lane.unavailable_kind !== undefined && DECLARED_UNAVAILABLE.has(lane.unavailable_kind)) continue;
      const applied = thresholdFor(thresholds, record.arena, lane.framework);
      if (applied === undefined) {
        unjudged.push({ arena: record.arena, framework: lane.framework });
        continue;
      }
      const counted = lane.items.filter((i) => i.error_class === undefined || !NOT_THE_FRAMEWORKS.has(i.error_class));
      const passed = counted.filter((i) => i.passed).length;
      const cells = counted.length;
      // No counted cell is no evidence of passing: the lane fails rather than meets its rate by default.
      const ok = lane.available && cells > 0 && passed / cells >= applied.min;
      lanes.push({
        arena: record.arena,
        framework: lane.framework,
        passed,
        cells,
        min: applied.min,
        source: applied.source,
        ok,
        ...(lane.available ? {} : { unavailable: lane.reason ?? lane.unavailable_kind ?? "not available" }),
      });
    }
  }
  return { lanes, unjudged, unmatched: thresholds.entries.filter((e) => !matched.has(e)) };
}

/** The run (B) against the baseline (A), lane by lane; a lane regresses only on a significant loss at `alpha`. */
export function judgeBaseline(baseline: readonly RunRecord[], run: readonly RunRecord[], alpha: number): LaneDiff[] {
  return compareRuns(baseline, run, { threshold: 0, alpha });
}

/** `7/9 78% ≥ 70%`: a lane against its threshold, as the run prints it. */
export function thresholdText(l: ThresholdLane): string {
  const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;
  if (l.unavailable !== undefined) return `${l.arena}/${l.framework}: did not run (${l.unavailable}), needs ≥ ${pct(l.min)} (${l.source})`;
  const rate = l.cells === 0 ? "no cell counted" : `${l.passed}/${l.cells} ${pct(l.passed / l.cells)}`;
  return `${l.arena}/${l.framework}: ${rate} ${l.ok ? "≥" : "<"} ${pct(l.min)} (${l.source})${l.ok ? "" : " — below its threshold"}`;
}
