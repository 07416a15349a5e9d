/**
 * The resumed-leg cap case for adapters with a pause: c-01 asks for a tool on every call from the
 * start; c-02 pauses on its first call, then asks for a tool on every call after the restart. An
 * adapter that honours the cap makes exactly `cap` LLM calls on each leg, and no more. The run and
 * what any adapter must show on it are here; each suite adds what its framework shows besides.
 */
import { expect } from "vitest";
import { probeRun, SENTINEL_PROMPT, type ProbeRun } from "../probes/support.ts";
import { adapterEntry } from "./run.ts";

const CALCULATE = { tool_calls: [{ name: "calculator", arguments: { expr: "1+1" } }] };

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
    "max tool iterations exceeded",
  ]);
  expect(resumed!.legs!.map((l) => [l.llm_calls, l.served?.llm_calls, l.tool_calls.length])).toEqual([
    [1, 1, 0],
    [cap, cap, cap],
  ]);
  expect(resumed!.error).toBe("max tool iterations exceeded");
}
