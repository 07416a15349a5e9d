import { describe, expect, it } from "vitest";
import {
  compactRequest,
  expandRequest,
  LaneTranscriptFileSchema,
  MissingBlockError,
  missingBlocks,
  type JsonObject,
  type JsonValue,
} from "../../orchestrator/report/html/transcript.ts";
import { fixtureTranscript } from "./fixture.ts";

const body = (system: string, user: string): JsonObject => ({
  model: "m",
  messages: [
    { role: "system", content: system },
    { role: "user", content: user },
  ],
  tools: [{ type: "function", function: { name: "search" } }],
  tool_choice: "auto",
});

describe("compactRequest / expandRequest", () => {
  it("round-trips a request body exactly, key order included", () => {
    const blocks: Record<string, JsonValue> = {};
    const original = body("be brief", "hi");
    const compact = compactRequest(original, blocks);
    expect(compact.body).not.toHaveProperty("tools");
    expect(JSON.stringify(compact)).not.toContain("be brief");
    const back = expandRequest(compact, blocks);
    expect(back).toEqual(original);
    // `tools` moves to the end on expansion; the messages keep their own key order.
    expect(JSON.stringify((back.messages as JsonValue[])[0])).toBe(JSON.stringify({ role: "system", content: "be brief" }));
  });

  it("stores a system prompt and tools block once however many requests share them", () => {
    const blocks: Record<string, JsonValue> = {};
    const a = compactRequest(body("shared", "one"), blocks);
    const b = compactRequest(body("shared", "two"), blocks);
    const c = compactRequest(body("other", "three"), blocks);
    expect(Object.keys(blocks)).toHaveLength(3);
    expect(a.tools_block).toBe(b.tools_block);
    const systemOf = (r: typeof a) => ((r.body.messages as JsonObject[])[0]!.content_block as string);
    expect(systemOf(a)).toBe(systemOf(b));
    expect(systemOf(c)).not.toBe(systemOf(a));
  });

  it("leaves a request without tools or system message as it was", () => {
    const blocks: Record<string, JsonValue> = {};
    const plain: JsonObject = { model: "m", messages: [{ role: "user", content: "x" }] };
    expect(compactRequest(plain, blocks)).toEqual({ body: plain });
    expect(blocks).toEqual({});
  });

  it("names the blocks a transcript needs and its lane lacks", () => {
    const lane = fixtureTranscript();
    const t = Object.values(lane.items)[0]!;
    expect(missingBlocks(t, lane.blocks)).toEqual([]);
    const [first] = Object.keys(lane.blocks);
    const { [first!]: _dropped, ...rest } = lane.blocks;
    expect(missingBlocks(t, rest)).toEqual([first]);
    expect(() => expandRequest(t.legs[0]!.exchanges[0]!.request, rest)).toThrow(MissingBlockError);
  });

  it("validates the lane file form the fixture writes, and refuses a reply of neither kind", () => {
    const lane = fixtureTranscript();
    expect(LaneTranscriptFileSchema.safeParse(lane).success).toBe(true);
    const broken = structuredClone(lane) as unknown as { items: Record<string, { legs: { exchanges: { reply: unknown }[] }[] }> };
    Object.values(broken.items)[0]!.legs[0]!.exchanges[0]!.reply = { text: "neither json nor stream" };
    expect(LaneTranscriptFileSchema.safeParse(broken).success).toBe(false);
  });
});
