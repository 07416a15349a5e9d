/**
 * `google_adk-py` and `google_adk-py-multi` (google-adk 2.13.0 on the Python host) on scripted
 * one-item runs through the real orchestrator (real Python workers, the real mock gateway, a real
 * restart at the durable pause), judged by the records and by what the gateway received: ADK's
 * `RunConfig(max_llm_calls)` as the iteration cap on a fresh leg, on a resumed one and over the
 * whole pipeline, a task call batched with the pause, and transport (no retries, as the TS twin).
 * Every figure and finding here is the one in workers/adapters/google_adk-py/README.md.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { classifyAdapterError } from "../../orchestrator/run/error-class.ts";
import { PIPELINE_ROLES } from "../../contract/texts.ts";
import { probeRun } from "../probes/support.ts";
import { adapterEntry, OUR_ARENAS } from "../support/run.ts";
import { ANSWER_ONLY, batchedApprovalRun, CAP_EXCEEDED, cappedRun, expectEachLegCapped, expectResumedLegFullBudget, expectStoppedAtCap, resumedBudgetRun, resumedCapRun } from "./support/probes.ts";

describe("google_adk-py: the iteration cap, measured on the wire", () => {
  for (const cap of [3, 6]) {
    it(`max_llm_calls = ${cap}: exactly ${cap} calls reach the gateway, then LlmCallsLimitExceededError becomes the baseline's error`, async () => {
      const run = await cappedRun("google_adk-py", cap);
      expectStoppedAtCap(run, cap);
      expect(run.record.items[0]!.error_class).toBe("adapter");
    }, 120_000);
  }

  it("gives a resumed leg the full budget across a real restart (one ADK invocation per leg)", async () => {
    expectResumedLegFullBudget(await resumedBudgetRun("google_adk-py"));
  }, 120_000);

  it("caps a fresh and a resumed leg alike", async () => {
    expectEachLegCapped(await resumedCapRun("google_adk-py", 4), 4);
  }, 120_000);
});

describe("google_adk-py-multi: one budget for the whole pipeline", () => {
  it("a budget of 3 runs out at the editor: three calls, then ADK's cap error ends the item", async () => {
    const run = await probeRun({ adapter: adapterEntry("google_adk-py-multi"), arena: path.join(OUR_ARENAS, "multi_agent"), items: ["ma-01"], config: { maxToolIterations: 3 } });
    const item = run.record.items[0]!;
    expect([run.bodies.length, item.llm_calls, item.error, item.tool_calls]).toEqual([3, 3, CAP_EXCEEDED, ["search"]]);
    expect(run.bodies.map((b) => ((b.messages as any[])[0].content as string).includes(PIPELINE_ROLES.writer))).toEqual([false, false, true]);
  }, 120_000);
});

describe("google_adk-py-multi: a pause inside the researcher (ResumabilityConfig)", () => {
  it("stops the whole pipeline at the pause, and after the restart finishes the researcher, then runs the writer and the editor once", async () => {
    const run = await probeRun({ adapter: adapterEntry("google_adk-py-multi"), arena: path.join(OUR_ARENAS, "durable_state"), items: ["dur-01"] });
    const item = run.record.items[0]!;
    const stage = (b: any) => (["writer", "editor"] as const).find((r) => (b.messages[0].content as string).includes(PIPELINE_ROLES[r])) ?? "researcher";
    expect([item.passed, item.suspends, item.legs!.map((l) => l.llm_calls)]).toEqual([true, 1, [3, 4]]);
    expect(run.bodies.map(stage)).toEqual(["researcher", "researcher", "researcher", "researcher", "researcher", "writer", "editor"]);
  }, 120_000);
});

describe("google_adk-py: a pause call batched with task calls (a finding, not in any arena script)", () => {
  it("book_room runs before the human decides (as in the TS edition); unlike it, the resumed request answers all three calls", async () => {
    const run = await batchedApprovalRun("google_adk-py");
    const item = run.record.items[0]!;
    const resumed = run.bodies.at(-1)!.messages as any[];
    const names = resumed.find((m) => m.tool_calls)!.tool_calls.map((c: any) => c.function.name);
    const answers = resumed.filter((m) => m.role === "tool").map((m) => [m.tool_call_id, m.content]);
    // ADK runs every call of the turn but the one asking for confirmation; the baseline runs only
    // the calls before the pause. The results are kept in the session and replayed after the restart.
    expect([item.tool_calls_before_suspend, item.reported?.tool_calls, names]).toEqual([
      ["search_rooms", "book_room"],
      ["search_rooms", "book_room"],
      ["search_rooms", "request_approval", "book_room"],
    ]);
    expect(answers.map(([, text]) => text)).toEqual(["[R2] Birch - seats 6\n[R3] Cedar - seats 10\n[R4] Draco - seats 12\n[R5] Elm - seats 20", "Decision: approve.", "Booked Birch (R2), seats 6."]);
    expect(item.violations ?? []).toEqual([]);
  }, 120_000);
});

describe("google_adk-py: transport (AsyncOpenAI, max_retries 0, as the TS twin's one fetch)", () => {
  const adapter = adapterEntry("google_adk-py");

  it("no retries: a 400 and a 429 are one attempt each; a 500 is infra; a stalled gateway ends after one attempt of request_timeout_s", async () => {
    const bad = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [400, 200] } });
    expect([bad.gateway.attempts.length, bad.record.items[0]!.error, bad.record.items[0]!.error_class]).toEqual([1, `ChatCompletionsHttpError: LLM HTTP 400: {"error": {"message": "injected 400", "type": "server_error"}}`, "adapter"]);
    const limited = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [429, 200] } });
    expect(limited.gateway.attempts.length).toBe(1);
    const down = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [500] } });
    expect([down.gateway.attempts.length, down.record.items[0]!.error_class]).toEqual([1, "infra"]);
    const hung = await probeRun({ adapter, arena: ANSWER_ONLY, config: { requestTimeoutS: 1 }, gatewayFaults: { faults: [], stallSeconds: 20 } });
    const item = hung.record.items[0]!;
    // The text alone says timeout; the wire saw the provider stall, so the item is infra (run/provider-faults.ts).
    expect([hung.gateway.attempts.length, item.error, item.error_class]).toEqual([1, "APITimeoutError: Request timed out.", "infra"]);
    expect(classifyAdapterError(item.error!)).toBe("timeout");
  }, 180_000);
});
