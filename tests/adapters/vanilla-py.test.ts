/**
 * `vanilla-py` and `vanilla-py-multi` through the real orchestrator (real Python workers, the real
 * mock gateway, a real restart at every durable pause), side by side with their TS twins on the
 * same gateways: the same pass counts and usage, and the same request bodies — compared as values
 * after JSON normalisation and as the raw bytes the gateway received, every one of them.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { RecordStore } from "../../orchestrator/gateway/record-store.ts";
import { PIPELINE_ROLES } from "../../contract/texts.ts";
import { ourArenas, ourPipelineRun } from "./support/our-arenas.ts";
import { expectPausedOnceForApproval, expectResumedAfterTwoSearches } from "./support/pauses.ts";
import { ALL_PASSED, OUR_SEVEN } from "./support/records.ts";
import { dispatched, expectReplayedVerbatim, expectToolCallsAsOnWire, stagesOf } from "./support/wire.ts";

/** A request body exactly as the gateway received it, and whose it was. */
interface Received {
  readonly tag: string;
  readonly bytes: Buffer;
}

/** Every served request's raw body, caught where the gateway's recorder stores it (the same process runs the gateways). */
function receivedBodies(): Received[] {
  const received: Received[] = [];
  beforeAll(() => {
    const store = RecordStore.prototype.request;
    vi.spyOn(RecordStore.prototype, "request").mockImplementation(function (this: RecordStore, attempt, tag, raw, text) {
      received.push({ tag, bytes: Buffer.from(raw) });
      return store.call(this, attempt, tag, raw, text);
    });
  });
  afterAll(() => vi.restoreAllMocks());
  return received;
}

/**
 * A body with the gateway's tool-call ids numbered in order of first appearance: the gateway mints
 * them at random (`call_` + 8 hex, gateway/ids.ts), so the two baselines are served different ones.
 * The placeholders have the same length, so every other byte keeps its place.
 */
function withIdsNumbered(bytes: Buffer): Buffer {
  const ids = new Map<string, string>();
  const text = bytes.toString("utf8").replace(/call_[0-9a-f]{8}\b/g, (id) => {
    if (!ids.has(id)) ids.set(id, `call_${ids.size.toString(16).padStart(8, "0")}`);
    return ids.get(id)!;
  });
  return Buffer.from(text, "utf8");
}

/** One adapter's raw bodies in one arena (ids numbered), grouped by conversation (the item's input), in arrival order. */
function conversationsOf(received: readonly Received[], adapter: string, arena: string): Map<string, Buffer[]> {
  const out = new Map<string, Buffer[]>();
  for (const r of received.filter((x) => x.tag.startsWith(`${adapter}__${arena}__`))) {
    const input = JSON.parse(r.bytes.toString("utf8")).messages.find((m: any) => m.role === "user").content as string;
    out.set(input, [...(out.get(input) ?? []), withIdsNumbered(r.bytes)]);
  }
  return out;
}

/** What tells two equal-valued bodies apart byte for byte, as a short label (none when the bytes are equal). */
function rawDifference(ts: Buffer, py: Buffer): string | undefined {
  if (ts.equals(py)) return undefined;
  let at = 0;
  while (at < ts.length && ts[at] === py[at]) at += 1;
  return `${ts.length} vs ${py.length} bytes, first at ${at}: ${JSON.stringify(ts.subarray(at, at + 12).toString())} vs ${JSON.stringify(py.subarray(at, at + 12).toString())}`;
}

/**
 * Each conversation of `py` against the same conversation of `ts`, request by request: equal after
 * JSON normalisation (values and key order), and every raw-byte difference listed as `arena: label`
 * (tool-call ids numbered on both sides first).
 */
function compareWires(received: readonly Received[], ts: string, py: string, arenas: readonly string[]) {
  const rawDiffs: string[] = [];
  let pairs = 0;
  for (const arena of arenas) {
    const theirs = conversationsOf(received, ts, arena);
    const ours = conversationsOf(received, py, arena);
    expect([...ours.keys()].sort(), arena).toEqual([...theirs.keys()].sort());
    expect(theirs.size, arena).toBeGreaterThan(0);
    for (const [input, tsBodies] of theirs) {
      const pyBodies = ours.get(input)!;
      expect(pyBodies.length, `${arena} "${input}"`).toBe(tsBodies.length);
      for (const [n, tsBody] of tsBodies.entries()) {
        const pyBody = pyBodies[n]!;
        const normal = (b: Buffer) => JSON.stringify(JSON.parse(b.toString("utf8")));
        expect(normal(pyBody), `${arena} "${input}" request ${n}`).toBe(normal(tsBody));
        const diff = rawDifference(tsBody, pyBody);
        if (diff) rawDiffs.push(`${arena}: ${diff}`);
        pairs += 1;
      }
    }
  }
  return { pairs, rawDiffs };
}

/**
 * The raw-byte differences between the two baselines' bodies found on our seven arenas: none. The
 * ones a plain `json.dumps` would make (separators, `\uXXXX`, `0.0`) are fixed in wire_json.py and
 * measured in the adapter's README; a new one fails here with its arena, offset and bytes.
 */
const EXPECTED_RAW_DIFFERENCES: readonly string[] = [];

describe("vanilla-py on our seven arenas, beside vanilla", () => {
  const received = receivedBodies();
  const ours = ourArenas("vanilla-py", "vanilla", "vanilla-py-multi", "vanilla-multi");

  it("passes every item of every arena, as vanilla does", () => {
    expect(ours.passCounts()).toEqual(ALL_PASSED);
    for (const arena of OUR_SEVEN) {
      const ts = ours.recordOn(arena, "vanilla").items;
      expect(ts.filter((i) => i.passed).length, arena).toBe(ours.recordOn(arena).items.filter((i) => i.passed).length);
    }
  });

  it("reports exactly the usage the gateway served, per item and per leg, and the same figures as vanilla item by item", () => {
    ours.expectUsageAsServed();
    const figures = (name: string, arena: string) => ours.recordOn(arena, name).items.map((i) => [i.item_id, i.prompt_tokens, i.completion_tokens, i.llm_calls, i.legs?.length ?? 1]);
    for (const arena of OUR_SEVEN) expect(figures("vanilla-py", arena), arena).toEqual(figures("vanilla", arena));
    expect(ours.recordOn("tool_use").items.reduce((s, i) => s + i.prompt_tokens, 0)).toBe(19_787);
  });

  it("sends the same request bodies as vanilla, value for value and byte for byte, on every request of every arena", () => {
    const { pairs, rawDiffs } = compareWires(received, "vanilla", "vanilla-py", OUR_SEVEN);
    expect(rawDiffs).toEqual(EXPECTED_RAW_DIFFERENCES);
    expect(pairs).toBe(OUR_SEVEN.reduce((n, a) => n + ours.bodies(a, "vanilla").length, 0));
    // temperature is the int the orchestrator wrote, so `0`, never Python's `0.0`.
    for (const r of received.filter((x) => x.tag.startsWith("vanilla-py__"))) expect(r.bytes.toString("utf8")).toContain(',"temperature":0,"stream":false');
  });

  it("replays the whole transcript on every call and returns every tool result byte for byte (the shared dispatch)", () => {
    for (const arena of OUR_SEVEN) {
      expectReplayedVerbatim(arena, ours.bodies(arena), (call, content, where) => {
        if (/^(request_approval|save_progress)$/.test(call.name)) expect(content, where).toMatch(/^Decision: (approve|deny)\.$/);
        else expect(content, where).toBe(dispatched(call.name, call.arguments));
      });
      expectToolCallsAsOnWire(arena, ours.recordOn(arena).items, ours.bodies(arena));
    }
  });

  it("pauses on human_in_the_loop with the transcript as its resume state, as vanilla does", () => {
    expectPausedOnceForApproval(ours.recordOn("human_in_the_loop").items, { above: 900, below: 1_600 });
    const bytes = (name: string) => ours.recordOn("human_in_the_loop", name).items.map((i) => i.legs![0]!.resume_state_bytes);
    expect(bytes("vanilla-py")).toEqual(bytes("vanilla"));
  });

  it("resumes durable_state in a fresh process from the transcript alone (resumed, not restarted)", () => {
    expectResumedAfterTwoSearches(ours.recordOn("durable_state").items, { below: 3_500 });
    const bytes = (name: string) => ours.recordOn("durable_state", name).items.map((i) => i.legs![0]!.resume_state_bytes);
    expect(bytes("vanilla-py")).toEqual(bytes("vanilla"));
  });

  it("vanilla-py-multi sends vanilla-multi's bodies byte for byte on every arena it runs (pause arenas unsupported for both)", () => {
    const PIPELINE_ARENAS = OUR_SEVEN.filter((a) => a !== "human_in_the_loop" && a !== "durable_state");
    const { pairs, rawDiffs } = compareWires(received, "vanilla-multi", "vanilla-py-multi", PIPELINE_ARENAS);
    expect(rawDiffs).toEqual(EXPECTED_RAW_DIFFERENCES);
    expect(pairs).toBe(PIPELINE_ARENAS.reduce((n, a) => n + ours.bodies(a, "vanilla-multi").length, 0));
    for (const arena of ["human_in_the_loop", "durable_state"]) {
      const lane = (name: string) => [ours.recordOn(arena, name).available, ours.recordOn(arena, name).unavailable_kind];
      expect(lane("vanilla-py-multi"), arena).toEqual([false, "unsupported"]);
      expect(lane("vanilla-multi"), arena).toEqual([false, "unsupported"]);
    }
  });
});

describe("vanilla-py-multi alone on multi_agent", () => {
  it("runs as a variant, passes every item, and sends researcher, researcher, writer, editor", async () => {
    const { adapterRecord, prompt, items } = await ourPipelineRun("vanilla-py-multi");
    for (const item of adapterRecord.items) expect([item.llm_calls, item.tool_calls], item.item_id).toEqual([4, ["search"]]);
    const researcher = [`${prompt}\n\n${PIPELINE_ROLES.researcher}`, "search"];
    for (const bodies of items) {
      expect(stagesOf(bodies)).toEqual([researcher, researcher, [`${prompt}\n\n${PIPELINE_ROLES.writer}`, ""], [`${prompt}\n\n${PIPELINE_ROLES.editor}`, ""]]);
    }
  }, 120_000);
});
