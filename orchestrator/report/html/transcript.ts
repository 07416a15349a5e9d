/**
 * Transcripts: every chat-completions exchange of an item, per leg, as the gateway saw it. Run
 * records do not carry them yet; this is the form the report renders and the form a recorder
 * should write (`runs/<run>/transcripts/<arena>/<framework>.json`, one file per lane).
 *
 * A lane sends the same system prompt and the same tools block on nearly every request: stored
 * verbatim they would be most of the file. They are stored once per lane as blocks, named by a
 * hash of their exact JSON text, and a request refers to them. Key order is kept as sent (it is
 * billed), so two blocks that differ only in key order are two blocks.
 */
import { createHash } from "node:crypto";
import { z } from "zod";

export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };
export type JsonObject = { [key: string]: JsonValue };

export const JsonSchema: z.ZodType<JsonValue> = z.json();
const JsonObjectSchema = z.record(z.string(), JsonSchema);

export const UsageSchema = z.object({
  prompt_tokens: z.number().int().nonnegative(),
  completion_tokens: z.number().int().nonnegative(),
  total_tokens: z.number().int().nonnegative().optional(),
});
export type Usage = z.infer<typeof UsageSchema>;

/** A reply is the JSON body, or for a streamed completion the text the stream carried. */
export const ReplySchema = z.union([z.object({ json: JsonSchema }), z.object({ stream: z.string() })]);
export type Reply = z.infer<typeof ReplySchema>;

/**
 * A request body with `tools` moved to `tools_block` and each system/developer message's content
 * moved to that message's `content_block`.
 */
export const CompactRequestSchema = z.object({ body: JsonObjectSchema, tools_block: z.string().optional() });
export type CompactRequest = z.infer<typeof CompactRequestSchema>;

export const CompactExchangeSchema = z.object({ request: CompactRequestSchema, reply: ReplySchema, usage: UsageSchema.optional() });
export type CompactExchange = z.infer<typeof CompactExchangeSchema>;

export const CompactTranscriptSchema = z.object({ legs: z.array(z.object({ exchanges: z.array(CompactExchangeSchema) })) });
export type CompactTranscript = z.infer<typeof CompactTranscriptSchema>;

export const TranscriptBlocksSchema = z.record(z.string(), JsonSchema);
export type TranscriptBlocks = Record<string, JsonValue>;

export const LaneTranscriptFileSchema = z.object({
  format_version: z.literal(1),
  arena: z.string(),
  framework: z.string(),
  blocks: TranscriptBlocksSchema,
  /** Keyed by `transcriptKey(item_id, repeat)`. */
  items: z.record(z.string(), CompactTranscriptSchema),
});
export type LaneTranscriptFile = z.infer<typeof LaneTranscriptFileSchema>;

export function transcriptKey(itemId: string, repeat: number): string {
  return `${itemId}#${repeat}`;
}

function blockId(value: JsonValue): string {
  return `b${createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 12)}`;
}

function isObject(value: JsonValue | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

const SYSTEM_ROLES = new Set(["system", "developer"]);

/** Moves the lane-wide parts of `body` into `blocks` (mutated) and returns what refers to them. */
export function compactRequest(body: JsonObject, blocks: Record<string, JsonValue>): CompactRequest {
  const { tools, ...rest } = body;
  const out: JsonObject = { ...rest };
  if (Array.isArray(rest.messages)) {
    out.messages = rest.messages.map((m) => {
      if (!isObject(m) || typeof m.role !== "string" || !SYSTEM_ROLES.has(m.role) || m.content === undefined) return m;
      const { content, ...others } = m;
      const id = blockId(content);
      blocks[id] = content;
      return { ...others, content_block: id };
    });
  }
  if (tools === undefined) return { body: out };
  const id = blockId(tools);
  blocks[id] = tools;
  return { body: out, tools_block: id };
}

export class MissingBlockError extends Error {
  override readonly name = "MissingBlockError";
}

/** The request body as it was sent: the inverse of `compactRequest`. */
export function expandRequest(request: CompactRequest, blocks: TranscriptBlocks): JsonObject {
  const lookup = (id: string): JsonValue => {
    if (!(id in blocks)) throw new MissingBlockError(`transcript block ${id} is not in the lane's blocks`);
    return blocks[id]!;
  };
  const body: JsonObject = { ...request.body };
  if (Array.isArray(body.messages)) {
    body.messages = body.messages.map((m) => {
      if (!isObject(m) || typeof m.content_block !== "string") return m;
      const { content_block, ...others } = m;
      return { ...others, content: lookup(content_block) };
    });
  }
  if (request.tools_block !== undefined) body.tools = lookup(request.tools_block);
  return body;
}

/** Block ids a transcript refers to that its lane does not hold (a truncated or hand-edited file). */
export function missingBlocks(transcript: CompactTranscript, blocks: TranscriptBlocks): string[] {
  const missing = new Set<string>();
  for (const leg of transcript.legs) {
    for (const { request } of leg.exchanges) {
      if (request.tools_block !== undefined && !(request.tools_block in blocks)) missing.add(request.tools_block);
      const messages = request.body.messages;
      if (!Array.isArray(messages)) continue;
      for (const m of messages) if (isObject(m) && typeof m.content_block === "string" && !(m.content_block in blocks)) missing.add(m.content_block);
    }
  }
  return [...missing].sort();
}
