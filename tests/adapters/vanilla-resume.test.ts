/** The baseline's resume refuses a state it cannot continue from, naming its Python type (harness.md §7). */
import { describe, expect, it } from "vitest";
import { PAUSED_SIBLING_TEXT } from "../../contract/texts.ts";
import { resumeMessages } from "../../workers/adapters/vanilla/index.ts";

describe("vanilla resume state", () => {
  it.each([
    [null, "NoneType"],
    [[1], "list"],
    [3, "int"],
    [2.5, "float"],
    ["x", "str"],
    [true, "bool"],
    [{ approval_id: "c1" }, "dict"],
  ] as const)("%j is unusable: %s", (state, type) => {
    expect(resumeMessages(state as never, "approve")).toBe(`cannot resume: unusable state ${type}`);
  });

  it("answers the pause with the decision and declines the calls after it", () => {
    const state = { messages: [{ role: "user", content: "hi" }], approval_id: "c1", pending_ids: ["c2"] };
    expect(resumeMessages(state, "deny")).toEqual([
      { role: "user", content: "hi" },
      { role: "tool", tool_call_id: "c1", content: "Decision: deny." },
      { role: "tool", tool_call_id: "c2", content: PAUSED_SIBLING_TEXT },
    ]);
  });
});
