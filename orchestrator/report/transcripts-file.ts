/**
 * The witness's transcripts, one file per lane: `runs/<run>/transcripts/<arena>/<framework>.json`
 * (report/html/transcript.ts is the format). Every request and reply of every leg, as the gateway
 * recorded them, with the system prompts and tools blocks stored once per lane. A resumed run adds
 * its cells to the file the first session wrote.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { writeFileAtomic } from "../files/atomic.ts";
import { inside } from "../files/safe-path.ts";
import type { ItemEvidence } from "../witness/types.ts";
import { compactRequest, LaneTranscriptFileSchema, transcriptKey, type JsonObject, type JsonValue, type LaneTranscriptFile } from "./html/transcript.ts";

export function laneTranscript(arena: string, adapter: string, evidence: readonly ItemEvidence[]): LaneTranscriptFile {
  const blocks: Record<string, JsonValue> = {};
  const items: LaneTranscriptFile["items"] = {};
  for (const seen of evidence) {
    items[transcriptKey(seen.itemId, seen.repeat)] = {
      legs: seen.legs.map((leg) => ({
        exchanges: (leg.exchanges ?? []).map((x) => ({
          request: compactRequest(x.request as JsonObject, blocks),
          reply: { json: (x.reply ?? null) as JsonValue },
          ...(x.usage ? { usage: { ...x.usage } } : {}),
        })),
      })),
    };
  }
  return { format_version: 1, arena, framework: adapter, blocks, items };
}

/** Writes each lane's file, keeping the cells an earlier session of the run already wrote. */
export function writeLaneTranscripts(runDir: string, lanes: readonly LaneTranscriptFile[]): string[] {
  const written: string[] = [];
  for (const lane of lanes) {
    if (Object.keys(lane.items).length === 0) continue;
    const file = inside(runDir, "transcripts", lane.arena, `${lane.framework}.json`);
    const before = existsSync(file) ? LaneTranscriptFileSchema.safeParse(JSON.parse(readFileSync(file, "utf8"))) : undefined;
    const merged: LaneTranscriptFile = before?.success
      ? { ...lane, blocks: { ...before.data.blocks, ...lane.blocks }, items: { ...before.data.items, ...lane.items } }
      : lane;
    writeFileAtomic(file, JSON.stringify(merged) + "\n");
    written.push(path.relative(runDir, file));
  }
  return written;
}
