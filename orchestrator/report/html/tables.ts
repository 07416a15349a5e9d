/**
 * The tables that compare frameworks even in mock mode (resilience, prompt overhead) and the
 * pause/durable table. A lane is one framework's record on one arena in one run.
 */
import type { AdapterRecord, RunRecord } from "../record.ts";
import { mean, meanPrompt } from "./metrics.ts";
import type { OverheadRow, PauseRow, ResilienceRow } from "./types.ts";

export interface Lane {
  readonly seriesId: string;
  readonly runId: string;
  readonly record: RunRecord;
  readonly adapterRecord: AdapterRecord;
}

export const RESILIENCE_ARENA = "resilience";
/** Arenas built around a pause; any other arena whose items record suspends counts too. */
export const PAUSE_ARENAS = ["human_in_the_loop", "durable_state"];
/** Pause arenas where the runner is thrown away at the pause: the resume runs in a fresh process. */
export const DURABLE_ARENAS = ["durable_state"];

export function resilienceRows(lanes: readonly Lane[]): ResilienceRow[] {
  return lanes
    .filter((l) => l.record.arena === RESILIENCE_ARENA && l.adapterRecord.available)
    .map((l) => ({
      series: l.seriesId,
      recovered: l.adapterRecord.items.filter((i) => i.passed).length,
      n: l.adapterRecord.items.length,
      failedItems: l.adapterRecord.items.filter((i) => !i.passed && !i.error).map((i) => i.item_id),
      erroredItems: l.adapterRecord.items.filter((i) => i.error).map((i) => i.item_id),
      violationItems: l.adapterRecord.items.filter((i) => (i.violations?.length ?? 0) > 0).length,
    }));
}

function isPauseLane(l: Lane): boolean {
  return PAUSE_ARENAS.includes(l.record.arena) || l.adapterRecord.items.some((i) => i.suspends !== undefined);
}

export function pauseRows(lanes: readonly Lane[]): PauseRow[] {
  const rows: PauseRow[] = [];
  for (const l of lanes) {
    if (!l.adapterRecord.available || !isPauseLane(l)) continue;
    const items = l.adapterRecord.items;
    const paused = items.filter((i) => (i.suspends ?? 0) > 0);
    const stateBytes = items.flatMap((i) => (i.legs ?? []).flatMap((leg) => (leg.resume_state_bytes === undefined ? [] : [leg.resume_state_bytes])));
    const positions = Math.max(0, ...items.map((i) => i.legs?.length ?? 0));
    const legPromptTokens: number[] = [];
    for (let p = 0; p < positions; p++) {
      legPromptTokens.push(mean(items.flatMap((i) => (i.legs && i.legs[p] ? [i.legs[p]!.prompt_tokens] : []))));
    }
    rows.push({
      series: l.seriesId,
      arena: l.record.arena,
      kind: DURABLE_ARENAS.includes(l.record.arena) ? "durable" : "pause",
      n: items.length,
      paused: paused.length,
      pausedAndPassed: paused.filter((i) => i.passed).length,
      meanLegs: mean(items.map((i) => i.legs?.length ?? 1)),
      ...(stateBytes.length > 0 ? { meanResumeStateBytes: mean(stateBytes), maxResumeStateBytes: Math.max(...stateBytes) } : {}),
      legPromptTokens,
    });
  }
  return rows;
}

/** The baseline's lane on the same arena in the same run, when it ran there. */
export function baselineLane(lanes: readonly Lane[], lane: Lane, baseline: string): Lane | undefined {
  return lanes.find((l) => l.runId === lane.runId && l.record.arena === lane.record.arena && l.adapterRecord.framework === baseline);
}

export function promptOverhead(lanes: readonly Lane[], lane: Lane, baseline: string): number | undefined {
  const own = meanPrompt(lane.adapterRecord);
  const base = meanPrompt(baselineLane(lanes, lane, baseline)?.adapterRecord);
  return own === undefined || base === undefined || base === 0 ? undefined : own / base;
}

/** As the summary's "vs vanilla" column: Σ own means / Σ baseline means over the arenas both ran. */
export function overheadRows(lanes: readonly Lane[], seriesOrder: readonly string[], baseline: string): OverheadRow[] {
  const rows: OverheadRow[] = [];
  for (const series of seriesOrder) {
    let own = 0;
    let base = 0;
    let arenas = 0;
    for (const lane of lanes.filter((l) => l.seriesId === series)) {
      const a = meanPrompt(lane.adapterRecord);
      const b = meanPrompt(baselineLane(lanes, lane, baseline)?.adapterRecord);
      if (a === undefined || b === undefined) continue;
      own += a;
      base += b;
      arenas++;
    }
    if (base > 0) rows.push({ series, ratio: own / base, arenas });
  }
  return rows;
}
