/**
 * Re-scoring recorded answers with today's checks: every item's `passed` and `checks` come again
 * from the arena's checks over what the record kept (output text, tool call names, the calls
 * before the first pause, the pause count, the error); everything else — tokens, latency, the
 * witness's violations, errors — is what the original run saw. No model call, no worker.
 */
import type { Arena } from "../arena/schemas.ts";
import { HARNESS_VERSION, type ItemRecord, type RunRecord } from "../report/record.ts";
import { createScorer } from "../run/scorer.ts";
import type { ScoreInput } from "../scoring/index.ts";

export interface RescoreChange {
  readonly arena: string;
  readonly framework: string;
  readonly item_id: string;
  readonly repeat: number;
  readonly before: boolean;
  readonly after: boolean;
}

export interface Rescored {
  readonly records: RunRecord[];
  /** Cells whose verdict changed. */
  readonly changes: RescoreChange[];
  /** Recorded items the arena no longer has: kept with their recorded score. */
  readonly missing: { arena: string; item_id: string }[];
}

/** What the scorer read when the item ran, rebuilt from its record (item-record.ts stores these). */
export function scoreInput(item: ItemRecord): ScoreInput {
  return {
    outputText: item.output_text,
    toolNames: item.tool_calls,
    beforeSuspend: item.tool_calls_before_suspend ?? [],
    suspends: item.suspends ?? 0,
    error: item.error,
  };
}

/** The run's per-item deadline for an item the run's scorer sends off this thread (run/scorer.ts). */
const DEADLINE_MS = 2_000;

export async function rescoreRecords(records: readonly RunRecord[], arenas: ReadonlyMap<string, Arena>, runId: string): Promise<Rescored> {
  const scorer = createScorer({ deadlineMs: DEADLINE_MS });
  const changes: RescoreChange[] = [];
  const missing: { arena: string; item_id: string }[] = [];
  try {
    const out: RunRecord[] = [];
    for (const record of records) {
      const items = new Map((arenas.get(record.arena)?.items ?? []).map((i) => [i.id, i]));
      const adapterRecords: RunRecord["frameworks"] = [];
      for (const adapterRecord of record.frameworks) {
        const rescored: ItemRecord[] = [];
        for (const item of adapterRecord.items) {
          const current = items.get(item.item_id);
          if (!current) {
            if (!missing.some((m) => m.arena === record.arena && m.item_id === item.item_id)) missing.push({ arena: record.arena, item_id: item.item_id });
            rescored.push(item);
            continue;
          }
          const result = await scorer.score(current.checks, scoreInput(item));
          if (result.passed !== item.passed) {
            changes.push({ arena: record.arena, framework: adapterRecord.framework, item_id: item.item_id, repeat: item.repeat, before: item.passed, after: result.passed });
          }
          rescored.push({ ...item, passed: result.passed, checks: result.checks });
        }
        adapterRecords.push({ ...adapterRecord, items: rescored });
      }
      out.push({ ...record, run_id: runId, harness_version: HARNESS_VERSION, frameworks: adapterRecords });
    }
    return { records: out, changes, missing };
  } finally {
    await scorer.close();
  }
}
