/**
 * What a live run's exit code is judged by — thresholds (`--min-pass-rate`, `--thresholds`), a
 * baseline run (`--baseline RUN --alpha P`), both, or nothing — checked before the first item,
 * and applied once the run is written. A mock run keeps its expectations file (run-conclude.ts),
 * which pins the scripted wiring; those flags are refused there, and the expectations flags are
 * refused on a live run, `--update-expected` above all: it would record a nondeterministic
 * model's failures as if they were the mock's.
 */
import { judgeBaseline, judgeThresholds, loadThresholds, thresholdText, ThresholdsError, type Thresholds } from "../expectations/index.ts";
import { parseDecimal } from "../config/values.ts";
import { rateText } from "../history/compare.ts";
import { loadRun, resolveRun } from "../history/runs.ts";
import type { RunRecord } from "../report/record.ts";
import type { OutputRoots } from "../store/layout.ts";
import { UsageError, type FlagValue, type Io } from "./command.ts";
import { EXIT_DIFFERENCE, EXIT_OK } from "./exit-codes.ts";

/** With `--baseline` and no `--alpha`: a loss must be significant at 5% (a live model varies; one lost cell is noise). */
export const DEFAULT_BASELINE_ALPHA = 0.05;

export interface LiveJudgement {
  readonly thresholds?: Thresholds;
  readonly baseline?: { readonly runId: string; readonly records: readonly RunRecord[]; readonly alpha: number };
}

const LIVE_FLAGS = ["min-pass-rate", "thresholds", "baseline", "alpha"] as const;
const JUDGE_HINT = "judge a live run with --min-pass-rate P, --thresholds FILE or --baseline RUN";

/**
 * The judgement a run asked for, or a UsageError (exit 2, before anything runs). `runId` is the
 * run's own id: a run is not its own baseline.
 */
export function planJudgement(
  flags: Readonly<Record<string, FlagValue>>,
  mode: "mock" | "live",
  where: { readonly roots: OutputRoots; readonly cwd: string; readonly runId: string },
  warn: (line: string) => void,
): LiveJudgement | undefined {
  if (mode === "mock") {
    const given = LIVE_FLAGS.find((f) => flags[f] !== undefined);
    if (given) throw new UsageError(`--${given} judges a live run; a mock run is judged by the expectations file (--expectations)`);
    return undefined;
  }
  if (flags["update-expected"] === true) {
    throw new UsageError(
      `refusing --update-expected on a live run: the expectations file pins the mock's wiring, and a live model's failures differ from run to run (${JUDGE_HINT})`,
    );
  }
  if (flags.expectations !== undefined) throw new UsageError(`--expectations judges a mock run; ${JUDGE_HINT}`);
  if (flags.strict === true) throw new UsageError(`--strict judges a mock run against its expectations; for a live run every item passing is --min-pass-rate 1`);
  if (flags.alpha !== undefined && flags.baseline === undefined) throw new UsageError("--alpha needs --baseline RUN (the run to compare with)");

  const flag = flags["min-pass-rate"] === undefined ? undefined : parseDecimal(String(flags["min-pass-rate"]), "--min-pass-rate", { min: 0, max: 1 });
  let thresholds: Thresholds | undefined;
  if (flag !== undefined || typeof flags.thresholds === "string") {
    try {
      thresholds = loadThresholds(typeof flags.thresholds === "string" ? flags.thresholds : undefined, flag, { cwd: where.cwd });
    } catch (err) {
      if (err instanceof ThresholdsError) throw new UsageError(err.message);
      throw err;
    }
  }
  let baseline: LiveJudgement["baseline"];
  if (typeof flags.baseline === "string") {
    const alpha = flags.alpha === undefined ? DEFAULT_BASELINE_ALPHA : parseDecimal(String(flags.alpha), "--alpha", { min: 0, max: 1, exclusiveMin: true });
    const stored = loadRun(resolveRun(where.roots, flags.baseline, where.cwd));
    const id = stored.layout.runId;
    if (id === where.runId) throw new UsageError(`--baseline ${flags.baseline}: that is this run (${id}); name an earlier run`);
    if (stored.manifest.mode !== "live") throw new UsageError(`--baseline ${flags.baseline}: ${id} is a ${stored.manifest.mode} run; a live run is compared with a live run`);
    if (stored.records.length === 0) throw new UsageError(`--baseline ${flags.baseline}: ${id} has no records to compare with`);
    if (stored.records.some((r) => r.status !== "complete")) warn(`--baseline ${id} is not complete: only its finished cells are compared`);
    baseline = { runId: id, records: stored.records, alpha };
  }
  return { ...(thresholds ? { thresholds } : {}), ...(baseline ? { baseline } : {}) };
}

const pct = (x: number) => `${Math.round(x * 1000) / 10}%`;

/**
 * Applies the judgement to the run's records: prints a line per judged lane (stdout) and returns
 * the verdict for the run's last line, which always names the judgement, and the exit code.
 */
export function judgeLive(judgement: LiveJudgement, records: readonly RunRecord[], io: Io): { verdict: string; code: number } {
  const parts: string[] = [];
  let code = EXIT_OK;
  if (judgement.thresholds) {
    const t = judgeThresholds(records, judgement.thresholds);
    for (const e of t.unmatched) io.stderr(`warning: ${judgement.thresholds.file}:${e.line}: ${e.field}: matches no arena × framework of this run\n`);
    if (t.unjudged.length > 0) {
      io.stderr(`warning: no threshold for ${t.unjudged.map((l) => `${l.arena}/${l.framework}`).join(", ")}: not judged\n`);
    }
    for (const lane of t.lanes) io.stdout(`${thresholdText(lane)}\n`);
    const below = t.lanes.filter((l) => !l.ok);
    // A file none of whose entries met a lane of the run gates nothing: that fails, rather than passes unseen.
    if (below.length > 0 || t.lanes.length === 0) code = EXIT_DIFFERENCE;
    const first = below[0];
    parts.push(
      t.lanes.length === 0
        ? "no lane of this run has a threshold, so none was judged"
        : first === undefined
          ? `all ${t.lanes.length} lane(s) at or above their minimum pass rate`
          : `${below.length} of ${t.lanes.length} lane(s) below their minimum pass rate (first: ${first.arena}/${first.framework} ${first.cells === 0 ? "no cell" : pct(first.passed / first.cells)} < ${pct(first.min)})`,
    );
  }
  if (judgement.baseline) {
    const { runId, alpha } = judgement.baseline;
    const diffs = judgeBaseline(judgement.baseline.records, records, alpha);
    for (const d of diffs) {
      if (d.a === undefined || d.b === undefined) continue;
      const verdict = d.regression ? "REGRESSION" : d.lost.length > 0 ? "lost (not significant)" : d.gained.length > 0 ? "improved" : "same";
      io.stdout(`baseline ${d.arena}/${d.framework}: ${rateText(d.a, d.intervals.a)} → ${rateText(d.b, d.intervals.b)}, lost ${d.lost.length}, gained ${d.gained.length}, p ${d.pValue.toFixed(3)}: ${verdict}\n`);
    }
    const regressed = diffs.filter((d) => d.regression);
    if (regressed.length > 0) code = EXIT_DIFFERENCE;
    parts.push(
      regressed.length === 0
        ? `no regression from baseline ${runId} (--alpha ${alpha})`
        : `${regressed.length} regression(s) from baseline ${runId} (--alpha ${alpha}): ${regressed.map((d) => `${d.arena}/${d.framework}`).join(", ")}`,
    );
  }
  // The witness's findings are in the records and scorecards either way; a live run's exit does not
  // rest on them (which rules a model's turns make a framework break varies like its answers; the
  // mock run, with the same turns for everyone, is where a rule is held to), but they are said.
  const violations = records.flatMap((r) => r.frameworks.flatMap((f) => f.items.flatMap((i) => (i.violations ?? []).map((v) => `${r.arena}/${f.framework}/${i.item_id} ${v.rule}`))));
  const seen = violations.length > 0 ? `; ${violations.length} rule violation(s) recorded, not judged in a live run (first: ${violations[0]})` : "";
  if (parts.length === 0) {
    return { verdict: `live run not judged (the expectations file pins the mock's wiring only; ${JUDGE_HINT})${seen}`, code: EXIT_OK };
  }
  return { verdict: `judged by ${[judgement.thresholds ? "thresholds" : "", judgement.baseline ? "baseline" : ""].filter(Boolean).join(" and ")}: ${parts.join("; ")}${seen}`, code };
}
