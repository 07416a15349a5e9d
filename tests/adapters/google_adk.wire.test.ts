/**
 * `google_adk` and `google_adk-multi` on scripted one-item runs through the real orchestrator
 * (real worker processes, the real mock gateway, a real restart at the durable pause), judged by
 * the records and by what the gateway received: ADK's maxLlmCalls as the iteration cap on a fresh
 * leg, on a resumed one and over the whole pipeline, a task call batched with the pause, and
 * transport (no retries, the timeout's error class). Every figure and finding here is the one in
 * workers/adapters/google_adk/README.md.
 */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { classifyAdapterError } from "../../orchestrator/run/error-class.ts";
import { PIPELINE_ROLES } from "../../contract/texts.ts";
import { probeRun } from "../probes/support.ts";
import { adapterEntry, OUR_ARENAS } from "../support/run.ts";
import { ANSWER_ONLY, batchedApprovalRun, CAP_EXCEEDED, cappedRun, expectResumedLegFullBudget, expectStoppedAtCap, resumedBudgetRun } from "./support/probes.ts";

describe("google_adk-multi: one budget for the whole pipeline", () => {
  it("a budget of 3 runs out at the editor: three calls, then ADK's cap error ends the item with the writer's draft", async () => {
    const run = await probeRun({ adapter: adapterEntry("google_adk-multi"), arena: path.join(OUR_ARENAS, "multi_agent"), items: ["ma-01"], config: { maxToolIterations: 3 } });
    const item = run.record.items[0]!;
    expect([run.bodies.length, item.llm_calls, item.error, item.tool_calls]).toEqual([3, 3, CAP_EXCEEDED, ["search"]]);
    expect(run.bodies.map((b) => (b.messages as any[])[0].content.endsWith(PIPELINE_ROLES.writer))).toEqual([false, false, true]);
    expect(item.output_text).toBe(run.gateway.responseMessages.at(-1)!.message.get("content"));
  }, 60_000);
});

describe("google_adk on the wire: the cap, a restart, a batched pause, transport", () => {
  const adapter = adapterEntry("google_adk");

  it("maxLlmCalls stops at exactly max_tool_iterations calls; ADK's error event becomes the baseline's error", async () => {
    const run = await cappedRun("google_adk", 3);
    expectStoppedAtCap(run, 3);
    expect(run.record.items[0]!.error_class).toBe("adapter");
  }, 60_000);

  it("gives a resumed leg the full budget across a real restart (one ADK invocation per leg)", async () => {
    expectResumedLegFullBudget(await resumedBudgetRun("google_adk"));
  }, 60_000);

  it("a task call batched with the pause runs before the pause, and its result is lost from the resumed transcript", async () => {
    const run = await batchedApprovalRun("google_adk");
    const item = run.record.items[0]!;
    // book_room ran before the pause, but no request ever carries its result: the wire shows only
    // search_rooms, which is what the record holds; the adapter's own report has both, and
    // `served-result` names the difference.
    expect(item.tool_calls_before_suspend).toEqual(["search_rooms"]);
    expect(item.reported!.tool_calls).toEqual(["search_rooms", "book_room"]);
    expect(item.violations?.find((v) => v.rule === "served-result")?.detail).toBe('tool calls reported ["search_rooms","book_room"], served ["search_rooms"]');
    const resumed = run.bodies.at(-1)!.messages as any[];
    const ids = resumed.find((m) => m.tool_calls)!.tool_calls.map((c: any) => c.function.name);
    expect(ids).toEqual(["search_rooms", "request_approval", "book_room"]);
    // Only the pause tool's answer comes back; a real provider rejects calls left unanswered.
    expect(resumed.filter((m) => m.role === "tool").map((m) => m.content)).toEqual(["Decision: approve."]);
  }, 60_000);

  it("no retries: a 400 and a 429 are one attempt each; a stalled gateway is the provider's timeout (infra) after one attempt", async () => {
    const bad = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [400, 200] } });
    expect([bad.gateway.attempts.length, bad.record.items[0]!.error]).toEqual([1, `ChatCompletionsHttpError: LLM HTTP 400: {"error": {"message": "injected 400", "type": "server_error"}}`]);
    const limited = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [429, 200] } });
    expect(limited.gateway.attempts.length).toBe(1);
    const down = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [500] } });
    expect([down.gateway.attempts.length, down.record.items[0]!.error_class]).toEqual([1, "infra"]);
    const hung = await probeRun({ adapter, arena: ANSWER_ONLY, config: { requestTimeoutS: 1 }, gatewayFaults: { faults: [], stallSeconds: 20 } });
    const item = hung.record.items[0]!;
    // The text alone says timeout; the wire saw the provider stall, so the item is infra (run/provider-faults.ts).
    expect([hung.gateway.attempts.length, item.error, item.error_class]).toEqual([1, "TimeoutError: The operation was aborted due to timeout", "infra"]);
    expect(classifyAdapterError(item.error!)).toBe("timeout");
  }, 120_000);
});
