/**
 * The item grid: one row per arena × item × repeat, one cell per series. Rows hold only a status
 * and an index; everything shown when an item is opened sits in `details`, which the page parses
 * the first time one is opened (a 10,000-item run should not pay for it at load), and each lane's
 * transcripts in a block of their own, parsed when one of them is expanded.
 */
import { isServed } from "../not-served.ts";
import type { ItemRecord } from "../record.ts";
import type { Lane } from "./tables.ts";
import { transcriptKey, type LaneTranscriptFile } from "./transcript.ts";
import type { ItemCell, ItemDetail, ItemRow, ItemStatus, LaneTranscripts } from "./types.ts";

/** `unserved`: the provider failed the cell (report/not-served.ts), which no figure counts. */
export function itemStatus(item: ItemRecord): ItemStatus {
  if (!isServed(item)) return "unserved";
  return item.error ? "error" : item.passed ? "pass" : "fail";
}

function detailOf(series: string, item: ItemRecord, transcript: ItemDetail["transcript"]): ItemDetail {
  return {
    series,
    checks: item.checks.map((c) => ({ type: c.type, ok: c.ok, detail: c.detail })),
    answer: item.output_text,
    toolCalls: item.tool_calls,
    ...(item.error ? { error: item.error, errorClass: item.error_class ?? "adapter" } : {}),
    violations: (item.violations ?? []).map((v) => ({ rule: v.rule, leg: v.leg, ...(v.request !== undefined ? { request: v.request } : {}), detail: v.detail })),
    promptTokens: item.prompt_tokens,
    completionTokens: item.completion_tokens,
    llmCalls: item.llm_calls,
    latencyS: item.latency_s,
    legs: item.legs?.length ?? 1,
    ...(transcript !== undefined ? { transcript } : {}),
  };
}

export interface ItemGrid {
  readonly items: ItemRow[];
  readonly details: ItemDetail[];
  readonly transcripts: LaneTranscripts[];
}

/**
 * `lanes` in report order (arena, then series); `seriesOrder` fixes the cell positions.
 * `transcriptsFor` finds a lane's transcript file, if the run has one.
 */
export function itemGrid(
  lanes: readonly Lane[],
  seriesOrder: readonly string[],
  transcriptsFor: (lane: Lane) => LaneTranscriptFile | undefined,
): ItemGrid {
  const rows = new Map<string, { arena: string; itemId: string; repeat: number; cells: (ItemCell | null)[] }>();
  const details: ItemDetail[] = [];
  const transcripts: LaneTranscripts[] = [];
  for (const lane of lanes) {
    const column = seriesOrder.indexOf(lane.seriesId);
    const file = transcriptsFor(lane);
    // A series runs each arena once per run, so a lane's file becomes one transcript block.
    let laneIndex = -1;
    for (const item of lane.adapterRecord.items) {
      const key = `${lane.record.arena}/${item.item_id}#${item.repeat}`;
      let row = rows.get(key);
      if (!row) {
        row = { arena: lane.record.arena, itemId: item.item_id, repeat: item.repeat, cells: seriesOrder.map(() => null) };
        rows.set(key, row);
      }
      const tKey = transcriptKey(item.item_id, item.repeat);
      const transcript = file?.items[tKey];
      if (file && transcript) {
        if (laneIndex < 0) laneIndex = transcripts.push({ series: lane.seriesId, arena: lane.record.arena, blocks: file.blocks, items: {} }) - 1;
        transcripts[laneIndex]!.items[tKey] = transcript;
      }
      row.cells[column] = { status: itemStatus(item), violations: item.violations?.length ?? 0, detail: details.length };
      details.push(detailOf(lane.seriesId, item, transcript ? { lane: laneIndex, key: tKey } : undefined));
    }
  }
  const items = [...rows].map(([key, r]) => ({ key, ...r }));
  return { items, details, transcripts };
}
