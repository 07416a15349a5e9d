/**
 * `pydantic_ai` and `pydantic_ai-multi` on scripted one-item runs through the real orchestrator
 * (real worker processes, the real mock gateway, a real restart at every durable pause), judged on
 * the wire: the cap (exactly N calls, with usage as served on that error path), a resumed leg's
 * budget, pauses batched with sibling calls, a reply pydantic_ai cannot use, transport retries,
 * and the pipeline's single budget. The figures are the findings in
 * workers/adapters/pydantic_ai/README.md; whole arenas are pydantic_ai.arenas.test.ts.
 */
import { describe, expect, it } from "vitest";
import { PAUSED_SIBLING_TEXT } from "../../contract/texts.ts";
import { probeRun, SENTINEL_PROMPT } from "../probes/support.ts";
import { adapterEntry } from "../support/run.ts";
import {
  ANSWER_ONLY,
  batchedApprovalRun,
  batchedSiblingsRun,
  cappedRun,
  expectEachLegCapped,
  expectOneBudgetForPipeline,
  expectResumedLegFullBudget,
  expectStoppedAtCap,
  resumedBudgetRun,
  resumedCapRun,
} from "./support/probes.ts";
import { usageMismatches, usageOf } from "./support/records.ts";
import type { Body } from "./support/wire.ts";

/** The tool messages of the last request, as [tool name, content]. */
function toolAnswers(bodies: readonly Record<string, any>[]): [string, string][] {
  const last: Body[] = bodies.at(-1)!.messages;
  const names = new Map<string, string>();
  for (const m of last) for (const c of (m.tool_calls as any[] | undefined) ?? []) names.set(c.id, c.function.name);
  return last.filter((m) => m.role === "tool").map((m): [string, string] => [names.get(m.tool_call_id as string)!, m.content as string]);
}

describe("pydantic_ai: the iteration cap (UsageLimits.request_limit)", () => {
  it("stops at exactly max_tool_iterations calls on the wire, ends with the baseline's error and reports the usage served", async () => {
    const run = await cappedRun("pydantic_ai", 3);
    expectStoppedAtCap(run, 3);
    const item = run.record.items[0]!;
    // UsageLimitExceeded is raised before request 4 is sent; the run's usage is read off the AgentRun.
    expect(usageOf(item.reported! as any)).toEqual(usageOf(item.served!));
    expect(usageMismatches(run.record.items)).toEqual([]);
  }, 60_000);

  for (const cap of [4, 7]) {
    it(`exactly ${cap} calls on a fresh leg and on a resumed one`, async () => {
      expectEachLegCapped(await resumedCapRun("pydantic_ai", cap), cap);
    }, 120_000);
  }

  it("gives a resumed leg the full budget across a real restart (a resumed run has its own RunUsage)", async () => {
    expectResumedLegFullBudget(await resumedBudgetRun("pydantic_ai"));
  }, 60_000);
});

describe("pydantic_ai: pauses batched with sibling calls", () => {
  it("search_rooms runs, the pause defers, book_room after it is deferred too and answered PAUSED_SIBLING_TEXT on resume", async () => {
    const run = await batchedApprovalRun("pydantic_ai");
    const item = run.record.items[0]!;
    expect([item.tool_calls_before_suspend, item.legs!.map((l) => l.tool_calls), item.passed, item.violations]).toEqual([
      ["search_rooms"],
      [["search_rooms"], []],
      true,
      undefined,
    ]);
    expect(toolAnswers(run.bodies).map(([name, content]) => [name, content.slice(0, 20)])).toEqual([
      ["search_rooms", expect.any(String)],
      ["request_approval", "Decision: approve."],
      ["book_room", PAUSED_SIBLING_TEXT.slice(0, 20)],
    ]);
  }, 60_000);

  it("on a durable arena: search before the pause, calculator after it deferred, across the restart", async () => {
    const run = await batchedSiblingsRun("pydantic_ai");
    const item = run.record.items[0]!;
    expect([item.legs!.map((l) => l.tool_calls), item.passed, item.violations]).toEqual([[["search"], []], true, undefined]);
    expect(toolAnswers(run.bodies).map(([name, content]) => [name, name === "search" ? "…" : content])).toEqual([
      ["search", "…"],
      ["request_approval", "Decision: approve."],
      ["calculator", PAUSED_SIBLING_TEXT],
    ]);
  }, 60_000);
});

describe("pydantic_ai: a reply it cannot use", () => {
  it("an empty reply: pydantic_ai asks once more under a system message of its own, then gives up (UnexpectedModelBehavior); usage as served on that error path", async () => {
    const arena = { tools: ["calculator"], prompt: SENTINEL_PROMPT, items: [{ id: "e-01", input: "say nothing" }], script: { default: { turns: [{ content: "" }] } } };
    const run = await probeRun({ adapter: adapterEntry("pydantic_ai"), arena, config: { maxToolIterations: 6 } });
    const item = run.record.items[0]!;
    expect([run.bodies.length, item.llm_calls, item.error]).toEqual([RETRIED_EMPTY.calls, RETRIED_EMPTY.calls, RETRIED_EMPTY.error]);
    expect(usageMismatches(run.record.items)).toEqual([]);
    // The retry drops the empty reply from the history and adds a system message of its own after
    // the input: a second system text, which the witness names (a finding; no arena serves an empty reply).
    expect(run.bodies[1]!.messages.slice(1)).toEqual([
      { role: "user", content: "say nothing" },
      { role: "system", content: "Please return text or call a tool." },
    ]);
    expect(item.violations!.map((v) => [v.rule, v.request])).toEqual([
      ["system-prompt", 2],
      ["transcript", 2],
    ]);
  }, 60_000);
});

describe("pydantic_ai: transport (AsyncOpenAI, max_retries=2)", () => {
  it("the openai client retries a 429 and never a 400 (pydantic_ai's ModelRequestRejectedError)", async () => {
    const adapter = adapterEntry("pydantic_ai");
    const limited = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [429, 200] } });
    expect([limited.gateway.attempts.length, limited.record.items[0]!.output_text]).toEqual([2, "The Eiffel Tower is 330 metres tall."]);
    const bad = await probeRun({ adapter, arena: ANSWER_ONLY, gatewayFaults: { faults: [400, 200] } });
    expect([bad.gateway.attempts.length, bad.record.items[0]!.error]).toEqual([1, BAD_REQUEST_ERROR]);
  }, 60_000);
});

describe("pydantic_ai-multi on multi_agent", () => {
  it("one budget for the whole pipeline: the research loop stops at the cap; a short budget skips the editor", async () => {
    await expectOneBudgetForPipeline("pydantic_ai-multi");
  }, 120_000);
});

// Filled in from the first run (see the README's findings).
const RETRIED_EMPTY = { calls: 2, error: "UnexpectedModelBehavior: Exceeded maximum output retries (1)" };
const BAD_REQUEST_ERROR = "ModelRequestRejectedError: status_code: 400, model_name: gpt-4.1-mini, body: {'message': 'injected 400', 'type': 'server_error'}";
