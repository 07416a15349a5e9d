/** The default number of items in flight: mock mode leaves the orchestrator's thread a core. */
import { describe, expect, it } from "vitest";
import { defaultConcurrency } from "../../orchestrator/run/session.ts";

describe("defaultConcurrency", () => {
  it("mock mode: one core fewer than the machine has, never below one", () => {
    expect(defaultConcurrency("mock", 8)).toBe(7);
    expect(defaultConcurrency("mock", 2)).toBe(1);
    expect(defaultConcurrency("mock", 1)).toBe(1);
  });

  it("live mode: one per core (a live run waits on the provider, not on our CPU)", () => {
    expect(defaultConcurrency("live", 8)).toBe(8);
    expect(defaultConcurrency("live", 1)).toBe(1);
  });
});
