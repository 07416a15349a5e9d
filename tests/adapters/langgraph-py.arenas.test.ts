/**
 * `langgraph-py` (LangGraph 1.2.22 + langchain-openai 1.7.4, on the Python host) and its pipeline
 * variant on whole arenas through the real orchestrator: real Python workers, the real mock
 * gateway, a real SIGKILL and a fresh worker at every durable pause; judged by the records and by
 * what the gateway received. Every failing cell is the framework's own behaviour, explained in
 * workers/adapters/langgraph-py/README.md; the scripted one-item runs are langgraph-py.wire.test.ts.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { dumpsPy, fromJs } from "@agentic-arena/py-semantics";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { DEFAULTS } from "../../orchestrator/config/arena-config.ts";
import { specsFor } from "../../contract/tools/registry.ts";
import { describeWithReference } from "../support/reference.ts";
import { adapterEntry, OUR_ARENAS } from "../support/run.ts";
import { ourArenas, ourPipelineRun } from "./support/our-arenas.ts";
import { expectPausedOnceForApproval, expectResumedAfterTwoSearches } from "./support/pauses.ts";
import { ALL_PASSED, failedIds, OUR_SEVEN, usageMismatches } from "./support/records.ts";
import { onReferenceArenas, referencePipelineBill, total } from "./support/reference-runs.ts";
import { shownAfterFault, stagesOf } from "./support/wire.ts";

/** The baseline's envelope; ChatOpenAI sends a subset (no tool_choice), in the openai SDK's order. */
const ENVELOPE = new Set(["model", "messages", "temperature", "stream", "tools", "tool_choice"]);
const LG_PY_ORDER = ["model", "stream", "messages", "temperature", "tools"];
/** What LangGraph's Python ToolNode answers a call to a tool it does not have (INVALID_TOOL_NAME_ERROR_TEMPLATE). */
const NOT_VALID = (name: string, tools: string) => `Error: ${name} is not a valid tool, try one of [${tools}].`;
const MULTI = { ...adapterEntry("langgraph-py-multi"), onlyArenas: ["multi_agent"] };
const mean = (xs: readonly number[]) => Math.round((xs.reduce((a, b) => a + b, 0) / xs.length) * 10) / 10;

describe("langgraph-py on our seven arenas", () => {
  const ours = ourArenas("langgraph-py", MULTI);

  it("passes every arena but two resilience items (res-01 as the TS twin; res-10 a Python-only crash); usage equals what was served", () => {
    for (const a of OUR_SEVEN) expect(ours.recordOn(a).available, `${a}: ${ours.recordOn(a).reason}`).toBe(true);
    expect(ours.passCounts()).toEqual({ ...ALL_PASSED, resilience: "8/10" });
    const res = ours.recordOn("resilience").items;
    const row = (id: string) => {
      const i = res.find((x) => x.item_id === id)!;
      return [i.output_text, i.error, i.llm_calls, i.tool_calls, i.reported?.tool_calls];
    };
    // res-01: the unparseable call lands in invalid_tool_calls, tools_condition routes to END.
    expect(row("res-01")).toEqual(["", null, 1, ["calculator"], []]);
    // res-10: arguments that are a JSON array make the AIMessage fail its own validation inside ChatOpenAI.
    expect(row("res-10").slice(0, 3)).toEqual(["", expect.stringMatching(/^ValidationError: 1 validation error for AIMessage/), 1]);
    expect(failedIds(ours.recordOn("resilience"))).toEqual(["res-01", "res-10"]);
    ours.expectUsageAsServed();
    const multi = ours.recordOn("multi_agent", "langgraph-py-multi");
    expect([multi.available, failedIds(multi), multi.items.length], multi.reason).toEqual([true, [], 12]);
    expect(multi.items.every((i) => i.llm_calls === 4 && i.tool_calls.join() === "search")).toBe(true);
    expect(usageMismatches(multi.items)).toEqual([]);
  });

  it("sends a subset of the baseline's keys (no tool_choice), the shared controls, the arena prompt and the canonical tools byte for byte", () => {
    const chars: Record<string, number> = {};
    for (const arena of OUR_SEVEN) {
      const spec = loadArena(path.join(OUR_ARENAS, arena));
      const canonical = dumpsPy(fromJs(specsFor(spec.declaredTools)));
      for (const r of ours.requests(arena)) {
        const body = ours.bodies(arena)[0]!;
        expect(Object.keys(body), arena).toEqual(LG_PY_ORDER);
        expect([...r.body.keys()].filter((k) => !ENVELOPE.has(k as string)), arena).toEqual([]);
        expect(dumpsPy(r.body.get("tools") as never), arena).toBe(canonical);
      }
      for (const body of ours.bodies(arena)) {
        expect([body.model, body.temperature, body.stream], arena).toEqual([DEFAULTS.model, 0, false]);
        expect(body.messages[0], arena).toEqual({ content: spec.systemPrompt, role: "system" });
      }
      chars[arena] = canonical.length;
    }
    expect([chars.tool_use, chars.human_in_the_loop, chars.durable_state]).toEqual([637, 1002, 983]);
  });

  it("replays tool-call turns with content null and tool messages without a name (the baseline's form, unlike LangChain.js)", () => {
    for (const arena of OUR_SEVEN) {
      for (const body of ours.bodies(arena)) {
        for (const m of body.messages) {
          if (m.role === "assistant" && m.tool_calls) expect(m.content, arena).toBeNull();
          if (m.role === "tool") expect(Object.keys(m).sort(), arena).toEqual(["content", "role", "tool_call_id"]);
        }
      }
    }
  });

  it("pauses once per item through interrupt(), resumes the same conversation, and books only on approval", () => {
    expectPausedOnceForApproval(ours.recordOn("human_in_the_loop").items, { above: 150, below: 250 });
    const decisions = ours.bodies("human_in_the_loop").flatMap((b) => b.messages).filter((m: any) => m.role === "tool" && /^Decision: /.test(m.content)).map((m: any) => m.content as string);
    expect(new Set(decisions)).toEqual(new Set(["Decision: approve.", "Decision: deny."]));
  });

  it("durable_state: two searches before the kill, one calculation after, a ~200-byte handle to the SqliteSaver file", () => {
    expectResumedAfterTwoSearches(ours.recordOn("durable_state").items, { above: 150, below: 250 });
  });

  it("resilience: what the model is shown after each fault (no schema check on a dict schema: the canonical tool answers)", () => {
    const items = loadArena(path.join(OUR_ARENAS, "resilience")).items.map((i) => ({ id: i.id, input: i.input }));
    expect(shownAfterFault(ours.bodies("resilience"), items)).toEqual({
      "res-01": "(1 request, no tool call replayed)",
      "res-02": NOT_VALID("slide_rule", "search, calculator"),
      "res-03": "dispatch",
      "res-04": "dispatch",
      "res-05": "dispatch",
      "res-06": "dispatch",
      "res-07": "dispatch",
      "res-08": "dispatch",
      "res-09": "dispatch",
      "res-10": "(1 request, no tool call replayed)",
    });
  });

  it("bills the baseline's prompt tokens per item on every arena (the resilience gap is res-01 and res-10 ending after one call)", () => {
    const perItem = (k: "prompt_tokens" | "llm_calls") => Object.fromEntries(OUR_SEVEN.map((a) => [a, mean(ours.recordOn(a).items.map((i) => i[k]))]));
    // vanilla on the same arenas: 1099.3, 719.3, 902.2, 1116.1, 724.7, 1782.4, 3569.9 (the TS langgraph README's table).
    expect(perItem("prompt_tokens")).toEqual({
      tool_use: 1099.3,
      structured_output: 719.3,
      rag: 902.2,
      resilience: 954.2,
      multi_agent: 724.7,
      human_in_the_loop: 1782.4,
      durable_state: 3569.9,
    });
    expect(perItem("llm_calls")).toEqual({ tool_use: 2.4, structured_output: 2, rag: 2.3, resilience: 2.5, multi_agent: 2, human_in_the_loop: 3.5, durable_state: 5 });
    const stateBytes = (a: string) => mean(ours.recordOn(a).items.map((i) => i.legs![0]!.resume_state_bytes ?? 0));
    expect([stateBytes("human_in_the_loop"), stateBytes("durable_state")]).toEqual([197, 195]);
  });
});

describe("langgraph-py-multi on our multi_agent arena", () => {
  it("runs researcher → writer → editor over one message state, each stage with its own prompt, tools for the researcher only", async () => {
    const { prompt, items } = await ourPipelineRun("langgraph-py-multi");
    const role = (r: "researcher" | "writer" | "editor") => expect.stringMatching(new RegExp(`^${prompt.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\n\\nYou are the ${r} on this pipeline`));
    for (const bodies of items) {
      const stages = stagesOf(bodies);
      expect(stages.at(-2), "writer").toEqual([role("writer"), ""]);
      expect(stages.at(-1), "editor").toEqual([role("editor"), ""]);
      for (const s of stages.slice(0, -2)) expect(s).toEqual([role("researcher"), "search"]);
      // The editor reads the writer's reply: one message more than the writer read.
      expect(bodies.at(-1)!.messages.length).toBe(bodies.at(-2)!.messages.length + 1);
    }
  }, 300_000);
});

describeWithReference("langgraph-py on the reference arenas", () => {
  it("bills 753.5 prompt tokens per item on tool_use, the baseline's figure (seed 000 publishes 753.5 for Python langgraph)", async () => {
    const lg = (await onReferenceArenas("langgraph-py", ["tool_use"])).get("tool_use")!;
    const base = (await onReferenceArenas("vanilla", ["tool_use"])).get("tool_use")!;
    const perItem = (r: typeof lg) => Math.round((total(r, "prompt_tokens") / r.items.length) * 10) / 10;
    expect([total(lg, "prompt_tokens"), perItem(lg), total(base, "prompt_tokens"), perItem(base)]).toEqual([11303, 753.5, 11303, 753.5]);
  }, 300_000);

  it("the pipeline variant bills exactly vanilla-multi's tokens on the reference multi_agent arena (1705.3 prompt per item)", async () => {
    const bill = await referencePipelineBill("langgraph-py-multi");
    expect(bill).toEqual(await referencePipelineBill("vanilla-multi"));
    expect(bill).toEqual(["10/10", 17053, 1980, 40]);
  }, 300_000);
});
