/**
 * The JSON Schemas published for other programs (docs/schema/), generated from the zod schemas the
 * harness itself reads and writes with, so the documents cannot say one thing while the code does
 * another: tests/report/schemas.test.ts fails when a committed file differs from what this makes.
 */
import { z } from "zod";
import { JournalLineSchema } from "../store/journal.ts";
import { RunRecordSchema } from "./record.ts";
import { PublishedFileSchema } from "./publish.ts";
import { ScorecardJsonSchema } from "./scorecard-schema.ts";

export const SCHEMA_DIR = "docs/schema";

const PUBLISHED = [
  { file: "run-record.schema.json", title: "agentic-arena run record (runs/<run>/records/<arena>.json)", schema: RunRecordSchema },
  { file: "scorecard.schema.json", title: "agentic-arena scorecard (runs/<run>/scorecards/<arena>.json)", schema: ScorecardJsonSchema },
  { file: "published.schema.json", title: "agentic-arena published lanes (results/<arena>/published.json)", schema: PublishedFileSchema },
  { file: "journal-line.schema.json", title: "agentic-arena journal line (one line of runs/<run>/journal.jsonl)", schema: JournalLineSchema },
] as const;

/** Each published file's name and its exact text. */
export function publishedSchemas(): { file: string; text: string }[] {
  return PUBLISHED.map(({ file, title, schema }) => {
    const json = { title, ...z.toJSONSchema(schema, { io: "output", target: "draft-2020-12" }) };
    return { file, text: JSON.stringify(json, null, 2) + "\n" };
  });
}
