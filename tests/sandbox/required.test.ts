/**
 * CI must exercise the sandbox: with ARENA_REQUIRE_SANDBOX=1 (set by .ci/run) a machine where
 * bubblewrap does not work fails here, instead of the sealed suites quietly skipping.
 */
import { describe, expect, it } from "vitest";
import { detectBwrap } from "../../orchestrator/supervisor/sandbox/mode.ts";

describe.runIf(process.env.ARENA_REQUIRE_SANDBOX === "1")("the sandbox is required here", () => {
  it("bubblewrap works, so the sealed suites ran", () => {
    const bwrap = detectBwrap();
    expect(bwrap.ok, JSON.stringify(bwrap)).toBe(true);
  });
});
