import { describe, expect, it } from "vitest";
import {
  checkDeclaredDelegates,
  CONTROL_TOOLS,
  DelegateCollisionError,
  HANDOFF_PREFIX,
  isControlTool,
  isSuspendTool,
  namesFor,
  specsFor,
  SUSPEND_TOOLS,
  TOOL_NAMES,
} from "../../contract/tools/index.ts";

describe("namesFor / specsFor (tools.md §2)", () => {
  it("declares everything, in registry order, when nothing is declared", () => {
    expect(namesFor()).toEqual([...TOOL_NAMES]);
    expect(namesFor(null)).toEqual([...TOOL_NAMES]);
    expect(namesFor([])).toEqual([...TOOL_NAMES]);
  });

  it("keeps registry order, collapses duplicates and drops unknown names", () => {
    expect(namesFor(["calculator", "search"])).toEqual(["search", "calculator"]);
    expect(namesFor(["book_room", "teleport", "search_rooms", "request_approval", "book_room"])).toEqual([
      "search_rooms",
      "request_approval",
      "book_room",
    ]);
    expect(namesFor(["teleport"])).toEqual([]);
  });

  it("maps names to the canonical spec objects", () => {
    expect(specsFor(["search", "calculator"]).map((s) => s.function.name)).toEqual(["search", "calculator"]);
    expect(specsFor(["save_progress", "calculator", "search"]).map((s) => s.function.name)).toEqual([
      "search",
      "calculator",
      "save_progress",
    ]);
  });
});

describe("suspend and control tools (tools.md §7, §8)", () => {
  it("pauses on request_approval and save_progress only", () => {
    expect(SUSPEND_TOOLS).toEqual(["request_approval", "save_progress"]);
    expect(isSuspendTool("request_approval")).toBe(true);
    expect(isSuspendTool("save_progress")).toBe(true);
    expect(isSuspendTool("book_room")).toBe(false);
  });

  it("exempts exactly final_answer, transfer_to_* and declared delegates", () => {
    expect(CONTROL_TOOLS).toEqual(["final_answer"]);
    expect(HANDOFF_PREFIX).toBe("transfer_to_");
    expect(isControlTool("final_answer")).toBe(true);
    expect(isControlTool("transfer_to_writer")).toBe(true);
    expect(isControlTool("transfer_to_agent")).toBe(true);
    expect(isControlTool("writer")).toBe(false);
    expect(isControlTool("writer", ["writer"])).toBe(true);
    expect(isControlTool("final_answer_now")).toBe(false);
    expect(isControlTool("search")).toBe(false);
  });

  it("rejects a delegate named like an arena tool, with the exact message", () => {
    expect(() => checkDeclaredDelegates(["writer"], ["search", "calculator"])).not.toThrow();
    expect(() => checkDeclaredDelegates(["writer", "search"], ["search", "calculator"])).toThrow(
      new DelegateCollisionError(["search"]),
    );
    let error: unknown;
    try {
      checkDeclaredDelegates(["search", "calculator", "search", "writer"], ["calculator", "search"]);
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(DelegateCollisionError);
    expect((error as DelegateCollisionError).collisions).toEqual(["calculator", "search"]);
    expect((error as Error).message).toBe(
      "adapter declared ['calculator', 'search'] as delegates, but the arena declares them as tools — a delegate exemption may not cover a task capability",
    );
  });

  it("sorts and quotes like Python", () => {
    const err = new DelegateCollisionError(["o'k"]);
    expect(err.message.startsWith(`adapter declared ["o'k"] as delegates`)).toBe(true);
    // Code-point order puts U+FFFF before U+1F600 (UTF-16 order would not); U+FFFF is escaped by repr.
    expect(() => checkDeclaredDelegates(["\u{1F600}", "\uffff"], ["\u{1F600}", "\uffff"])).toThrow(
      "adapter declared ['\\uffff', '\u{1F600}'] as delegates",
    );
  });
});
