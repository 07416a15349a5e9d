/**
 * `google_adk` and `google_adk-multi` on whole arenas, ours and the reference ones, through the
 * real orchestrator (real worker processes, the real mock gateway, a real restart at every
 * durable pause), judged by the records and by what the gateway received: pass counts, usage as
 * served, the prompt and tools block verbatim, the transcript replayed whole, the pauses and the
 * restart, the pipeline's "For context" rewrite, and the bill against the baseline's. Every figure
 * and finding here is the one in workers/adapters/google_adk/README.md.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { DEFAULTS } from "../../orchestrator/config/arena-config.ts";
import { dumpsPy, fromJs } from "@agentic-arena/py-semantics";
import { isSuspendTool, specsFor } from "../../contract/tools/registry.ts";
import { PIPELINE_ROLES } from "../../contract/texts.ts";
import { describeWithReference } from "../support/reference.ts";
import { OUR_ARENAS } from "../support/run.ts";
import { ourArenas, ourPipelineRun } from "./support/our-arenas.ts";
import { expectPausedOnceForApproval, expectResumedAfterTwoSearches } from "./support/pauses.ts";
import { ALL_PASSED, OUR_SEVEN, passCount } from "./support/records.ts";
import { onReferenceArenas, referencePipelineBill, total } from "./support/reference-runs.ts";
import { conversations, dispatched, expectReplayedVerbatim, stagesOf, type AnswerJudge } from "./support/wire.ts";

/** What ADK's FunctionTool answers a rejected confirmation with (the baseline's text is `Decision: deny.`). */
const ADK_REJECTED = '{"error":"This tool call is rejected."}';

/** Every tool message is dispatch's string on the call's own arguments, byte for byte; a pause tool's, the decision. */
const adkAnswers: AnswerJudge = (call, content, where) => {
  if (isSuspendTool(call.name)) expect([ADK_REJECTED, "Decision: approve."], where).toContain(content);
  else expect(content, where).toBe(dispatched(call.name, call.arguments));
};

describe("google_adk on our seven arenas", () => {
  const ours = ourArenas("google_adk");

  it("passes every arena but res-02 (an unknown tool: ADK's error event ends the leg), no rule broken, usage as served per item and leg", () => {
    expect(ours.passCounts()).toEqual({ ...ALL_PASSED, resilience: "9/10" });
    const failed = OUR_SEVEN.flatMap((a) => ours.recordOn(a).items.filter((i) => !i.passed).map((i) => [a, i.item_id, i.error, i.error_class, i.tool_calls, i.llm_calls]));
    expect(failed).toEqual([["resilience", "res-02", "Error: Function slide_rule is not found in the toolsDict.", "adapter", ["slide_rule"], 1]]);
    ours.expectUsageAsServed();
    for (const arena of OUR_SEVEN) expect(ours.recordOn(arena).items.flatMap((i) => i.violations ?? []), arena).toEqual([]);
  });

  it("sends the arena prompt verbatim, the canonical tools block unmodified, and only the baseline's keys", () => {
    for (const arena of OUR_SEVEN) {
      const spec = loadArena(path.join(OUR_ARENAS, arena));
      for (const body of ours.bodies(arena)) {
        expect(Object.keys(body), arena).toEqual(["model", "messages", "temperature", "stream", "tools"]);
        expect([body.model, body.temperature, body.stream], arena).toEqual([DEFAULTS.model, 0, false]);
        expect(body.messages[0], arena).toEqual({ role: "system", content: spec.systemPrompt });
        expect(body.tools, arena).toEqual(specsFor(spec.declaredTools));
      }
      // Byte-identical to the baseline's block as billed (Python json.dumps).
      const first = ours.requests(arena)[0]!.body.get("tools");
      expect(dumpsPy(first as never), arena).toBe(dumpsPy(fromJs(specsFor(spec.declaredTools))));
    }
  });

  it("replays the whole transcript on every call and returns every tool result byte for byte", () => {
    for (const arena of OUR_SEVEN) expectReplayedVerbatim(arena, ours.bodies(arena), adkAnswers);
  });

  it("pauses natively on human_in_the_loop; a denial reaches the model as ADK's rejection, not the decision text", () => {
    expectPausedOnceForApproval(ours.recordOn("human_in_the_loop").items, { below: 300 });
    const arena = loadArena(path.join(OUR_ARENAS, "human_in_the_loop"));
    for (const [input, bodies] of conversations(ours.bodies("human_in_the_loop"))) {
      const denied = arena.items.find((i) => i.input === input)!.resume_with === "deny";
      const last = bodies.at(-1)!.messages;
      const pauseIds = new Set(last.flatMap((m) => (m.tool_calls ?? []).filter((c: any) => c.function.name === "request_approval").map((c: any) => c.id)));
      const answers = last.filter((m) => m.role === "tool" && pauseIds.has(m.tool_call_id)).map((m) => m.content);
      expect(answers, input).toEqual([denied ? ADK_REJECTED : "Decision: approve."]);
    }
  });

  it("durable_state: two searches before the restart, one calculation after, a handle of under 300 bytes", () => {
    expectResumedAfterTwoSearches(ours.recordOn("durable_state").items, { below: 300 });
  });
});

describe("google_adk-multi on multi_agent (a SequentialAgent of three sub-agents)", () => {
  it("passes every item with four calls; the later stages see the researcher's work as ADK's 'For context' prose", async () => {
    const { adapterRecord, prompt, items } = await ourPipelineRun("google_adk-multi");
    for (const item of adapterRecord.items) expect([item.llm_calls, item.tool_calls, item.violations ?? []], item.item_id).toEqual([4, ["search"], []]);
    for (const bodies of items) {
      expect(stagesOf(bodies)).toEqual([
        [`${prompt}\n\n${PIPELINE_ROLES.researcher}`, "search"],
        [`${prompt}\n\n${PIPELINE_ROLES.researcher}`, "search"],
        [`${prompt}\n\n${PIPELINE_ROLES.writer}`, ""],
        [`${prompt}\n\n${PIPELINE_ROLES.editor}`, ""],
      ]);
      // The writer gets no assistant turn and no tool message: the researcher's call, its result
      // (JSON-encoded) and its reply come as user text parts.
      const writer = bodies[2]!.messages;
      expect(writer.map((m) => m.role)).toEqual(["system", "user", "user", "user", "user"]);
      const parts = writer.slice(2).map((m) => m.content.map((p: any) => p.text));
      expect(parts.map((p) => p[0])).toEqual(["For context:", "For context:", "For context:"]);
      expect(parts[0][1]).toMatch(/^\[researcher\] called tool `search` with parameters: \{"query":/);
      expect(parts[1][1]).toMatch(/^\[researcher\] tool `search` returned result: \{"result":"/);
      expect(parts[2][1]).toMatch(/^\[researcher\] said: /);
    }
  }, 120_000);
});

// golden.md §1: the baseline's Σ prompt tokens per reference arena.
const BASELINE_PROMPT: Record<string, number> = {
  tool_use: 11303,
  structured_output: 9777,
  rag: 12517,
  resilience: 5308,
  multi_agent: 6813,
  human_in_the_loop: 21355,
  durable_state: 28393,
};

describeWithReference("google_adk on the reference arenas", () => {
  it("passes all but res-02 and bills exactly what the baseline bills, but for res-02 and the denial text", async () => {
    const fws = await onReferenceArenas("google_adk", Object.keys(BASELINE_PROMPT));
    const got = Object.fromEntries([...fws].map(([arena, adapterRecord]) => [arena, [passCount(adapterRecord), total(adapterRecord, "prompt_tokens")]]));
    expect(got).toEqual({
      tool_use: ["15/15", BASELINE_PROMPT.tool_use],
      structured_output: ["15/15", BASELINE_PROMPT.structured_output],
      rag: ["15/15", BASELINE_PROMPT.rag],
      // res-02 calls `teleport`: ADK's error event ends the leg after one call.
      resilience: ["7/8", 4946],
      multi_agent: ["10/10", BASELINE_PROMPT.multi_agent],
      // Denied items carry {"error":"This tool call is rejected."} where the baseline has `Decision: deny.`
      human_in_the_loop: ["12/12", 21397],
      durable_state: ["8/8", BASELINE_PROMPT.durable_state],
    });
  }, 300_000);

  it("the sub-agent pipeline: 10/10, four calls an item, 1.067× vanilla-multi's prompt (17053 Σ) for the 'For context' rewrite", async () => {
    expect(await referencePipelineBill("google_adk-multi")).toEqual(["10/10", 18190, 1980, 40]);
  }, 120_000);
});
