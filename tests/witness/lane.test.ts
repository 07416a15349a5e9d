/**
 * The lane rules over repeats: each distinct item's input is searched once (not once per repeat),
 * and that must not change what is found — every repeat of a leaking item is flagged, once per
 * item it leaks, and a repeat of the same item is never "another item".
 */
import { describe, expect, it } from "vitest";
import { witnessLane } from "../../orchestrator/witness/witness.ts";
import type { ItemEvidence } from "../../orchestrator/witness/types.ts";

const ZERO = { prompt_tokens: 0, completion_tokens: 0, llm_calls: 0 };

function evidence(itemId: string, repeat: number, input: string, userTexts: readonly string[]): ItemEvidence {
  const requests = userTexts.map((text) => ({ messages: [{ role: "system", content: "S" }, { role: "user", content: text }] }));
  return { itemId, repeat, input, passed: true, legs: [{ requests, served: ZERO, reported: ZERO, answered: true }] };
}

const A = "the first item's input, long enough";
const B = "the second item's input, long enough";
const C = "the third item's input, long enough";

describe("witnessLane across repeats", () => {
  it("flags every repeat that carries another item's input, naming each item once", () => {
    const items = [0, 1, 2].flatMap((r) => [
      evidence("a", r, A, [A]),
      // b's repeats 1 and 2 carry a's and c's inputs, twice each (two requests).
      evidence("b", r, B, r === 0 ? [B] : [B, `${B}\n${A}\n${C}`, `${B}\n${A}\n${C}`]),
      evidence("c", r, C, [C]),
    ]);
    const found = witnessLane(items);
    const flagged = [...found].map(([item, vs]) => [`${item.itemId}.r${item.repeat}`, vs.map((v) => `${v.rule} ${v.leg} ${v.detail}`)]);
    expect(flagged).toEqual([
      ["b.r1", ["cross-item 1 the input of item a appears in this item's requests", "cross-item 1 the input of item c appears in this item's requests"]],
      ["b.r2", ["cross-item 1 the input of item a appears in this item's requests", "cross-item 1 the input of item c appears in this item's requests"]],
    ]);
  });

  it("never counts an item's own repeats as another item", () => {
    const items = [0, 1, 2, 3].map((r) => evidence("a", r, A, [A, A]));
    expect(witnessLane(items).size).toBe(0);
  });
});
