/**
 * The journal: one JSON line per finished lane opening and per finished item × repeat cell,
 * appended the moment it finishes. A run killed at any point keeps every cell that finished, and
 * `--resume` runs only the cells the journal lacks. A later line for the same cell wins (that is
 * how `--retry-errors` replaces an errored cell).
 */
import { appendFileSync, readFileSync } from "node:fs";
import { z } from "zod";
import { naming } from "../files/fs-error.ts";
import { redactSecrets } from "../files/redact.ts";
import { AdapterRecordSchema, ItemRecordSchema, type AdapterRecord, type ItemRecord } from "../report/record.ts";

const LaneLine = z.object({
  type: z.literal("lane"),
  arena: z.string(),
  lane: AdapterRecordSchema.omit({ items: true }),
});
const ItemLine = z.object({
  type: z.literal("item"),
  arena: z.string(),
  framework: z.string(),
  record: ItemRecordSchema,
});
export const JournalLineSchema = z.discriminatedUnion("type", [LaneLine, ItemLine]);
export type JournalLine = z.infer<typeof JournalLineSchema>;

export class JournalWriter {
  readonly file: string;
  constructor(file: string) {
    this.file = file;
  }
  /** Synchronous on purpose: when this returns, the cell survives a SIGKILL of the orchestrator. */
  append(line: JournalLine): void {
    try {
      appendFileSync(this.file, `${redactSecrets(JSON.stringify(line))}\n`);
    } catch (err) {
      throw naming(this.file, err);
    }
  }
}

export function cellKey(arena: string, adapter: string): string {
  return `${arena}\u0000${adapter}`;
}
export function itemKey(repeat: number, itemId: string): string {
  return `${repeat}\u0000${itemId}`;
}

export interface JournalContents {
  /** Finished cells by arena × framework, then repeat × item. */
  readonly items: Map<string, Map<string, ItemRecord>>;
  /** The last lane outcome per arena × framework (its items are in `items`). */
  readonly lanes: Map<string, Omit<AdapterRecord, "items">>;
  /** Lines that could not be read (a line cut short by a kill mid-write is expected at the end). */
  readonly skipped: readonly { line: number; problem: string }[];
}

export function readJournal(file: string): JournalContents {
  const items = new Map<string, Map<string, ItemRecord>>();
  const lanes = new Map<string, Omit<AdapterRecord, "items">>();
  const skipped: { line: number; problem: string }[] = [];
  let text = "";
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOENT") throw err;
  }
  const lines = text.split("\n");
  lines.forEach((raw, index) => {
    if (raw.trim() === "") return;
    let parsed: z.ZodSafeParseResult<JournalLine>;
    try {
      parsed = JournalLineSchema.safeParse(JSON.parse(raw));
    } catch {
      skipped.push({ line: index + 1, problem: "not valid JSON" });
      return;
    }
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      skipped.push({ line: index + 1, problem: `${issue.path.join(".") || "(root)"}: ${issue.message}` });
      return;
    }
    const line = parsed.data;
    if (line.type === "lane") {
      lanes.set(cellKey(line.arena, line.lane.framework), line.lane);
      return;
    }
    const key = cellKey(line.arena, line.framework);
    const cells = items.get(key) ?? new Map<string, ItemRecord>();
    items.set(key, cells);
    cells.set(itemKey(line.record.repeat, line.record.item_id), line.record);
  });
  return { items, lanes, skipped };
}
