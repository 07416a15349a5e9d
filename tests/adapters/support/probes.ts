/**
 * The scripted one-item runs every adapter suite puts its framework through (a gateway that
 * always asks for a tool, a pause batched with task calls, transport faults), and the figures
 * that do not depend on the framework. What a framework does differently stays in its suite.
 */
import path from "node:path";
import { expect } from "vitest";
import { probeRun, SENTINEL_PROMPT, type InlineArena, type ProbeRun } from "../../probes/support.ts";
import { adapterEntry, OUR_ARENAS } from "../../support/run.ts";

export const CAP_EXCEEDED = "max tool iterations exceeded";

/** A turn that asks for one more calculation. */
const CALCULATE = { tool_calls: [{ name: "calculator", arguments: { expr: "1+1" } }] };

/** One item (approved if it pauses) against a script that plays `turns`, the last one for ever. */
function loopArena(tools: string[], turns: unknown[], durable = false): InlineArena {
  return {
    tools,
    prompt: SENTINEL_PROMPT,
    ...(durable ? { durable: true } : {}),
    items: [{ id: "p-01", input: "loop forever", resume_with: "approve" }],
    script: { default: { turns } },
  };
}

/** One question answered in one call, no tool: for transport faults. */
export const ANSWER_ONLY: InlineArena = {
  tools: ["search"],
  prompt: "Answer the question concisely.",
  items: [{ id: "x-01", input: "How tall is the Eiffel Tower?" }],
  script: { default: { turns: [{ content: "The Eiffel Tower is 330 metres tall." }] } },
};

/** A gateway that asks for a calculation on every call, against a budget of `cap` calls. */
export const cappedRun = (adapter: string, cap: number) =>
  probeRun({ adapter: adapterEntry(adapter), arena: loopArena(["calculator"], [CALCULATE]), config: { maxToolIterations: cap } });

/** Exactly `cap` calls served, each asking for a tool that ran, and the baseline's error at the end. */
export function expectStoppedAtCap(run: ProbeRun, cap: number): void {
  const item = run.record.items[0]!;
  expect([run.bodies.length, item.llm_calls, item.error, item.tool_calls.length]).toEqual([cap, cap, CAP_EXCEEDED, cap]);
}

/** Two calls, a durable pause (save_progress), then a calculation on every call after the restart; a budget of 4. */
export function resumedBudgetRun(adapter: string): Promise<ProbeRun> {
  const turns = [{ tool_calls: [{ name: "calculator", arguments: { expr: "2+2" } }] }, { tool_calls: [{ name: "save_progress", arguments: { note: "4" } }] }, CALCULATE];
  return probeRun({ adapter: adapterEntry(adapter), arena: loopArena(["calculator", "save_progress"], turns, true), config: { maxToolIterations: 4 } });
}

/** The resumed leg gets the whole budget again: 2 calls, the restart, then 4 more, and the cap's error. */
export function expectResumedLegFullBudget(run: ProbeRun): void {
  const item = run.record.items[0]!;
  expect(run.bodies.length).toBe(6);
  expect(item.legs!.map((l) => [l.llm_calls, l.served!.llm_calls, l.suspended])).toEqual([
    [2, 2, true],
    [4, 4, false],
  ]);
  expect(item.error).toBe(CAP_EXCEEDED);
}

/** search_rooms, the pause and book_room in one response, then an answer: what runs before the human decides? */
export function batchedApprovalRun(adapter: string): Promise<ProbeRun> {
  const batch = {
    tool_calls: [
      { name: "search_rooms", arguments: { capacity: 4, day: "monday" } },
      { name: "request_approval", arguments: { summary: "Book R2?" } },
      { name: "book_room", arguments: { room_id: "R2" } },
    ],
  };
  return probeRun({ adapter: adapterEntry(adapter), arena: loopArena(["search_rooms", "request_approval", "book_room"], [batch, { content: "Done." }]) });
}

/** A durable item whose first response batches search, the pause and calculator (a finding, not in any arena script). */
export function batchedSiblingsRun(adapter: string): Promise<ProbeRun> {
  const batch = {
    tool_calls: [
      { name: "search", arguments: { query: "Eiffel Tower" } },
      { name: "request_approval", arguments: { summary: "ok?" } },
      { name: "calculator", arguments: { expr: "2+2" } },
    ],
  };
  return probeRun({
    adapter: adapterEntry(adapter),
    arena: {
      tools: ["search", "calculator", "request_approval"],
      prompt: SENTINEL_PROMPT,
      durable: true,
      items: [{ id: "b-01", input: "batch", resume_with: "approve" }],
      script: { default: { turns: [batch, { content: "done" }] } },
    },
  });
}

/**
 * A researcher → writer → editor pipeline spends one budget for the whole item: a research loop
 * stops at the cap, and a budget of 3 leaves the editor out.
 */
export async function expectOneBudgetForPipeline(adapter: string): Promise<void> {
  const loop = await probeRun({
    adapter: adapterEntry(adapter),
    config: { maxToolIterations: 4 },
    arena: {
      tools: ["search"],
      prompt: SENTINEL_PROMPT,
      items: [{ id: "m-01", input: "loop forever" }],
      script: { default: { turns: [{ tool_calls: [{ name: "search", arguments: { query: "x" } }] }] } },
    },
  });
  expect(loop.bodies.length).toBe(4);
  expect(loop.record.items[0]!.error).toBe(CAP_EXCEEDED);
  const short = await probeRun({ adapter: adapterEntry(adapter), config: { maxToolIterations: 3 }, arena: path.join(OUR_ARENAS, "multi_agent"), items: ["ma-01"] });
  // researcher (tool call), researcher (answer), writer — the editor would be a fourth call.
  expect(short.bodies.map((b) => (b.tools ? "tools" : "no-tools"))).toEqual(["tools", "tools", "no-tools"]);
  expect(short.record.items[0]!.error).toBeNull();
}

/**
 * The resumed-leg cap case for adapters with a pause: c-01 asks for a tool on every call from the
 * start; c-02 pauses on its first call, then asks for a tool on every call after the restart. An
 * adapter that honours the cap makes exactly `cap` LLM calls on each leg, and no more.
 */
export function resumedCapRun(adapter: string, cap: number): Promise<ProbeRun> {
  return probeRun({
    adapter: adapterEntry(adapter),
    config: { maxToolIterations: cap },
    arena: {
      tools: ["calculator", "request_approval"],
      prompt: SENTINEL_PROMPT,
      durable: true,
      items: [
        { id: "c-01", input: "loop forever" },
        { id: "c-02", input: "pause, then loop", resume_with: "approve" },
      ],
      script: {
        scenarios: [
          {
            match: "pause, then loop",
            turns: [{ tool_calls: [{ name: "request_approval", arguments: { summary: "go on" } }] }, CALCULATE],
          },
        ],
        default: { turns: [CALCULATE] },
      },
    },
  });
}

/** c-01 stops at `cap` calls, every one served and asking for a tool; c-02 pauses after one call, then gets `cap` more. */
export function expectEachLegCapped(run: ProbeRun, cap: number): void {
  const [fresh, resumed] = run.record.items;
  expect([fresh!.served?.llm_calls, fresh!.llm_calls, fresh!.tool_calls.length, fresh!.error]).toEqual([
    cap,
    cap,
    cap,
    CAP_EXCEEDED,
  ]);
  expect(resumed!.legs!.map((l) => [l.llm_calls, l.served?.llm_calls, l.tool_calls.length])).toEqual([
    [1, 1, 0],
    [cap, cap, cap],
  ]);
  expect(resumed!.error).toBe(CAP_EXCEEDED);
}
