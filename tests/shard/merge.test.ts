/**
 * store/merge.ts on hand-made shards: cells laid out in plan order whichever shard ran them, the
 * lane rules run again over the whole lane (a leak between items of two shards is found, a
 * finding one shard made from its part alone is dropped), transcript blocks rebuilt, and a
 * missing cell or lanes that disagree refused by name.
 */
import { describe, expect, it } from "vitest";
import type { JsonValue, LaneTranscriptFile } from "../../orchestrator/report/html/transcript.ts";
import type { ItemRecord, RunRecord } from "../../orchestrator/report/record.ts";
import { mergeShards, type MergeArena, type ShardContents } from "../../orchestrator/store/merge.ts";
import { MergeRefusedError } from "../../orchestrator/store/merge-check.ts";

const SYSTEM = "You are a careful assistant.";
const ARENA: MergeArena = {
  id: "tool_use",
  items: [
    { id: "a", input: "What is the height of the Shanghai Tower?" },
    { id: "b", input: "How many moons does the planet Jupiter have?" },
    { id: "c", input: "Which river flows through the city of Vienna?" },
  ],
  adapters: ["vanilla"],
};

function item(id: string, violations?: ItemRecord["violations"]): ItemRecord {
  return {
    repeat: 0,
    item_id: id,
    passed: true,
    checks: [],
    output_text: `answer ${id}`,
    tool_calls: [],
    prompt_tokens: 1,
    completion_tokens: 1,
    latency_s: 0.1,
    llm_calls: 1,
    error: null,
    ...(violations ? { violations } : {}),
  };
}

/** One shard's files for the cells given: each request carries the system prompt and `user` text. */
function shard(ref: string, cells: { id: string; user: string; violations?: ItemRecord["violations"] }[], started = "2026-12-02T12:00:00Z"): ShardContents {
  const record = {
    run_id: ref,
    status: "complete",
    arena: ARENA.id,
    started_at: started,
    duration_s: 1,
    repeat: 1,
    dataset_size: 3,
    frameworks: [{ framework: "vanilla", available: true, lib_version: "1", variant: false, items: cells.map((c) => item(c.id, c.violations)) }],
  } as unknown as RunRecord;
  const transcript: LaneTranscriptFile = {
    format_version: 1,
    arena: ARENA.id,
    framework: "vanilla",
    blocks: { bSYS: SYSTEM },
    items: Object.fromEntries(
      cells.map((c) => [
        `${c.id}#0`,
        { legs: [{ exchanges: [{ request: { body: { messages: [{ role: "system", content_block: "bSYS" }, { role: "user", content: c.user }] as JsonValue } }, reply: { json: { role: "assistant", content: "ok" } } }] }] },
      ]),
    ),
  };
  return { ref, records: new Map([[ARENA.id, record]]), transcripts: new Map([[`${ARENA.id}/vanilla`, transcript]]) };
}

describe("mergeShards", () => {
  it("lays cells out in dataset order and takes the earliest start and the longest span", () => {
    const merged = mergeShards([ARENA], 1, [shard("s2", [{ id: "c", user: ARENA.items[2]!.input }, { id: "a", user: ARENA.items[0]!.input }], "2026-12-02T12:00:05Z"), shard("s1", [{ id: "b", user: ARENA.items[1]!.input }])], "merged");
    const record = merged.records[0]!;
    expect(record.run_id).toBe("merged");
    expect(record.started_at).toBe("2026-12-02T12:00:00Z");
    expect(record.frameworks[0]!.items.map((i) => i.item_id)).toEqual(["a", "b", "c"]);
    expect(Object.keys(merged.transcripts[0]!.items)).toEqual(["a#0", "b#0", "c#0"]);
    // Blocks rebuilt from the requests: the system prompt once, under its content hash.
    expect(Object.values(merged.transcripts[0]!.blocks)).toEqual([SYSTEM]);
    expect(record.frameworks[0]!.items.every((i) => i.violations === undefined)).toBe(true);
  });

  it("runs the lane rules over the whole lane: a leak between two shards' items is found, a part's own finding dropped", () => {
    const stale = [{ rule: "item-framing", leg: 1, detail: "found on a part of the lane" }];
    const own = [{ rule: "tool-result", leg: 1, detail: "the item's own" }];
    const merged = mergeShards(
      [ARENA],
      1,
      [
        shard("s1", [{ id: "a", user: ARENA.items[0]!.input }]),
        // b's request carries a's input; a ran on the other shard, so b's shard could not see it.
        shard("s2", [{ id: "b", user: `${ARENA.items[1]!.input}\n${ARENA.items[0]!.input}`, violations: [...own, ...stale] }, { id: "c", user: ARENA.items[2]!.input }]),
      ],
      "merged",
    );
    const b = merged.records[0]!.frameworks[0]!.items.find((i) => i.item_id === "b")!;
    expect(b.violations).toEqual([...own, { rule: "cross-item", leg: 1, detail: "the input of item a appears in this item's requests" }]);
  });

  it("refuses a cell no shard ran, and lanes that disagree on whether they ran, naming them", () => {
    const partial = () => mergeShards([ARENA], 1, [shard("s1", [{ id: "a", user: "x" }, { id: "c", user: "y" }])], "m");
    expect(partial).toThrow(MergeRefusedError);
    expect(partial).toThrow("tool_use/vanilla b repeat 0 is in no shard");

    const broken = shard("s2", [{ id: "b", user: "z" }]);
    const lane = broken.records.get(ARENA.id)!.frameworks[0]!;
    Object.assign(lane, { available: false, reason: "build failed: boom", items: [] });
    const disagree = () => mergeShards([ARENA], 1, [shard("s1", [{ id: "a", user: "x" }, { id: "c", user: "y" }]), broken], "m");
    expect(disagree).toThrow("tool_use/vanilla: s1 ran 1 but s2 was not available (build failed: boom) (run that shard again)");

    const sealed = shard("s1", [{ id: "a", user: "x" }, { id: "c", user: "y" }]);
    const watched = shard("s2", [{ id: "b", user: "z" }]);
    Object.assign(sealed.records.get(ARENA.id)!.frameworks[0]!, { isolation: { level: "sandbox", network: "sealed", tool: "bwrap" } });
    Object.assign(watched.records.get(ARENA.id)!.frameworks[0]!, { isolation: { level: "watched", network: "shared", tool: "none" } });
    expect(() => mergeShards([ARENA], 1, [sealed, watched], "m")).toThrow(
      "tool_use/vanilla: s1 ran it sandbox, network sealed but s2 watched, network shared (run every shard with the same sandbox)",
    );
  });
});
