/**
 * `google_adk`'s durable restart across two OS processes, with nothing in common but a JSON file
 * and the checkpoint directory: leg 1 pauses with a small handle and one session file, leg 2 in a
 * fresh process finishes from them, neither writes anywhere else, and every socket either opens
 * goes to the loopback gateway (telemetry off). Every figure here is the one in
 * workers/adapters/google_adk/README.md.
 */
import { describe, expect, it } from "vitest";
import { usageOf } from "./support/records.ts";
import { legsInTwoProcesses } from "./support/two-processes.ts";

describe("google_adk: durable across two OS processes, and no connection but the gateway", () => {
  it("leg 1 pauses with a ~200-byte handle and one session file; leg 2 in a fresh process finishes; every socket went to the gateway", () => {
    const legs = legsInTwoProcesses("google_adk", 120_000);
    const one = legs.leg("run");
    expect([one.result.suspended, one.result.tool_calls.map((c: { name: string }) => c.name)]).toEqual([true, ["search", "search"]]);
    expect(usageOf(one.result)).toEqual(usageOf(one.served));
    expect(Object.keys(one.result.resume_state)).toEqual(["session_id", "session_file", "confirmation_ids", "events"]);
    expect(one.stateBytes).toBeLessThan(300);
    expect(Object.keys(one.files)).toEqual([one.result.resume_state.session_file]);
    const two = legs.leg("resume");
    expect([two.result.error ?? null, two.result.suspended ?? false, two.result.tool_calls.map((c: { name: string }) => c.name)]).toEqual([null, false, ["calculator"]]);
    expect(usageOf(two.result)).toEqual(usageOf(two.served));
    for (const leg of [one, two]) {
      expect(leg.connections.length).toBeGreaterThan(0);
      expect(leg.connections.every((c) => c === `127.0.0.1:${leg.port}`), leg.connections.join(", ")).toBe(true);
      expect(leg.lookups.filter((h) => h !== "127.0.0.1")).toEqual([]);
    }
    legs.expectNothingWrittenElsewhere();
  }, 300_000);
});
