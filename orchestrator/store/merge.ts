/**
 * Shard runs put back together (`arena merge`): one record per arena and one transcript per lane,
 * laid out as the unsharded run lays them out — lanes in plan order, cells in dataset order within
 * each repeat, transcript blocks in the order the requests first use them — so the conclude path
 * writes the same scorecards, summary and report from them.
 *
 * The witness's lane rules compare a lane's items with each other (witness/witness.ts), and a
 * shard saw only its part of each lane: their findings are dropped from the shards' cells and the
 * rules are run again here over the whole lane, from the requests the transcripts hold.
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { compactRequest, expandRequest, LaneTranscriptFileSchema, transcriptKey, type JsonValue, type LaneTranscriptFile } from "../report/html/transcript.ts";
import { readRunRecord } from "../report/output.ts";
import type { AdapterRecord, ItemRecord, RunRecord } from "../report/record.ts";
import type { ItemEvidence } from "../witness/types.ts";
import { LANE_RULES, witnessLane } from "../witness/witness.ts";
import { MergeRefusedError } from "./merge-check.ts";

/** One arena of the plan as the unsharded run would lay it out. */
export interface MergeArena {
  readonly id: string;
  /** The items in dataset order, with the input the lane rules look for in other items' requests. */
  readonly items: readonly { readonly id: string; readonly input: string }[];
  /** The adapters planned on it, in plan order. */
  readonly adapters: readonly string[];
}

/** What one shard run wrote, read back. */
export interface ShardContents {
  readonly ref: string;
  readonly records: ReadonlyMap<string, RunRecord>;
  /** By `arena/framework`. */
  readonly transcripts: ReadonlyMap<string, LaneTranscriptFile>;
}

export interface MergedRun {
  readonly records: RunRecord[];
  readonly transcripts: LaneTranscriptFile[];
}

/** A shard's records and transcripts (record read errors name the file, as every reader's do). */
export function readShard(ref: string, dir: string): ShardContents {
  const records = new Map<string, RunRecord>();
  const recordsDir = path.join(dir, "records");
  for (const f of existsSync(recordsDir) ? readdirSync(recordsDir).filter((n) => n.endsWith(".json")).sort() : []) {
    const record = readRunRecord(path.join(recordsDir, f));
    records.set(record.arena, record);
  }
  const transcripts = new Map<string, LaneTranscriptFile>();
  const transcriptsDir = path.join(dir, "transcripts");
  for (const arena of existsSync(transcriptsDir) ? readdirSync(transcriptsDir).sort() : []) {
    for (const f of readdirSync(path.join(transcriptsDir, arena)).filter((n) => n.endsWith(".json")).sort()) {
      const file = path.join(transcriptsDir, arena, f);
      let data: unknown;
      try {
        data = JSON.parse(readFileSync(file, "utf8"));
      } catch (err) {
        throw new MergeRefusedError([`${file}: not valid JSON (${(err as Error).message})`]);
      }
      const parsed = LaneTranscriptFileSchema.safeParse(data);
      if (!parsed.success) throw new MergeRefusedError([`${file}: not a lane transcript (${parsed.error.issues[0]?.message ?? "invalid"})`]);
      transcripts.set(`${parsed.data.arena}/${parsed.data.framework}`, parsed.data);
    }
  }
  return { ref, records, transcripts };
}

const LANE_RULE_IDS: ReadonlySet<string> = new Set(LANE_RULES.map((r) => r.id));
const cellName = (repeat: number, itemId: string) => transcriptKey(itemId, repeat);

/** Every shard's lane of `adapter` on `arena`; refused when they disagree on whether it ran. */
function laneHeader(arena: string, adapter: string, lanes: readonly { ref: string; lane: AdapterRecord }[]): Omit<AdapterRecord, "items"> {
  const [first, ...rest] = lanes;
  if (!first) throw new MergeRefusedError([`${arena}/${adapter}: no shard ran this lane`]);
  for (const other of rest) {
    if (other.lane.available !== first.lane.available || other.lane.lib_version !== first.lane.lib_version) {
      const said = (l: AdapterRecord) => (l.available ? `ran ${l.lib_version}` : `was not available (${l.reason ?? "no reason"})`);
      throw new MergeRefusedError([`${arena}/${adapter}: ${first.ref} ${said(first.lane)} but ${other.ref} ${said(other.lane)} (run that shard again)`]);
    }
  }
  // A lane sealed on one machine and only watched on another is not one lane's record.
  const isolation = (l: AdapterRecord) => (l.isolation ? `${l.isolation.level}, network ${l.isolation.network}` : "no isolation record");
  const differs = rest.find((o) => isolation(o.lane) !== isolation(first.lane));
  if (differs) throw new MergeRefusedError([`${arena}/${adapter}: ${first.ref} ran it ${isolation(first.lane)} but ${differs.ref} ${isolation(differs.lane)} (run every shard with the same sandbox)`]);
  const { items: _items, ...header } = first.lane;
  // What watching saw on any shard's workers belongs to the lane.
  const violations = [...new Set(lanes.flatMap((l) => l.lane.isolation?.violations ?? []))];
  if (header.isolation && violations.length > 0) return { ...header, isolation: { ...header.isolation, violations } };
  return header;
}

/** The lane's transcript in cell order, its blocks stored in the order the requests first use them. */
function mergeTranscripts(arena: string, adapter: string, cells: readonly string[], files: readonly LaneTranscriptFile[]): LaneTranscriptFile | undefined {
  const blocks: Record<string, JsonValue> = {};
  const items: LaneTranscriptFile["items"] = {};
  for (const cell of cells) {
    const file = files.find((f) => f.items[cell] !== undefined);
    if (!file) continue;
    items[cell] = {
      legs: file.items[cell]!.legs.map((leg) => ({
        exchanges: leg.exchanges.map((x) => ({ ...x, request: compactRequest(expandRequest(x.request, file.blocks), blocks) })),
      })),
    };
  }
  if (Object.keys(items).length === 0) return undefined;
  return { format_version: 1, arena, framework: adapter, blocks, items };
}

/**
 * The lane rules over the whole lane, from the transcript's requests: what they find is added to
 * each cell's own violations, as the unsharded run adds it after the cell's own.
 */
function rewitness(arena: MergeArena, transcript: LaneTranscriptFile | undefined, items: ItemRecord[]): ItemRecord[] {
  const stripped = items.map((i): ItemRecord => {
    const own = (i.violations ?? []).filter((v) => !LANE_RULE_IDS.has(v.rule));
    const { violations: _v, ...rest } = i;
    return own.length > 0 ? { ...rest, violations: own } : rest;
  });
  if (!transcript) return stripped;
  const inputs = new Map(arena.items.map((i) => [i.id, i.input]));
  const evidence = stripped
    .filter((i) => transcript.items[cellName(i.repeat, i.item_id)] !== undefined)
    .map((i) => {
      const legs = transcript.items[cellName(i.repeat, i.item_id)]!.legs.map((leg) => ({ requests: leg.exchanges.map((x) => expandRequest(x.request, transcript.blocks)) }));
      // The lane rules read only the item's name, its input and its legs' requests.
      return { itemId: i.item_id, repeat: i.repeat, input: inputs.get(i.item_id) ?? "", legs, passed: i.passed } as unknown as ItemEvidence;
    });
  const found = witnessLane(evidence);
  return stripped.map((i) => {
    const seen = evidence.find((e) => e.itemId === i.item_id && e.repeat === i.repeat);
    const lane = seen ? found.get(seen) : undefined;
    return lane && lane.length > 0 ? { ...i, violations: [...(i.violations ?? []), ...lane] } : i;
  });
}

/**
 * The shards as one run named `runId`, laid out by `plan` with `repeat` repeats. Refused (a
 * {@link MergeRefusedError}) when a planned arena, lane or cell is in no shard.
 */
export function mergeShards(plan: readonly MergeArena[], repeat: number, shards: readonly ShardContents[], runId: string): MergedRun {
  const records: RunRecord[] = [];
  const transcripts: LaneTranscriptFile[] = [];
  const missing: string[] = [];
  for (const arena of plan) {
    const parts = shards.flatMap((s) => (s.records.has(arena.id) ? [{ ref: s.ref, record: s.records.get(arena.id)! }] : []));
    if (parts.length === 0) {
      missing.push(`arena ${arena.id} is in no shard's records`);
      continue;
    }
    const cells = Array.from({ length: repeat }, (_, r) => arena.items.map((item) => ({ repeat: r, itemId: item.id }))).flat();
    const frameworks: AdapterRecord[] = [];
    for (const adapter of arena.adapters) {
      const lanes = parts.flatMap((p) => p.record.frameworks.filter((f) => f.framework === adapter).map((lane) => ({ ref: p.ref, lane })));
      if (lanes.length === 0) {
        missing.push(`${arena.id}/${adapter} is in no shard`);
        continue;
      }
      const header = laneHeader(arena.id, adapter, lanes);
      const byCell = new Map(lanes.flatMap((l) => l.lane.items.map((i) => [cellName(i.repeat, i.item_id), i] as const)));
      const items: ItemRecord[] = [];
      if (header.available) {
        for (const c of cells) {
          const item = byCell.get(cellName(c.repeat, c.itemId));
          if (item) items.push(item);
          else missing.push(`${arena.id}/${adapter} ${c.itemId} repeat ${c.repeat} is in no shard`);
        }
      }
      const files = shards.flatMap((s) => s.transcripts.get(`${arena.id}/${adapter}`) ?? []);
      const transcript = mergeTranscripts(arena.id, adapter, cells.map((c) => cellName(c.repeat, c.itemId)), files);
      if (transcript) transcripts.push(transcript);
      frameworks.push({ ...header, items: rewitness(arena, transcript, items) } as AdapterRecord);
    }
    const first = parts[0]!.record;
    records.push({
      ...first,
      run_id: runId,
      status: parts.every((p) => p.record.status === "complete") ? "complete" : "interrupted",
      // The shards ran side by side: the arena began with the first and took as long as the longest.
      started_at: parts.map((p) => p.record.started_at).sort()[0]!,
      duration_s: Math.max(...parts.map((p) => p.record.duration_s)),
      frameworks,
    });
  }
  if (missing.length > 0) throw new MergeRefusedError(missing.length > 5 ? [...missing.slice(0, 5), `and ${missing.length - 5} more`] : missing);
  return { records, transcripts };
}
