/**
 * The `langgraph` adapter's durable restart across two OS processes, with nothing in common but a
 * JSON file and the checkpoint directory: leg 1 pauses with a small handle and one SQLite file,
 * leg 2 in a fresh process finishes from them, and neither writes anywhere else. The same figures
 * are the findings in workers/adapters/langgraph/README.md.
 */
import { describe, expect, it } from "vitest";
import { usageOf } from "./support/records.ts";
import { legsInTwoProcesses } from "./support/two-processes.ts";

describe("langgraph: durable across two OS processes (only a JSON file and the checkpoint directory cross)", () => {
  it("leg 1 pauses with a small handle and one SQLite file; leg 2 in a fresh process finishes; nothing is written elsewhere", () => {
    const legs = legsInTwoProcesses("langgraph", 60_000);
    const one = legs.leg("run");
    expect(one.result.suspended).toBe(true);
    expect(one.result.tool_calls.map((c: { name: string }) => c.name)).toEqual(["search", "search"]);
    expect(usageOf(one.result)).toEqual(usageOf(one.served));
    expect(Object.keys(one.result.resume_state).sort()).toEqual(["checkpoint_file", "checkpoint_id", "thread_id"]);
    expect(one.stateBytes).toBeLessThan(250);
    const files = Object.keys(one.files);
    expect(files).toEqual([one.result.resume_state.checkpoint_file]); // no -wal / -shm beside it
    expect(one.files[files[0]!]).toBeGreaterThan(0);

    const two = legs.leg("resume");
    expect(two.result.error ?? null).toBeNull();
    expect(two.result.suspended ?? false).toBe(false);
    expect(two.result.tool_calls.map((c: { name: string }) => c.name)).toEqual(["calculator"]);
    expect(two.result.output_text).toContain("322");
    expect(usageOf(two.result)).toEqual(usageOf(two.served));
    expect(Object.keys(two.files)).toEqual(files);
    legs.expectNothingWrittenElsewhere();
  }, 120_000);
});
