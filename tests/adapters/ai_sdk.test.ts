/**
 * `ai_sdk` and `ai_sdk-multi` through the real orchestrator (real worker processes, the real mock
 * gateway, a real restart at every durable pause), judged by the records and by what the gateway
 * received; plus one in-process run that watches the SDK's telemetry hooks and every fetch.
 * Every deviation from the baseline is the SDK's own behaviour, asserted as such and explained in
 * workers/adapters/ai_sdk/README.md.
 */
import { tracingChannel } from "node:diagnostics_channel";
import path from "node:path";
import { registerTelemetry } from "ai";
import { describe, expect, it } from "vitest";
import { loadArena } from "../../orchestrator/arena/load.ts";
import { DEFAULTS } from "../../orchestrator/config/arena-config.ts";
import { createGateway } from "../../orchestrator/gateway/index.ts";
import { dumpsPy, fromJs, type PyValue } from "@agentic-arena/py-semantics";
import { disableTelemetry } from "../../contract/telemetry.ts";
import { isSuspendTool, namesFor, specsFor } from "../../contract/tools/registry.ts";
import { PIPELINE_ROLES } from "../../contract/texts.ts";
import aiSdk from "../../workers/adapters/ai_sdk/index.ts";
import { LEAD_ROLE } from "../../workers/adapters/ai_sdk/multi.ts";
import { probeRun } from "../probes/support.ts";
import { adapterEntry, OUR_ARENAS } from "../support/run.ts";
import { ourArenas, ourPipelineRun } from "./support/our-arenas.ts";
import { expectPausedOnceForApproval, expectResumedAfterTwoSearches } from "./support/pauses.ts";
import { ANSWER_ONLY, batchedApprovalRun, cappedRun, expectResumedLegFullBudget, expectStoppedAtCap, resumedBudgetRun } from "./support/probes.ts";
import { ALL_PASSED, OUR_SEVEN } from "./support/records.ts";
import { dispatched, expectEachToolAnswer, expectReplayedVerbatim, expectToolCallsAsOnWire, stagesOf, type AnswerJudge } from "./support/wire.ts";

/** What the SDK puts in a body: the baseline's envelope minus `stream` (absent when not streaming). */
const BODY_KEYS = ["messages", "model", "temperature", "tool_choice", "tools"];
/** The SDK's own texts for a call it will not run (resilience res-01, res-02): a finding. */
const SDK_BAD_JSON = /^AI_InvalidToolInputError: Invalid input for tool calculator: AI_JSONParseError: JSON parsing failed: /;
const SDK_NO_TOOL = /^AI_NoSuchToolError: Model tried to call unavailable tool 'slide_rule'\. Available tools: search, calculator\.$/;

/** Every tool message is dispatch's string on the replayed arguments, the decision text, or the SDK's own text for res-01/res-02. */
function sdkAnswers(delegates: readonly string[] = []): AnswerJudge {
  return (call, content, where) => {
    if (isSuspendTool(call.name)) expect(content, where).toMatch(/^Decision: (approve|deny)\.$/);
    else if (delegates.includes(call.name)) expect(typeof content, where).toBe("string");
    else if (call.name === "slide_rule") expect(content, where).toMatch(SDK_NO_TOOL);
    else if (SDK_BAD_JSON.test(content)) expect(call.arguments, `${where}: the broken arguments are replayed as {}`).toBe("{}");
    else expect(content, where).toBe(dispatched(call.name, call.arguments));
  };
}

describe("ai_sdk on our seven arenas", () => {
  const ours = ourArenas("ai_sdk");

  it("passes every item; the witness sees only the SDK's own answers to a broken and an unknown tool call", () => {
    expect(ours.passCounts()).toEqual(ALL_PASSED);
    const violations = OUR_SEVEN.flatMap((a) => ours.recordOn(a).items.flatMap((i) => (i.violations ?? []).map((v) => `${a}/${i.item_id} ${v.rule}`)));
    // Requests 2 and 3 of each item carry the SDK's text (arenas/expectations.toml, rule tool-output).
    expect(violations).toEqual(["resilience/res-01 tool-output", "resilience/res-01 tool-output", "resilience/res-02 tool-output", "resilience/res-02 tool-output"]);
  });

  it("reports exactly the usage the gateway served, per item and per leg (totalUsage, not the last step's usage)", () => {
    ours.expectUsageAsServed();
  });

  it("puts only the shared controls on the wire: the model, temperature, the arena prompt, tool_choice auto, no stream key", () => {
    for (const arena of OUR_SEVEN) {
      const spec = loadArena(path.join(OUR_ARENAS, arena));
      for (const body of ours.bodies(arena)) {
        expect(Object.keys(body).sort(), arena).toEqual(BODY_KEYS);
        expect([body.model, body.temperature, body.tool_choice], arena).toEqual([DEFAULTS.model, 0, "auto"]);
        expect(body.messages[0], arena).toEqual({ role: "system", content: spec.systemPrompt });
      }
    }
  });

  it("advertises the canonical tools block byte for byte (the baseline's billed characters)", () => {
    for (const arena of OUR_SEVEN) {
      const declared = loadArena(path.join(OUR_ARENAS, arena)).declaredTools;
      for (const r of ours.requests(arena)) expect(dumpsPy(r.body.get("tools") as PyValue), arena).toBe(dumpsPy(fromJs(specsFor(declared))));
    }
  });

  it("replays the whole transcript on every call; tool results are dispatch's strings byte for byte", () => {
    for (const arena of OUR_SEVEN) expectReplayedVerbatim(arena, ours.bodies(arena), sdkAnswers());
  });

  it("reports as tool_calls every task call in order, the broken and the unknown one included, never a pause tool", () => {
    for (const arena of OUR_SEVEN) expectToolCallsAsOnWire(arena, ours.recordOn(arena).items, ours.bodies(arena));
    const res02 = ours.recordOn("resilience").items.find((i) => i.item_id === "res-02")!;
    expect(res02.tool_calls).toEqual(["slide_rule", "calculator"]);
  });

  it("pauses on human_in_the_loop via a tool-approval request: once per item, book_room only after an approval", () => {
    // The handle is the message list without the system prompt (the SDK keeps instructions outside it).
    expectPausedOnceForApproval(ours.recordOn("human_in_the_loop").items, { above: 600, below: 1_000 });
  });

  it("resumes durable_state in a fresh process from the message list alone (resumed, not restarted)", () => {
    expectResumedAfterTwoSearches(ours.recordOn("durable_state").items, { above: 1_500, below: 2_700 });
  });
});

describe("ai_sdk-multi on multi_agent (sub-agents as tools: researcher leads, writer and editor delegates)", () => {
  it("passes every item in six calls, delegates on the wire and out of tool_calls, usage as served", async () => {
    const { adapterRecord, prompt, items } = await ourPipelineRun("ai_sdk-multi");
    for (const item of adapterRecord.items) expect([item.llm_calls, item.tool_calls, item.violations], item.item_id).toEqual([6, ["search"], undefined]);
    const lead = [`${prompt}\n\n${LEAD_ROLE}`, "search,writer,editor"];
    for (const bodies of items) {
      expect(stagesOf(bodies)).toEqual([lead, lead, [`${prompt}\n\n${PIPELINE_ROLES.writer}`, ""], lead, [`${prompt}\n\n${PIPELINE_ROLES.editor}`, ""], lead]);
      // Each delegate reads the lead's conversation so far, then its task.
      expect(bodies[2]!.messages.slice(1, -1)).toEqual(bodies[1]!.messages.slice(1));
      expect(bodies[4]!.messages.slice(1, -1)).toEqual(bodies[3]!.messages.slice(1));
      for (const body of bodies) expectEachToolAnswer("multi_agent", body, sdkAnswers(["writer", "editor"]));
    }
  }, 120_000);
});

describe("ai_sdk on the wire: the cap, a batched pause, transport", () => {
  const adapter = adapterEntry("ai_sdk");

  it("stops at exactly max_tool_iterations LLM calls (isStepCount) and ends with the baseline's error", async () => {
    expectStoppedAtCap(await cappedRun("ai_sdk", 3), 3);
  }, 60_000);

  it("gives a resumed leg the full budget across a real restart (the step count starts again per call)", async () => {
    expectResumedLegFullBudget(await resumedBudgetRun("ai_sdk"));
  }, 60_000);

  it("runs a task call batched after the pause call before the pause (finding: only the approval-bound call is held)", async () => {
    const item = (await batchedApprovalRun("ai_sdk")).record.items[0]!;
    expect([item.tool_calls_before_suspend, item.passed]).toEqual([["search_rooms", "book_room"], true]);
  }, 60_000);

  it("retries a 429 once after the SDK's 2 s backoff, never a 400 (the status kept in the error)", async () => {
    const limited = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [429, 200] } });
    expect([limited.gateway.attempts.length, limited.record.items[0]!.output_text]).toEqual([2, "The Eiffel Tower is 330 metres tall."]);
    const bad = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [400, 200] } });
    expect([bad.gateway.attempts.length, bad.record.items[0]!.error]).toEqual([1, "AI_APICallError: injected 400 (status code 400)"]);
  }, 60_000);

  it("bounds one attempt by request_timeout_s and never retries it: one attempt, the provider's timeout (infra by the wire)", async () => {
    const run = await probeRun({ adapter, arena: ANSWER_ONLY, config: { requestTimeoutS: 1 }, gatewayFaults: { faults: [], stallSeconds: 10 } });
    const item = run.record.items[0]!;
    // The gateway saw the attempt abandoned while it stalled: a provider timeout, whatever the text says (run/provider-faults.ts).
    expect([run.gateway.attempts.length, item.error, item.error_class]).toEqual([1, "TimeoutError: The operation was aborted due to timeout", "infra"]);
    expect(item.provider_faults).toEqual([{ leg: 1, fault: "timeout", status: null }]);
    expect(item.latency_s).toBeLessThan(5);
  }, 60_000);
});

describe("ai_sdk in-process: telemetry off, nothing leaves the gateway", () => {
  it("a registered telemetry integration and the ai:telemetry tracing channel see nothing; every fetch goes to the gateway", async () => {
    const arena = loadArena(path.join(OUR_ARENAS, "human_in_the_loop"));
    const gateway = createGateway({ script: arena.script, arenaTools: namesFor(arena.declaredTools) });
    const { baseUrl } = await gateway.start();
    const events: string[] = [];
    registerTelemetry({ onStart: () => void events.push("onStart"), onStepStart: () => void events.push("onStepStart") });
    const channel = tracingChannel("ai:telemetry");
    const traced = { start: () => void events.push("trace") };
    channel.subscribe(traced as any);
    const urls: string[] = [];
    const realFetch = globalThis.fetch;
    globalThis.fetch = ((input: any, init?: any) => {
      urls.push(String(input instanceof Request ? input.url : input));
      return realFetch(input, init);
    }) as typeof fetch;
    try {
      const runner = await aiSdk.build(
        { id: arena.id, tools: [...arena.declaredTools], systemPrompt: arena.systemPrompt, durable: arena.durable },
        { model: "mock-model", baseUrl, apiKey: "mock-key", temperature: 0, requestTimeoutS: 30, maxToolIterations: 6 },
        { tools: { dispatch: dispatched } },
      );
      const spec = arena.items[0]!;
      const work = { id: spec.id, input: spec.input, resume_with: spec.resume_with, checkpointDir: "" };
      const first = await runner.run(work);
      expect(first.suspended).toBe(true);
      const second = await runner.resume!(work, JSON.parse(JSON.stringify(first.resume_state)), "approve");
      expect(second.error ?? null).toBeNull();
    } finally {
      globalThis.fetch = realFetch;
      channel.unsubscribe(traced as any);
      await gateway.stop();
    }
    expect(events).toEqual([]);
    expect(urls.length).toBeGreaterThan(0);
    for (const url of urls) expect(url.startsWith(`${baseUrl}/`), url).toBe(true);
  }, 60_000);

  it("workers lose the Vercel AI Gateway credentials a bare string model id would use", () => {
    const env = disableTelemetry({ AI_GATEWAY_API_KEY: "k", VERCEL_OIDC_TOKEN: "t", PATH: "/bin" });
    expect(env).toEqual(expect.objectContaining({ PATH: "/bin" }));
    expect(["AI_GATEWAY_API_KEY", "VERCEL_OIDC_TOKEN"].filter((k) => k in env)).toEqual([]);
  });
});
