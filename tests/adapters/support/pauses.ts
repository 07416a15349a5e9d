/**
 * The pause arenas judged the same way for every adapter: what ran before the pause, what after
 * the decision or the restart, and how big a handle crossed the restart. The bounds on the handle
 * are each framework's own (its README explains what travels); the shape of the legs is not.
 */
import path from "node:path";
import { expect } from "vitest";
import { loadArena } from "../../../orchestrator/arena/load.ts";
import type { ItemRecord } from "../../../orchestrator/report/record.ts";
import { OUR_ARENAS } from "../../support/run.ts";

/** Bounds on the first leg's resume_state, in bytes (exclusive). */
export interface StateBytes {
  readonly above?: number;
  readonly below: number;
}

function expectStateBytes(item: ItemRecord, bounds: StateBytes | undefined): void {
  if (!bounds) return;
  const bytes = item.legs![0]!.resume_state_bytes;
  if (bounds.above !== undefined) expect(bytes, item.item_id).toBeGreaterThan(bounds.above);
  expect(bytes, item.item_id).toBeLessThan(bounds.below);
}

/** Each human_in_the_loop item's decision; an item without one is approved. */
function decisions(): Map<string, string> {
  return new Map(loadArena(path.join(OUR_ARENAS, "human_in_the_loop")).items.map((i) => [i.id, i.resume_with || "approve"]));
}

/**
 * human_in_the_loop: one pause per item, taken after search_rooms; the pause tool is never
 * reported as a task call; book_room runs on the resumed leg exactly when the decision approves.
 */
export function expectPausedOnceForApproval(items: readonly ItemRecord[], stateBytes?: StateBytes): void {
  const decisionOf = decisions();
  for (const item of items) {
    const booked = decisionOf.get(item.item_id) === "approve" ? ["book_room"] : [];
    expect(item.suspends, item.item_id).toBe(1);
    expect(item.tool_calls, item.item_id).not.toContain("request_approval");
    expect(item.tool_calls_before_suspend, item.item_id).toEqual(["search_rooms"]);
    expect(item.legs!.map((l) => l.tool_calls), item.item_id).toEqual([["search_rooms"], booked]);
    expect(item.tool_calls, item.item_id).toEqual(["search_rooms", ...booked]);
    expectStateBytes(item, stateBytes);
  }
}

/** durable_state: one restart per item, two searches before it and one calculation after (resumed, not restarted). */
export function expectResumedAfterTwoSearches(items: readonly ItemRecord[], stateBytes?: StateBytes): void {
  for (const item of items) {
    expect(item.suspends, item.item_id).toBe(1);
    expect(item.legs!.map((l) => l.tool_calls), item.item_id).toEqual([["search", "search"], ["calculator"]]);
    expectStateBytes(item, stateBytes);
  }
}
