/**
 * `google_adk-py` and `google_adk-py-multi` (google-adk 2.13.0 on the Python host) on whole arenas,
 * ours and the reference ones, through the real orchestrator (real Python workers, the real mock
 * gateway, a real restart at every durable pause), judged by the records and by what the gateway
 * received. Every figure and finding here is the one in workers/adapters/google_adk-py/README.md.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { DEFAULTS } from "../../orchestrator/config/arena-config.ts";
import { isSuspendTool, specsFor } from "../../contract/tools/registry.ts";
import { PIPELINE_ROLES } from "../../contract/texts.ts";
import { describeWithReference } from "../support/reference.ts";
import { OUR_ARENAS } from "../support/run.ts";
import { ourArenas, ourPipelineRun } from "./support/our-arenas.ts";
import { expectPausedOnceForApproval, expectResumedAfterTwoSearches } from "./support/pauses.ts";
import { ALL_PASSED, OUR_SEVEN, passCount } from "./support/records.ts";
import { onReferenceArenas, total } from "./support/reference-runs.ts";
import { conversations, dispatched, expectReplayedVerbatim, stagesOf, type AnswerJudge } from "./support/wire.ts";

/** ADK for Python's identity line, appended to every LlmAgent's instruction (README, finding 2). */
const identity = (agent: string) => `\n\nYou are an agent. Your internal name is "${agent}".`;
/** What ADK answers a call to a tool the agent does not have (README, finding 3). */
const ADK_UNKNOWN_TOOL = (name: string, tools: string) =>
  JSON.stringify({ error: `Invoking \`${name}()\` failed as no tool with that name is available. The tools you can call are: ${tools}. You could retry, but it is IMPORTANT that you only call a tool from that list.` });

function adkAnswers(arena: string): AnswerJudge {
  const declared = loadArena(path.join(OUR_ARENAS, arena)).declaredTools;
  return (call, content, where) => {
    if (isSuspendTool(call.name)) expect(content, where).toMatch(/^Decision: (approve|deny)\.$/);
    else if (!declared.includes(call.name)) expect(content, where).toBe(ADK_UNKNOWN_TOOL(call.name, declared.join(", ")));
    else expect(content, where).toBe(dispatched(call.name, call.arguments));
  };
}

describe("google_adk-py on our seven arenas", () => {
  const ours = ourArenas("google_adk-py");

  it("passes every item of every arena (res-02 too: ADK answers the unknown tool itself), usage as served per item and leg", () => {
    expect(ours.passCounts()).toEqual(ALL_PASSED);
    ours.expectUsageAsServed();
    const broken = OUR_SEVEN.flatMap((a) => ours.recordOn(a).items.flatMap((i) => [...new Set((i.violations ?? []).map((v) => v.rule))].map((rule) => [a, i.item_id, rule])));
    expect(broken).toEqual([["resilience", "res-02", "tool-output"]]);
  });

  it("sends the baseline's keys only (in the openai SDK's order), the shared controls, the arena prompt plus ADK's identity line, and the canonical tools", () => {
    for (const arena of OUR_SEVEN) {
      const spec = loadArena(path.join(OUR_ARENAS, arena));
      for (const body of ours.bodies(arena)) {
        expect(Object.keys(body), arena).toEqual(["model", "stream", "messages", "temperature", "tools"]);
        expect([body.model, body.temperature, body.stream], arena).toEqual([DEFAULTS.model, 0, false]);
        expect(body.messages[0], arena).toEqual({ role: "system", content: spec.systemPrompt + identity("assistant") });
        expect(JSON.stringify(body.tools), arena).toBe(JSON.stringify(specsFor(spec.declaredTools)));
      }
    }
  });

  it("replays the whole transcript on every call (across the restart too) with the served argument strings, and returns every tool result byte for byte", () => {
    for (const arena of OUR_SEVEN) expectReplayedVerbatim(arena, ours.bodies(arena), adkAnswers(arena));
  });

  it("pauses natively on human_in_the_loop; the model reads decision_text(decision) for an approval and a denial alike", () => {
    expectPausedOnceForApproval(ours.recordOn("human_in_the_loop").items, { below: 300 });
    const arena = loadArena(path.join(OUR_ARENAS, "human_in_the_loop"));
    for (const [input, bodies] of conversations(ours.bodies("human_in_the_loop"))) {
      const denied = arena.items.find((i) => i.input === input)!.resume_with === "deny";
      const last = bodies.at(-1)!.messages;
      const pauseIds = new Set(last.flatMap((m) => (m.tool_calls ?? []).filter((c: any) => c.function.name === "request_approval").map((c: any) => c.id)));
      expect(last.filter((m) => m.role === "tool" && pauseIds.has(m.tool_call_id)).map((m) => m.content), input).toEqual([denied ? "Decision: deny." : "Decision: approve."]);
    }
  });

  it("durable_state: two searches before the restart, one calculation after, a handle of under 300 bytes", () => {
    expectResumedAfterTwoSearches(ours.recordOn("durable_state").items, { below: 300 });
  });
});

describe("google_adk-py-multi on multi_agent (a SequentialAgent of three sub-agents)", () => {
  it("passes every item with four calls; the later stages see the researcher's work as ADK for Python's quoted 'For context' prose", async () => {
    const { adapterRecord, prompt, items } = await ourPipelineRun("google_adk-py-multi");
    for (const item of adapterRecord.items) expect([item.llm_calls, item.tool_calls, [...new Set((item.violations ?? []).map((v) => v.rule))]], item.item_id).toEqual([4, ["search"], ["framework-message"]]);
    for (const bodies of items) {
      const stage = (role: keyof typeof PIPELINE_ROLES) => `${prompt}\n\n${PIPELINE_ROLES[role]}${identity(role)}`;
      expect(stagesOf(bodies)).toEqual([
        [stage("researcher"), "search"],
        [stage("researcher"), "search"],
        [stage("writer"), ""],
        [stage("editor"), ""],
      ]);
      const writer = bodies[2]!.messages;
      expect(writer.map((m) => m.role)).toEqual(["system", "user", "user", "user", "user"]);
      const parts = writer.slice(2).map((m) => m.content.map((p: any) => p.text));
      for (const p of parts) expect(p[0]).toMatch(/^For context: below is a transcript of what another agent did, quoted between <<<BEGIN_QUOTED_AGENT_CONTENT>>> and <<<END_QUOTED_AGENT_CONTENT>>>\./);
      // The arguments and the result wrapper as Python reprs, not JSON.
      expect(parts[0][1]).toMatch(/^\[researcher\] called tool `search` with parameters:\n<<<BEGIN_QUOTED_AGENT_CONTENT>>>\n\{'query': '/);
      expect(parts[1][1]).toMatch(/^\[researcher\] `search` tool returned result:\n<<<BEGIN_QUOTED_AGENT_CONTENT>>>\n\{'result': ['"]/);
      expect(parts[2][1]).toMatch(/^\[researcher\] said:\n<<<BEGIN_QUOTED_AGENT_CONTENT>>>\n/);
    }
  }, 300_000);
});

describeWithReference("google_adk-py on the reference arenas", () => {
  it("tool_use: 783.7 prompt tokens per item against the baseline's 753.5 (and the TS edition's 753.5): ADK's identity line on every request", async () => {
    // 11755 − 11303 = 452 tokens over the 31 requests: 14.6 a request, the 59 JSON-encoded
    // characters of the identity line (finding 2); calls and everything else as the baseline's.
    const adk = (await onReferenceArenas("google_adk-py", ["tool_use"])).get("tool_use")!;
    const perItem = Math.round((total(adk, "prompt_tokens") / adk.items.length) * 10) / 10;
    expect([passCount(adk), total(adk, "prompt_tokens"), perItem, total(adk, "llm_calls")]).toEqual(["15/15", 11755, 783.7, 31]);
  }, 300_000);
});
