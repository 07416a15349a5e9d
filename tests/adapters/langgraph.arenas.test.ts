/**
 * The `langgraph` and `langgraph-multi` adapters on whole arenas, ours and the reference ones,
 * through the real orchestrator (real worker processes, real mock gateway, a real SIGKILL at
 * every durable pause), judged on the wire: pass counts per arena (each failing cell explained),
 * reported usage against what the gateway served (per item and per leg), the pauses and the
 * durable restart, the tools block against the baseline's, what the model sees after each
 * resilience fault, and prompt tokens against the baseline's. The same figures are the findings
 * in workers/adapters/langgraph/README.md; the scripted one-item runs are langgraph.wire.test.ts.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import type { AdapterRecord } from "../../orchestrator/report/record.ts";
import { dumpsPy, fromJs, toJs } from "@agentic-arena/py-semantics";
import { specsFor } from "../../contract/tools/registry.ts";
import { describeWithReference, REFERENCE_ARENAS, REFERENCE_CORPUS } from "../support/reference.ts";
import { adapterEntry, OUR_ARENAS, quickRun } from "../support/run.ts";
import { ourArenas } from "./support/our-arenas.ts";
import { expectPausedOnceForApproval, expectResumedAfterTwoSearches } from "./support/pauses.ts";
import { ALL_PASSED, byArena, failedIds, OUR_SEVEN, passCount, usageMismatches } from "./support/records.ts";
import { shownAfterFault, type Body } from "./support/wire.ts";

const ENVELOPE = new Set(["model", "messages", "temperature", "stream", "tools", "tool_choice"]);

/** The text LangGraph's ToolNode (handleToolErrors) puts in the tool message instead of running the tool. */
const SCHEMA_REJECTED = "Error: Received tool input did not match expected schema\n Please fix your mistakes.";
const NOT_FOUND = (name: string) => `Error: Tool "${name}" not found.\n Please fix your mistakes.`;

/** The pipeline variant, scoped to its arena as `--framework all` would. */
const MULTI = { ...adapterEntry("langgraph-multi"), onlyArenas: ["multi_agent"] };

function meanPrompt(adapterRecord: AdapterRecord): number {
  return Math.round((adapterRecord.items.reduce((a, i) => a + i.prompt_tokens, 0) / adapterRecord.items.length) * 10) / 10;
}

describe("langgraph on our seven arenas", () => {
  const ours = ourArenas("langgraph", MULTI);

  it("passes every arena but one resilience item (and the pipeline variant 12/12); usage equals what was served, per item and per leg", () => {
    for (const a of OUR_SEVEN) expect(ours.recordOn(a).available, `${a}: ${ours.recordOn(a).reason}`).toBe(true);
    expect(ours.passCounts()).toEqual({
      ...ALL_PASSED,
      // res-01 (malformed JSON arguments): ChatOpenAI files the call under `invalid_tool_calls`,
      // the AIMessage has no `tool_calls`, so `toolsCondition` routes to END after one model call:
      // the run ends "successfully" with an empty answer and no error. A framework finding (the
      // Python original failed the same item the same way); the check is not loosened.
      resilience: "9/10",
    });
    expect(failedIds(ours.recordOn("resilience"))).toEqual(["res-01"]);
    // The pipeline variant, in the same run: 12/12, researcher + tool + writer + editor = 4 calls.
    const multi = ours.recordOn("multi_agent", "langgraph-multi");
    expect(multi.available, multi.reason).toBe(true);
    expect([failedIds(multi), multi.items.length]).toEqual([[], 12]);
    expect(multi.items.every((i) => i.llm_calls === 4 && i.tool_calls.join() === "search")).toBe(true);
    expect(usageMismatches(multi.items)).toEqual([]);
    const res01 = ours.recordOn("resilience").items.find((i) => i.item_id === "res-01")!;
    // The malformed calculator call was served, so the record counts it (harness.md §3: failed calls
    // included); ToolNode refused it before the adapter's tool ran, so LangGraph's own report lacks it.
    expect([res01.output_text, res01.error, res01.llm_calls, res01.tool_calls, res01.reported?.tool_calls]).toEqual(["", null, 1, ["calculator"], []]);
    ours.expectUsageAsServed();
  });

  it("pauses once per item, resumes the same conversation, and books only on approval", () => {
    expectPausedOnceForApproval(ours.recordOn("human_in_the_loop").items);
    // The decision reaches the model as the suspend tool's result, in the same transcript.
    const decisions = ours
      .bodies("human_in_the_loop")
      .flatMap((b) => b.messages)
      .filter((m: Body) => m.role === "tool" && m.name === "request_approval")
      .map((m: Body) => m.content);
    expect(new Set(decisions)).toEqual(new Set(["Decision: approve.", "Decision: deny."]));
  });

  it("durable_state: two searches before the kill, one calculation after, a ~200-byte handle, one SQLite file per run", () => {
    expectResumedAfterTwoSearches(ours.recordOn("durable_state").items, { above: 150, below: 250 });
  });

  it("sends the canonical tools block unmodified and stays inside the baseline's envelope", () => {
    const chars: Record<string, number> = {};
    for (const arena of OUR_SEVEN) {
      const raw = ours.requests(arena);
      expect(raw.length, arena).toBeGreaterThan(0);
      const canonical = dumpsPy(fromJs(specsFor(loadArena(path.join(OUR_ARENAS, arena)).declaredTools)));
      for (const r of raw) {
        const body = toJs(r.body) as Body;
        expect(Object.keys(body).filter((k) => !ENVELOPE.has(k)), arena).toEqual([]);
        expect(body.stream, arena).toBe(false);
        expect(dumpsPy(r.body.get("tools") as never), arena).toBe(canonical);
      }
      chars[arena] = canonical.length;
    }
    expect([chars.tool_use, chars.human_in_the_loop, chars.durable_state]).toEqual([637, 1002, 983]);
  });

  it("resilience: what the model is shown after each fault", () => {
    const inputs: Record<string, string> = {
      "res-01": "What is 19 * 21 + 6?",
      "res-02": "What is 864 / 16 + 11?",
      "res-03": "What is 2 to the power of 12?",
      "res-04": "What is 35 percent of 880?",
      "res-05": "What is 2048 minus 1999?",
      "res-06": "What is 6 times 7 times 11?",
      "res-07": "How high is Denali, in metres?",
      "res-08": "What is the square root of 1764?",
      "res-09": "In what year was Mont Blanc first climbed?",
      "res-10": "What is 1000 divided by 8?",
    };
    const shown = shownAfterFault(
      ours.bodies("resilience"),
      Object.entries(inputs).map(([id, input]) => ({ id, input })),
    );
    expect(shown).toEqual({
      "res-01": "(1 request, no tool call replayed)",
      "res-02": NOT_FOUND("slide_rule"),
      "res-03": "dispatch",
      "res-04": SCHEMA_REJECTED,
      "res-05": "dispatch",
      "res-06": SCHEMA_REJECTED,
      "res-07": "dispatch",
      "res-08": "dispatch",
      "res-09": SCHEMA_REJECTED,
      "res-10": SCHEMA_REJECTED,
    });
  });
});

describeWithReference("langgraph on the reference arenas (golden.md §4)", () => {
  it("pass counts, usage equal to served, and prompt tokens per item against the baseline (single and pipeline)", async () => {
    const { records } = await quickRun({
      arenaDirs: OUR_SEVEN.map((a) => path.join(REFERENCE_ARENAS, a)),
      adapters: [
        adapterEntry("vanilla"),
        adapterEntry("langgraph"),
        { ...adapterEntry("vanilla-multi"), onlyArenas: ["multi_agent"] },
        MULTI,
      ],
      corpusPath: REFERENCE_CORPUS,
    });
    const lg = byArena(records, "langgraph");
    const base = byArena(records, "vanilla");
    const table = Object.fromEntries(
      OUR_SEVEN.map((a) => {
        const adapterRecord = lg.get(a)!;
        expect(adapterRecord.available, `${a}: ${adapterRecord.reason}`).toBe(true);
        expect(usageMismatches(adapterRecord.items), a).toEqual([]);
        return [a, `${passCount(adapterRecord)} ${meanPrompt(adapterRecord)} vs ${meanPrompt(base.get(a)!)}`];
      }),
    );
    // Prompt tokens per item, langgraph vs vanilla. The Python original tied on tool_use (753.5);
    // LangChain.js's replay differs: each tool message carries `"name": "<tool>"`, a tool-call turn
    // has `"content": ""` instead of null, and arguments are re-serialised compactly.
    expect(table).toEqual({
      tool_use: "15/15 758.3 vs 753.5",
      structured_output: "15/15 655.5 vs 651.8",
      rag: "15/15 839.8 vs 834.5",
      // res-01: malformed JSON arguments end the run silently (see our resilience arena).
      resilience: "7/8 623.6 vs 663.5",
      multi_agent: "10/10 684.9 vs 681.3",
      human_in_the_loop: "12/12 1803.3 vs 1779.6",
      durable_state: "8/8 3591.5 vs 3549.1",
    });
    expect(failedIds(lg.get("resilience")!)).toEqual(["res-01"]);

    const ma = records.find((r) => r.arena === "multi_agent")!.frameworks;
    const multi = ma.find((f) => f.framework === "langgraph-multi")!;
    const baseMulti = ma.find((f) => f.framework === "vanilla-multi")!;
    expect(failedIds(multi)).toEqual([]);
    expect(usageMismatches(multi.items)).toEqual([]);
    expect([multi.items.length, meanPrompt(multi), meanPrompt(baseMulti)]).toEqual([10, 1716.5, 1705.3]);
  }, 400_000);
});
