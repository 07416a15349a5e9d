/**
 * `microsoft_af` (agent-framework-core 1.23.0 + agent-framework-openai 1.17.0, on the Python host)
 * through the real orchestrator on our seven arenas: real Python workers, the real mock gateway, a
 * real restart at every durable pause; judged by the records and by what the gateway received.
 * Every failing cell is the framework's own behaviour, explained in workers/adapters/microsoft_af/README.md.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { DEFAULTS } from "../../orchestrator/config/arena-config.ts";
import { isSuspendTool, specsFor } from "../../contract/tools/registry.ts";
import { describeWithReference } from "../support/reference.ts";
import { OUR_ARENAS } from "../support/run.ts";
import { ourArenas, ourPipelineRun } from "./support/our-arenas.ts";
import { expectPausedOnceForApproval, expectResumedAfterTwoSearches } from "./support/pauses.ts";
import { ALL_PASSED, OUR_SEVEN } from "./support/records.ts";
import { onReferenceArenas, total } from "./support/reference-runs.ts";
import { dispatched, expectReplayedVerbatim, expectToolCallsAsOnWire, stagesOf, type AnswerJudge } from "./support/wire.ts";

/** The baseline's envelope; the client sends the same keys in its own order, and nothing else. */
const BASELINE_KEYS = ["model", "messages", "temperature", "stream", "tools", "tool_choice"];
const MAF_ORDER = ["model", "stream", "messages", "temperature", "tool_choice", "tools"];
/** What the tool loop answers a call to a tool the agent does not have, before any middleware runs. */
const MAF_UNKNOWN_TOOL = (name: string) => `Error: Requested function "${name}" not found.`;

function mafAnswers(arena: string): AnswerJudge {
  const declared = new Set(loadArena(path.join(OUR_ARENAS, arena)).declaredTools);
  return (call, content, where) => {
    if (isSuspendTool(call.name)) expect(content, where).toMatch(/^Decision: (approve|deny)\.$/);
    else if (!declared.has(call.name)) expect(content, where).toBe(MAF_UNKNOWN_TOOL(call.name));
    else expect(content, where).toBe(dispatched(call.name, call.arguments));
  };
}

describe("microsoft_af on our seven arenas", () => {
  const ours = ourArenas("microsoft_af");

  it("passes every item of every arena", () => {
    expect(ours.passCounts()).toEqual(ALL_PASSED);
  });

  it("reports exactly the usage the gateway served, per item and per leg", () => {
    ours.expectUsageAsServed();
  });

  it("sends the baseline's keys only (in the client's order), the shared controls, the arena prompt and the canonical tools byte for byte", () => {
    for (const arena of OUR_SEVEN) {
      const spec = loadArena(path.join(OUR_ARENAS, arena));
      for (const body of ours.bodies(arena)) {
        // No wire exception: nothing beyond the baseline's envelope (no parallel_tool_calls, no stream_options).
        expect(Object.keys(body), arena).toEqual(MAF_ORDER);
        expect(Object.keys(body).filter((k) => !BASELINE_KEYS.includes(k)), arena).toEqual([]);
        expect([body.model, body.temperature, body.stream, body.tool_choice], arena).toEqual([DEFAULTS.model, 0, false, "auto"]);
        expect(body.messages[0], arena).toEqual({ role: "system", content: spec.systemPrompt });
        expect(JSON.stringify(body.tools), arena).toBe(JSON.stringify(specsFor(spec.declaredTools)));
      }
    }
  });

  it("replays the whole transcript on every call (across the restart too) and returns every tool result byte for byte", () => {
    for (const arena of OUR_SEVEN) expectReplayedVerbatim(arena, ours.bodies(arena), mafAnswers(arena));
  });

  it("replays a tool-call turn without a content key (the baseline sends content: null) and never with the agent's name", () => {
    for (const arena of OUR_SEVEN) {
      for (const body of ours.bodies(arena)) {
        for (const m of body.messages.filter((m: any) => m.role === "assistant")) {
          expect("name" in m, arena).toBe(false);
          if (m.tool_calls) expect(Object.keys(m), arena).toEqual(["role", "tool_calls"]);
        }
      }
    }
  });

  it("reports as tool_calls the task calls it answered, in order (the unknown tool excluded: the framework answered it)", () => {
    for (const arena of OUR_SEVEN) expectToolCallsAsOnWire(arena, ours.recordOn(arena).items, ours.bodies(arena), arena === "resilience" ? ["res-02"] : []);
    const res02 = ours.recordOn("resilience").items.find((i) => i.item_id === "res-02")!;
    expect([res02.tool_calls, res02.reported?.tool_calls]).toEqual([["slide_rule", "calculator"], ["calculator"]]);
  });

  it("answers malformed arguments with the canonical tool's text (the framework's own check would say 'Argument parsing failed')", () => {
    const bodies = ours.bodies("resilience");
    const texts = bodies.flatMap((b) => b.messages.filter((m: any) => m.role === "tool").map((m: any) => m.content as string));
    expect(texts.some((t) => t.startsWith("ERROR: tool arguments for 'calculator' were not valid JSON"))).toBe(true);
    expect(texts.filter((t) => t === "Error: Argument parsing failed.")).toEqual([]);
  });

  it("pauses on human_in_the_loop through approval_mode=always_require: once per item, book_room only after an approval", () => {
    expectPausedOnceForApproval(ours.recordOn("human_in_the_loop").items, { above: 2_500, below: 3_500 });
  });

  it("resumes durable_state in a fresh process from the AgentSession.to_dict() snapshot alone (resumed, not restarted)", () => {
    expectResumedAfterTwoSearches(ours.recordOn("durable_state").items, { above: 4_500, below: 7_000 });
  });
});

describe("microsoft_af-multi on our multi_agent arena", () => {
  it("runs researcher → writer → editor on one AgentSession, each stage with its own prompt, tools for the researcher only", async () => {
    const { prompt, items } = await ourPipelineRun("microsoft_af-multi");
    const role = (r: "researcher" | "writer" | "editor") => expect.stringMatching(new RegExp(`^${prompt.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\n\\nYou are the ${r} on this pipeline`));
    for (const bodies of items) {
      const stages = stagesOf(bodies);
      expect(stages.at(-2), "writer").toEqual([role("writer"), ""]);
      expect(stages.at(-1), "editor").toEqual([role("editor"), ""]);
      for (const s of stages.slice(0, -2)) expect(s).toEqual([role("researcher"), "search"]);
      // Finding: the mock's writer repeats the researcher's brief word for word, and the session's
      // InMemoryHistoryProvider (filter_new_messages) takes a reply equal to the last stored message
      // for a replay and drops it: the editor reads the same history as the writer, not one turn more.
      expect(bodies.at(-1)!.messages.slice(1)).toEqual(bodies.at(-2)!.messages.slice(1));
      expect(bodies.at(-2)!.messages.filter((m: any) => m.role === "assistant").map((m: any) => ("name" in m ? m.name : m.role))).toEqual(["assistant", "assistant"]);
    }
  }, 300_000);
});

describeWithReference("microsoft_af on the reference arenas", () => {
  it("bills 748.7 prompt tokens per item on tool_use against vanilla's 753.5", async () => {
    const maf = (await onReferenceArenas("microsoft_af", ["tool_use"])).get("tool_use")!;
    const base = (await onReferenceArenas("vanilla", ["tool_use"])).get("tool_use")!;
    const perItem = (r: typeof maf) => Math.round((total(r, "prompt_tokens") / r.items.length) * 10) / 10;
    // 73 fewer tokens over 15 items: each tool-call turn is replayed without `"content": null, ` (17
    // characters, 4.25 billed tokens); nothing is added (the schema dict is sent verbatim).
    expect([total(maf, "prompt_tokens"), perItem(maf), total(base, "prompt_tokens"), perItem(base)]).toEqual([11230, 748.7, 11303, 753.5]);
  }, 300_000);
});
