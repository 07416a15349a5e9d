/**
 * Publishing a live run to `results/<arena>/` without publishing over good results.
 *
 * `results/` holds one scorecard per arena with one row per framework, so the unit published is
 * that row — a lane (arena × framework), not a single item: a row's figures come from one run's
 * cells, and mixing items of two runs into one pass rate would measure neither run. The rule, by
 * how much of the lane the provider served (report/not-served.ts):
 *
 * - a lane the provider served entirely replaces whatever row was published;
 * - a lane it served in part replaces only a row that was itself served in part, or none;
 * - a lane it served on no cell is never published;
 *
 * and a row that stays names the later run that was not published over it, and why. Rows of
 * frameworks the run did not include stay as they were. Beside the scorecards, `published.json`
 * keeps the merged record (every row's items and its run), which the next publish reads.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { writeFileAtomic } from "../files/atomic.ts";
import { causesText, laneServedness, unservedCauses, unservedItems, type Servedness } from "./not-served.ts";
import { RunRecordSchema, type AdapterRecord, type RunRecord } from "./record.ts";
import { PublishedSourceSchema, type PublishedSource } from "./scorecard-schema.ts";

export const PublishedFileSchema = z.object({
  schema: z.literal(1),
  /** The newest run a row came from, with every published lane (kept ones included) as its frameworks. */
  record: RunRecordSchema,
  sources: z.array(PublishedSourceSchema),
});
export type PublishedFile = z.infer<typeof PublishedFileSchema>;

export const PUBLISHED_FILE = "published.json";

const RANK: Record<Servedness, number> = { all: 2, some: 1, none: 0 };

/** Whether `next` may replace `published` (absent: nothing to protect). */
export function replacesPublished(next: AdapterRecord, published: AdapterRecord | undefined): boolean {
  return replacesServed(laneServedness(next), published === undefined ? undefined : laneServedness(published));
}

/** The same rule on how much of each lane the provider served (report/record-index.ts keeps that alone). */
export function replacesServed(next: Servedness, published: Servedness | undefined): boolean {
  const rank = RANK[next];
  if (rank === 0) return false;
  return published === undefined || rank >= RANK[published];
}

export interface PublishOutcome {
  /** What to write; undefined when nothing of the run may be published and nothing was there. */
  readonly file?: PublishedFile;
  readonly replaced: readonly string[];
  /** Lanes of this run that were not published, with why (and the run whose row stayed, if any). */
  readonly kept: readonly { framework: string; reason: string; keptRun?: string }[];
}

/** `18 of 18 cells not served by the provider: 18× 503` */
function keptReason(lane: AdapterRecord): string {
  return `${unservedItems(lane.items).length} of ${lane.items.length} cells not served by the provider: ${causesText(unservedCauses(lane.items))}`;
}

/** Pure: the previous published file and a live run's record of the same arena → the new file. */
export function mergePublished(previous: PublishedFile | undefined, record: RunRecord): PublishOutcome {
  const lanes: AdapterRecord[] = [];
  const sources: PublishedSource[] = [];
  const replaced: string[] = [];
  const kept: { framework: string; reason: string; keptRun?: string }[] = [];
  const before = (framework: string) => {
    const i = previous?.record.frameworks.findIndex((f) => f.framework === framework) ?? -1;
    return i < 0 ? undefined : { lane: previous!.record.frameworks[i]!, source: previous!.sources.find((s) => s.framework === framework) };
  };
  for (const lane of record.frameworks) {
    const old = before(lane.framework);
    if (replacesPublished(lane, old?.lane)) {
      lanes.push(lane);
      sources.push({ framework: lane.framework, run_id: record.run_id, started_at: record.started_at });
      replaced.push(lane.framework);
      continue;
    }
    const reason = keptReason(lane);
    kept.push({ framework: lane.framework, reason, ...(old?.source ? { keptRun: old.source.run_id } : {}) });
    if (!old) continue;
    lanes.push(old.lane);
    sources.push({ ...(old.source ?? { framework: lane.framework, run_id: previous!.record.run_id, started_at: previous!.record.started_at }), kept_over: { run_id: record.run_id, reason } });
  }
  for (const old of previous?.record.frameworks ?? []) {
    if (record.frameworks.some((f) => f.framework === old.framework)) continue;
    lanes.push(old);
    const source = previous!.sources.find((s) => s.framework === old.framework);
    sources.push(source ?? { framework: old.framework, run_id: previous!.record.run_id, started_at: previous!.record.started_at });
  }
  if (lanes.length === 0) return { replaced, kept };
  // The meta is the newest run a row came from: this one if it placed any, else the one before.
  const meta = replaced.length > 0 || !previous ? record : previous.record;
  return { file: { schema: 1, record: { ...meta, frameworks: lanes }, sources }, replaced, kept };
}

export class PublishedReadError extends Error {
  override readonly name = "PublishedReadError";
  readonly file: string;
  constructor(file: string, problem: string, options?: { cause?: unknown }) {
    super(`${file}: ${problem}`, options);
    this.file = file;
  }
}

/**
 * The published file of an arena folder, if there is one. One that does not read is an error
 * naming it: replacing it would publish over rows nobody can check were good.
 */
export function readPublished(dir: string): PublishedFile | undefined {
  const file = path.join(dir, PUBLISHED_FILE);
  if (!existsSync(file)) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(file, "utf8"));
  } catch (err) {
    throw new PublishedReadError(file, `not valid JSON (${err instanceof Error ? err.message : String(err)}); move it away to publish afresh`, { cause: err });
  }
  const parsed = PublishedFileSchema.safeParse(data);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new PublishedReadError(file, `${issue.path.join(".") || "(root)"}: ${issue.message}; move it away to publish afresh`);
  }
  return parsed.data;
}

export function writePublished(dir: string, file: PublishedFile): void {
  writeFileAtomic(path.join(dir, PUBLISHED_FILE), JSON.stringify(file, null, 2) + "\n");
}
