/**
 * `openai_agents` and `openai_agents-multi` through the real orchestrator (real worker processes,
 * the real mock gateway, a real restart at every durable pause), judged by the records and by what
 * the gateway received. Every failing cell is the SDK's own behaviour, asserted as such and
 * explained in workers/adapters/openai_agents/README.md.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { DEFAULTS } from "../../orchestrator/config/arena-config.ts";
import { dumpsPy, fromJs, toJs, type PyValue } from "@agentic-arena/py-semantics";
import { isSuspendTool, namesFor, specsFor } from "../../contract/tools/registry.ts";
import { ROLES } from "../../workers/adapters/openai_agents/multi.ts";
import { probeRun } from "../probes/support.ts";
import { describeWithReference } from "../support/reference.ts";
import { adapterEntry, OUR_ARENAS } from "../support/run.ts";
import { ourArenas, ourPipelineRun } from "./support/our-arenas.ts";
import { expectPausedOnceForApproval, expectResumedAfterTwoSearches } from "./support/pauses.ts";
import { ANSWER_ONLY, batchedApprovalRun, cappedRun, expectResumedLegFullBudget, expectStoppedAtCap, resumedBudgetRun } from "./support/probes.ts";
import { ALL_PASSED, failedIds, OUR_SEVEN, passCount } from "./support/records.ts";
import { onReferenceArenas, referencePipelineBill, total } from "./support/reference-runs.ts";
import { dispatched, expectEachToolAnswer, expectReplayedVerbatim, expectToolCallsAsOnWire, stagesOf, type AnswerJudge } from "./support/wire.ts";

const ENVELOPE = new Set(["model", "messages", "temperature", "stream", "tools", "tool_choice"]);
/** What the SDK sends the model when a call's arguments are not valid JSON (instead of running the tool). */
const SDK_BAD_JSON_TEXT = "An error occurred while parsing tool arguments. Please try again with valid JSON.";
/** `, "strict": false` per tool: the only thing this adapter adds to the canonical tools block. */
const STRICT_FALSE_CHARS = ', "strict": false'.length;

/** The canonical tools block with the SDK's `strict: false` on each tool, nothing else. */
function expectedTools(declared: readonly string[]) {
  return specsFor(declared).map((s) => ({ type: s.type, function: { ...s.function, strict: false } }));
}

function parses(json: string): boolean {
  try {
    JSON.parse(json);
    return true;
  } catch {
    return false;
  }
}

/**
 * Every tool message answers an assistant call: the shared dispatch's string on the model's own
 * arguments, byte for byte; the decision text for a pause tool; the SDK's own text for arguments
 * that are not JSON (the SDK parses them before the tool runs: a finding).
 */
const sdkAnswers: AnswerJudge = (call, content, where) => {
  if (isSuspendTool(call.name)) expect(content, where).toMatch(/^Decision: (approve|deny)\.$/);
  else if (call.name.startsWith("transfer_to_")) expect(content, where).toMatch(/^\{"assistant":"\w+"\}$/);
  else expect(content, where).toBe(parses(call.arguments) ? dispatched(call.name, call.arguments) : SDK_BAD_JSON_TEXT);
};

describe("openai_agents on our seven arenas", () => {
  const ours = ourArenas("openai_agents");

  it("passes every arena except one resilience item (the SDK raises on an unknown tool)", () => {
    expect(ours.passCounts()).toEqual({
      ...ALL_PASSED,
      // res-02: the scripted model calls `slide_rule`, a tool that does not exist. The SDK's default
      // (toolNotFoundBehavior "raise_error") throws ModelBehaviorError instead of telling the model,
      // so the item ends with an error after one call. Framework behaviour, kept as a finding.
      resilience: "9/10",
    });
    const failed = OUR_SEVEN.flatMap((a) => ours.recordOn(a).items.filter((i) => !i.passed).map((i) => [a, i.item_id, i.error]));
    expect(failed).toEqual([["resilience", "res-02", "ModelBehaviorError: Tool slide_rule not found in agent assistant."]]);
  });

  it("reports exactly the usage the gateway served, per item and per leg", () => {
    ours.expectUsageAsServed();
  });

  it("puts only the shared controls on the wire: the arena prompt, the model, temperature, no sampling extras", () => {
    for (const arena of OUR_SEVEN) {
      const spec = loadArena(path.join(OUR_ARENAS, arena));
      for (const body of ours.bodies(arena)) {
        expect(Object.keys(body).filter((k) => !ENVELOPE.has(k)), arena).toEqual([]);
        expect([body.model, body.temperature, body.stream], arena).toEqual([DEFAULTS.model, 0, false]);
        expect(body.messages[0], arena).toEqual({ content: spec.systemPrompt, role: "system" });
        // The SDK leaves tool_choice out (the provider default, "auto"); the baseline sends "auto".
        expect(body.tool_choice, arena).toBeUndefined();
      }
    }
  });

  it("advertises the canonical tools unmodified plus `strict: false` (full fidelity, k optional with its default)", () => {
    const chars: Record<string, number> = {};
    for (const arena of OUR_SEVEN) {
      const declared = loadArena(path.join(OUR_ARENAS, arena)).declaredTools;
      const requests = ours.requests(arena);
      for (const r of requests) expect(toJs(r.body.get("tools") as PyValue), arena).toEqual(expectedTools(declared));
      // Billed characters of the block (Python json.dumps, as the gateway bills it).
      chars[arena] = dumpsPy(requests[0]!.body.get("tools") as PyValue).length;
      const canonical = dumpsPy(fromJs(specsFor(declared))).length;
      expect(chars[arena], arena).toBe(canonical + STRICT_FALSE_CHARS * namesFor(declared).length);
    }
    expect(chars).toEqual({
      tool_use: 671, // baseline 637
      structured_output: 376, // 359
      rag: 376,
      resilience: 671,
      multi_agent: 376,
      human_in_the_loop: 1053, // 1002
      durable_state: 1034, // 983
    });
  });

  it("replays the whole transcript on every call and returns every tool result byte for byte", () => {
    for (const arena of OUR_SEVEN) expectReplayedVerbatim(arena, ours.bodies(arena), sdkAnswers);
  });

  it("reports as tool_calls the task calls it ran, in order (pause tools excluded; a bad-JSON call included)", () => {
    for (const arena of OUR_SEVEN) expectToolCallsAsOnWire(arena, ours.recordOn(arena).items, ours.bodies(arena));
    const res01 = ours.recordOn("resilience").items.find((i) => i.item_id === "res-01")!;
    expect(res01.tool_calls).toEqual(["calculator", "calculator"]);
  });

  it("pauses natively on human_in_the_loop: once per item, the pause never logged, book_room only after an approval", () => {
    expectPausedOnceForApproval(ours.recordOn("human_in_the_loop").items, { above: 8_000, below: 10_000 });
  });

  it("resumes durable_state in a fresh process from the RunState JSON alone (resumed, not restarted)", () => {
    // The harness kills the worker at every durable pause and resumes on a new one (the durable
    // restart suite proves a memory cache cannot survive it); nothing is written to checkpoint_dir.
    expectResumedAfterTwoSearches(ours.recordOn("durable_state").items, { above: 11_000, below: 16_000 });
  });
});

describe("openai_agents-multi on multi_agent (real handoffs researcher → writer → editor)", () => {
  it("passes every item with four calls, handoffs on the wire and out of tool_calls, usage as served", async () => {
    const { adapterRecord, prompt, items } = await ourPipelineRun("openai_agents-multi");
    for (const item of adapterRecord.items) {
      expect(item.llm_calls, item.item_id).toBe(4);
      expect(item.tool_calls, item.item_id).toEqual(["search"]);
    }
    for (const bodies of items) {
      expect(stagesOf(bodies)).toEqual([
        [`${prompt}\n\n${ROLES.researcher}`, "search,transfer_to_writer"],
        [`${prompt}\n\n${ROLES.researcher}`, "search,transfer_to_writer"],
        [`${prompt}\n\n${ROLES.writer}`, "transfer_to_editor"],
        [`${prompt}\n\n${ROLES.editor}`, ""],
      ]);
      for (const body of bodies) expectEachToolAnswer("multi_agent", body, sdkAnswers);
    }
  }, 120_000);
});

describe("openai_agents on the wire: iteration cap, transport, a batched pause", () => {
  it("stops at exactly max_tool_iterations LLM calls (maxTurns = the budget) and ends with an error", async () => {
    // A non-default budget (the probe suite also runs 4 and 7 against every adapter).
    expectStoppedAtCap(await cappedRun("openai_agents", 3), 3);
  }, 60_000);

  it("gives a resumed leg the full budget across a real restart (the SDK counts maxTurns over the whole run)", async () => {
    expectResumedLegFullBudget(await resumedBudgetRun("openai_agents"));
  }, 60_000);

  it("runs a task call batched after the pause call before the pause (finding: siblings are not held back)", async () => {
    const item = (await batchedApprovalRun("openai_agents")).record.items[0]!;
    // The baseline runs search_rooms, pauses, and answers book_room "Not executed" on resume;
    // the SDK holds back only the tool that needs approval, so the booking happens before the human decides.
    expect(item.tool_calls_before_suspend).toEqual(["search_rooms", "book_room"]);
    expect(item.passed).toBe(true);
  }, 60_000);

  it("lets the OpenAI client retry a 429 once (maxRetries 2) and never retries a 400", async () => {
    const adapter = adapterEntry("openai_agents");
    const limited = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [429, 200] } });
    expect([limited.gateway.attempts.length, limited.record.items[0]!.output_text]).toEqual([2, "The Eiffel Tower is 330 metres tall."]);
    const bad = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [400, 200] } });
    expect([bad.gateway.attempts.length, bad.record.items[0]!.error]).toEqual([1, "BadRequestError: 400 injected 400"]);
  }, 60_000);
});

// golden.md §1: the baseline's Σ prompt tokens per reference arena (its per-item means are these / n).
const BASELINE_PROMPT: Record<string, [number, number]> = {
  tool_use: [11303, 15],
  structured_output: [9777, 15],
  rag: [12517, 15],
  resilience: [5308, 8],
  multi_agent: [6813, 10],
  human_in_the_loop: [21355, 12],
  durable_state: [28393, 8],
};

describeWithReference("openai_agents on the reference arenas", () => {
  it("matches the Python openai_agents pass pattern (7/8 on resilience: res-02) and bills only the strict flag", async () => {
    const arenas = Object.keys(BASELINE_PROMPT);
    const got: Record<string, [string, number, string[]]> = {};
    for (const [arena, adapterRecord] of await onReferenceArenas("openai_agents", arenas)) got[arena] = [passCount(adapterRecord), total(adapterRecord, "prompt_tokens"), failedIds(adapterRecord)];
    // Σ prompt tokens; per item vs the baseline (golden.md): tool_use 771.3 vs 753.5 (1.02×; the Python
    // adapter measured 856.9, 1.14×, in strict mode), multi_agent 689.7 vs 681.3 (Python 686.7).
    expect(got).toEqual({
      tool_use: ["15/15", 11569, []],
      structured_output: ["15/15", 9903, []],
      rag: ["15/15", 12654, []],
      // res-02 calls `teleport`: ModelBehaviorError, one call, so fewer tokens than the baseline.
      resilience: ["7/8", 5078, ["res-02"]],
      multi_agent: ["10/10", 6897, []],
      human_in_the_loop: ["12/12", 21889, []],
      durable_state: ["8/8", 28908, []],
    });
    const ratio =
      arenas.reduce((a, k) => a + got[k]![1] / BASELINE_PROMPT[k]![1], 0) /
      arenas.reduce((a, k) => a + BASELINE_PROMPT[k]![0] / BASELINE_PROMPT[k]![1], 0);
    expect(ratio).toBeCloseTo(1.0139, 4);
  }, 240_000);

  it("the handoff pipeline costs what the Python one did (1896.5 prompt / 140.2 completion / 4 calls per item)", async () => {
    // vanilla-multi: 17053 / 1980 / 40 (1705.3 per item). Python openai_agents_multi: 1894.8 / 140.2 / 4.00.
    expect(await referencePipelineBill("openai_agents-multi")).toEqual(["10/10", 18965, 1402, 40]);
  }, 120_000);
});
