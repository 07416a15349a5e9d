/**
 * The item table: one row per arena × item, one group per series holding the item's repeats.
 * Rows hold what the table prints and counts; everything shown when an item is opened sits in
 * `details`, which the page parses the first time one is opened (a 10,000-item run should not pay
 * for it at load), and each lane's transcripts in a block of their own, parsed when an item of
 * that lane is opened.
 */
import { clipOneLine } from "../clip.ts";
import { isServed } from "../not-served.ts";
import { providerFaultCause } from "../not-served.ts";
import type { ItemRecord } from "../record.ts";
import { cellCause, groupViolations } from "./cause.ts";
import { expectedText } from "./expected.ts";
import type { GroupStatus, ItemDetail, ItemGroup, ItemRow, ItemStatus, RepeatCell } from "./item-types.ts";
import type { Lane } from "./tables.ts";
import { transcriptKey, type CompactTranscript, type LaneTranscriptFile } from "./transcript.ts";
import type { LaneTranscripts } from "./types.ts";

/** Enough of an answer to recognise it in a table cell. */
const ANSWER_CHARS = 120;
/** The question in a row; the dataset's full text is in the item view. */
const INPUT_CHARS = 400;

export function itemStatus(item: ItemRecord): ItemStatus {
  if (!isServed(item)) return "unserved";
  return item.error ? "error" : item.passed ? "pass" : "fail";
}

function detailOf(series: string, item: ItemRecord, transcript: ItemDetail["transcript"]): ItemDetail {
  const served = isServed(item);
  return {
    series,
    repeat: item.repeat + 1,
    status: itemStatus(item),
    cause: cellCause(item),
    checksRan: !item.error,
    checks: item.checks.map((c) => ({ type: c.type, ok: c.ok, detail: c.detail })),
    answer: item.output_text,
    toolCalls: item.tool_calls,
    ...(item.error ? { error: item.error, errorClass: item.error_class ?? "adapter" } : {}),
    ...(served ? {} : { notServed: { cause: providerFaultCause(item), faults: (item.provider_faults ?? []).map((f) => ({ leg: f.leg, fault: f.fault, status: f.status })) } }),
    ...(item.retries ? { retries: item.retries } : {}),
    violations: groupViolations(item.violations ?? []),
    waived: item.waived_violations?.length ?? 0,
    promptTokens: item.prompt_tokens,
    completionTokens: item.completion_tokens,
    llmCalls: item.llm_calls,
    latencyS: item.latency_s,
    legs: item.legs?.length ?? 1,
    ...(transcript !== undefined ? { transcript } : {}),
  };
}

function repeatCell(item: ItemRecord, detail: number): RepeatCell {
  const status = itemStatus(item);
  // As the scorecards count them: rules only on a served cell, each rule once per cell.
  const rules = status === "unserved" ? [] : [...new Set((item.violations ?? []).map((v) => v.rule))];
  return {
    repeat: item.repeat + 1,
    status,
    ...(item.error ? { errorClass: item.error_class ?? "adapter" } : {}),
    ...(rules.length > 0 ? { rules } : {}),
    detail,
  };
}

function groupStatus(repeats: readonly RepeatCell[], passes: number, runs: number): GroupStatus {
  if (runs === 0) return "unserved";
  if (passes === runs) return "pass";
  if (passes > 0) return "partial";
  return repeats.some((r) => r.status === "error") ? "error" : "fail";
}

/** `items`: one series' repeats of one item, in repeat order; `details` indexes parallel to them. */
export function itemGroup(items: readonly ItemRecord[], details: readonly number[]): ItemGroup {
  const repeats = items.map((item, i) => repeatCell(item, details[i]!));
  const served = items.filter(isServed);
  const passes = served.filter((i) => i.passed).length;
  const shownIndex = Math.max(0, items.findIndex((i) => !i.passed));
  const shown = items[shownIndex]!;
  return {
    status: groupStatus(repeats, passes, served.length),
    passes,
    runs: served.length,
    notServed: items.length - served.length,
    violations: served.reduce((n, i) => n + groupViolations(i.violations ?? []).length, 0),
    shown: shown.repeat + 1,
    answer: clipOneLine(shown.output_text, ANSWER_CHARS),
    cause: cellCause(shown),
    repeats,
  };
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) return content.map((p: unknown) => (p && typeof p === "object" && typeof (p as { text?: unknown }).text === "string" ? (p as { text: string }).text : "")).join("\n");
  return "";
}

/** The first user message the item's first request sent: the question, when no dataset is at hand. */
export function firstUserText(transcript: CompactTranscript | undefined): string {
  const messages = transcript?.legs[0]?.exchanges[0]?.request.body.messages;
  if (!Array.isArray(messages)) return "";
  const user = messages.find((m) => m !== null && typeof m === "object" && !Array.isArray(m) && m.role === "user");
  return user && typeof user === "object" && !Array.isArray(user) ? contentText(user.content) : "";
}

export interface ItemTable {
  readonly items: ItemRow[];
  readonly details: ItemDetail[];
  readonly transcripts: LaneTranscripts[];
}

interface RowDraft {
  arena: string;
  itemId: string;
  input: string;
  expected: string;
  cells: (ItemGroup | null)[];
}

/**
 * `lanes` in report order (arena, then series); `seriesOrder` fixes the cell positions.
 * `transcriptsFor` finds a lane's transcript file, `inputsFor` its arena's questions by item id
 * (from the run's dataset), if the run has them.
 */
export function itemTable(
  lanes: readonly Lane[],
  seriesOrder: readonly string[],
  transcriptsFor: (lane: Lane) => LaneTranscriptFile | undefined,
  inputsFor: (lane: Lane) => Readonly<Record<string, string>> | undefined = () => undefined,
): ItemTable {
  const rows = new Map<string, RowDraft>();
  const details: ItemDetail[] = [];
  const transcripts: LaneTranscripts[] = [];
  for (const lane of lanes) {
    const column = seriesOrder.indexOf(lane.seriesId);
    const file = transcriptsFor(lane);
    const inputs = inputsFor(lane);
    // A series runs each arena once per run, so a lane's file becomes one transcript block.
    let laneIndex = -1;
    const byItem = new Map<string, ItemRecord[]>();
    for (const item of lane.adapterRecord.items) byItem.set(item.item_id, [...(byItem.get(item.item_id) ?? []), item]);
    for (const [itemId, unordered] of byItem) {
      const items = [...unordered].sort((a, b) => a.repeat - b.repeat);
      const key = `${lane.record.arena}/${itemId}`;
      let row = rows.get(key);
      if (!row) {
        row = { arena: lane.record.arena, itemId, input: "", expected: "", cells: seriesOrder.map(() => null) };
        rows.set(key, row);
      }
      if (row.input === "") row.input = clipOneLine(inputs?.[itemId] ?? firstUserText(file?.items[transcriptKey(itemId, items[0]!.repeat)]), INPUT_CHARS);
      // An errored item may carry no checks; any lane that scored it has them.
      const checks = items.find((i) => i.checks.length > 0)?.checks;
      if (row.expected === "" && checks) row.expected = expectedText(checks);
      const indexes = items.map((item) => {
        const tKey = transcriptKey(item.item_id, item.repeat);
        const transcript = file?.items[tKey];
        if (file && transcript) {
          if (laneIndex < 0) laneIndex = transcripts.push({ series: lane.seriesId, arena: lane.record.arena, blocks: file.blocks, items: {} }) - 1;
          transcripts[laneIndex]!.items[tKey] = transcript;
        }
        return details.push(detailOf(lane.seriesId, item, transcript ? { lane: laneIndex, key: tKey } : undefined)) - 1;
      });
      row.cells[column] = itemGroup(items, indexes);
    }
  }
  const items = [...rows].map(([key, r]) => ({ key, ...r }));
  return { items, details, transcripts };
}
