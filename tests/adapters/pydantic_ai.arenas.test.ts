/**
 * `pydantic_ai` and `pydantic_ai-multi` (Python, on the Python worker host) on our seven arenas
 * through the real orchestrator: real worker processes, the real mock gateway, a real SIGKILL at
 * every durable pause. Judged by the records and by what the gateway received: pass counts, usage
 * as served, the wire envelope, the tools block, the transcript, the pauses. Every figure here is
 * a finding in workers/adapters/pydantic_ai/README.md; the scripted one-item runs (the cap, a
 * batched pause, transport) are pydantic_ai.wire.test.ts.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { DEFAULTS } from "../../orchestrator/config/arena-config.ts";
import { dumpsPy, fromJs, type PyValue } from "@agentic-arena/py-semantics";
import { isSuspendTool, specsFor } from "../../contract/tools/registry.ts";
import { PIPELINE_ROLES } from "../../contract/texts.ts";
import { adapterEntry, OUR_ARENAS } from "../support/run.ts";
import { ourArenas } from "./support/our-arenas.ts";
import { expectPausedOnceForApproval, expectResumedAfterTwoSearches } from "./support/pauses.ts";
import { ALL_PASSED, OUR_SEVEN, usageMismatches } from "./support/records.ts";
import { dispatched, expectReplayedVerbatim, expectToolCallsAsOnWire, shownAfterFault, stagesOf, conversations, type AnswerJudge } from "./support/wire.ts";

/** The baseline's envelope; pydantic_ai sends a subset of it, in its own key order. */
const ENVELOPE = new Set(["model", "messages", "temperature", "stream", "tools", "tool_choice"]);
const MULTI = { ...adapterEntry("pydantic_ai-multi"), onlyArenas: ["multi_agent"] };

/** What pydantic_ai itself answers before any tool runs: broken JSON (its validation error) and an unknown tool. */
const JSON_INVALID = /^\{"error":\[\{"type":"json_invalid","loc":\[\],"msg":"Invalid JSON: /;
const UNKNOWN_TOOL = `{"error":"Unknown tool name: 'slide_rule'. Available tools: 'calculator', 'search'"}`;

function parses(json: string): boolean {
  try {
    JSON.parse(json);
    return true;
  } catch {
    return false;
  }
}

/** The arguments the model sent, read back from a replay that wrapped them (`{"INVALID_JSON": <raw>}`). */
function sentArguments(replayed: string): string {
  const value = JSON.parse(replayed);
  return Object.keys(value).join() === "INVALID_JSON" ? value.INVALID_JSON : replayed;
}

/** Each tool message: the dispatch's string on the model's own arguments, the decision for a pause, pydantic_ai's text where it refused the call. */
function answers(arena: string): AnswerJudge {
  const declared = new Set(loadArena(path.join(OUR_ARENAS, arena)).declaredTools);
  return (call, content, where) => {
    const sent = sentArguments(call.arguments);
    if (isSuspendTool(call.name)) expect(content, where).toMatch(/^Decision: (approve|deny)\.$/);
    else if (!declared.has(call.name)) expect(content, where).toBe(UNKNOWN_TOOL);
    else if (!parses(sent)) expect(content, where).toMatch(JSON_INVALID);
    // null and an array reach the tool (the adapter's validator lets them through), which answers them.
    else expect(content, where).toBe(dispatched(call.name, sent));
  };
}

describe("pydantic_ai on our seven arenas", () => {
  const ours = ourArenas("pydantic_ai", MULTI);

  it("passes every item of every arena (and the pipeline variant 12/12)", () => {
    for (const a of OUR_SEVEN) expect(ours.recordOn(a).available, `${a}: ${ours.recordOn(a).reason}`).toBe(true);
    expect(ours.passCounts()).toEqual(ALL_PASSED);
    expect(ours.recordOn("tool_use").lib_version).toBe("pydantic-ai-slim 2.68.0");
  });

  it("reports exactly the usage the gateway served, per item and per leg", () => {
    ours.expectUsageAsServed();
    expect(usageMismatches(ours.recordOn("multi_agent", "pydantic_ai-multi").items)).toEqual([]);
  });

  it("stays inside the baseline's envelope: stream false, tool_choice auto, the shared model and temperature, no extras", () => {
    for (const arena of OUR_SEVEN) {
      const spec = loadArena(path.join(OUR_ARENAS, arena));
      for (const body of ours.bodies(arena)) {
        expect(Object.keys(body).filter((k) => !ENVELOPE.has(k)), arena).toEqual([]);
        // Its own key order (the baseline's is model, messages, temperature, stream, tools, tool_choice).
        expect(Object.keys(body), arena).toEqual(["model", "stream", "messages", "temperature", "tool_choice", "tools"]);
        expect([body.model, body.temperature, body.stream, body.tool_choice], arena).toEqual([DEFAULTS.model, 0, false, "auto"]);
        expect(body.messages[0], arena).toEqual({ role: "system", content: spec.systemPrompt });
      }
    }
  });

  it("advertises the canonical tools byte for byte: no strict, no title stripped, no additionalProperties", () => {
    const chars: Record<string, number> = {};
    for (const arena of OUR_SEVEN) {
      const declared = loadArena(path.join(OUR_ARENAS, arena)).declaredTools;
      const requests = ours.requests(arena);
      const canonical = dumpsPy(fromJs(specsFor(declared)));
      for (const r of requests) expect(dumpsPy(r.body.get("tools") as PyValue), arena).toBe(canonical);
      chars[arena] = canonical.length;
    }
    expect(chars).toEqual({ tool_use: 637, structured_output: 359, rag: 359, resilience: 637, multi_agent: 359, human_in_the_loop: 1002, durable_state: 983 });
  });

  it("bills tool_use 1098.6 prompt tokens per item, the baseline 1099.3: the same requests, arguments replayed without spaces", () => {
    const items = ours.recordOn("tool_use").items;
    // vanilla on the same arena: Σ 19787 (1099.3 per item); the difference is the compact replay alone.
    expect([items.reduce((a, i) => a + i.prompt_tokens, 0), items.reduce((a, i) => a + i.llm_calls, 0)]).toEqual([19775, 44]);
  });

  it("replays the transcript on every call; every tool result is the dispatch's string, except what pydantic_ai refused", () => {
    // expectReplayedVerbatim compares the requests of a conversation with each other, so the
    // INVALID_JSON rewrite of res-01/06/10 (the same in every later request) passes here; the
    // witness, which compares with what was served, names it (expectations.toml).
    for (const arena of OUR_SEVEN) expectReplayedVerbatim(arena, ours.bodies(arena), answers(arena));
    const items = loadArena(path.join(OUR_ARENAS, "resilience")).items;
    const shown = shownAfterFault(ours.bodies("resilience"), items);
    expect(Object.entries(shown).filter(([, s]) => s !== "dispatch").map(([id, s]) => [id, s.slice(0, 40)])).toEqual([
      ["res-01", '{"error":[{"type":"json_invalid","loc":['],
      ["res-02", UNKNOWN_TOOL.slice(0, 40)],
    ]);
  });

  it("replays arguments as compact JSON, and arguments that are not an object as {\"INVALID_JSON\": <raw>}", () => {
    const replayed = (id: string) => {
      const input = loadArena(path.join(OUR_ARENAS, "resilience")).items.find((i) => i.id === id)!.input;
      const last = conversations(ours.bodies("resilience")).get(input)!.at(-1)!;
      return last.messages.find((m: any) => m.tool_calls)!.tool_calls[0].function.arguments;
    };
    expect([replayed("res-01"), replayed("res-06"), replayed("res-10"), replayed("res-03")]).toEqual([
      '{"INVALID_JSON":"{\\"expr\\": 19 * 21 + 6"}',
      '{"INVALID_JSON":"null"}',
      expect.stringMatching(/^\{"INVALID_JSON":"\[/),
      expect.stringMatching(/^\{"expr":"/),
    ]);
    const res = ours.recordOn("resilience").items;
    expect(res.filter((i) => i.violations?.length).map((i) => [i.item_id, [...new Set(i.violations!.map((v) => v.rule))].sort()])).toEqual([
      ["res-01", ["tool-output", "transcript"]],
      ["res-02", ["tool-output"]],
      ["res-06", ["transcript"]],
      ["res-10", ["transcript"]],
    ]);
  });

  it("reports as tool_calls the calls its tools ran, in order: a call pydantic_ai refused is left out (declared)", () => {
    for (const arena of OUR_SEVEN) expectToolCallsAsOnWire(arena, ours.recordOn(arena).items, ours.bodies(arena), ["res-01", "res-02"]);
    const res = (id: string) => ours.recordOn("resilience").items.find((i) => i.item_id === id)!;
    expect([res("res-01").reported!.tool_calls, res("res-01").tool_calls]).toEqual([["calculator"], ["calculator", "calculator"]]);
    expect([res("res-02").reported!.tool_calls, res("res-02").tool_calls]).toEqual([["calculator"], ["slide_rule", "calculator"]]);
  });

  it("pauses natively on human_in_the_loop (CallDeferred → DeferredToolRequests): once per item, book_room only after an approval", () => {
    expectPausedOnceForApproval(ours.recordOn("human_in_the_loop").items, { above: 3_000, below: 6_000 });
  });

  it("resumes durable_state in a fresh process from the message-history JSON alone (resumed, not restarted)", () => {
    expectResumedAfterTwoSearches(ours.recordOn("durable_state").items, { above: 4_000, below: 8_000 });
  });

  it("pydantic_ai-multi: researcher, then writer and editor over the same history under their own system messages, four calls", () => {
    const prompt = loadArena(path.join(OUR_ARENAS, "multi_agent")).systemPrompt;
    const multi = ours.recordOn("multi_agent", "pydantic_ai-multi");
    expect(multi.items.every((i) => i.llm_calls === 4 && i.tool_calls.join() === "search" && !i.violations)).toBe(true);
    for (const bodies of conversations(ours.bodies("multi_agent", "pydantic_ai-multi")).values()) {
      expect(stagesOf(bodies)).toEqual([
        [`${prompt}\n\n${PIPELINE_ROLES.researcher}`, "search"],
        [`${prompt}\n\n${PIPELINE_ROLES.researcher}`, "search"],
        [`${prompt}\n\n${PIPELINE_ROLES.writer}`, ""],
        [`${prompt}\n\n${PIPELINE_ROLES.editor}`, ""],
      ]);
      // Writer and editor: no tools and no tool_choice key; the history grows by one reply each.
      expect(bodies.map((b) => [b.messages.length, "tool_choice" in b])).toEqual([[2, true], [4, true], [5, false], [6, false]]);
    }
  });
});
