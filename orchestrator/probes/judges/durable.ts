/**
 * Durable across a real restart (probes.md §13), on the harness path: at the pause the worker is
 * SIGKILLed and the resume runs in a fresh process that never saw the item, with nothing between
 * them but the JSON resume_state and the item's checkpoint directory. Leg 2 must succeed, carry on
 * from the pause (its own tools only: resumed, not restarted) and reach the answer.
 */
import type { Arena } from "../../arena/schemas.ts";
import type { ItemRecord } from "../../report/record.ts";
import type { WireRun } from "../wire-types.ts";

export interface DurableExpectation {
  readonly itemId: string;
  /** Text the final answer must contain (e.g. "498"). */
  readonly answer: string;
  /** Tool names per leg, e.g. [["search", "search"], ["calculator"]]. */
  readonly legTools: readonly (readonly string[])[];
}

/** The reference dur-01 of probes.md §13. */
export const REFERENCE_DUR01: DurableExpectation = { itemId: "dur-01", answer: "498", legTools: [["search", "search"], ["calculator"]] };

/** Expectations read from a durable arena's own checks: the numeric answer, and the search/calc legs. */
export function expectationsFor(arena: Arena): DurableExpectation[] {
  return arena.items.map((item) => {
    const numeric = item.checks.find((c) => c.get("type") === "numeric_equals");
    return { itemId: item.id, answer: String(numeric?.get("value")), legTools: [["search", "search"], ["calculator"]] };
  });
}

const eq = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const show = (xs: readonly string[]) => JSON.stringify(xs);
const firstLine = (error: string) => error.split("\n")[0]!.slice(0, 160);

export function durableItemViolations(item: ItemRecord | undefined, want: DurableExpectation): string[] {
  const id = want.itemId;
  if (!item) return [`${id}: not run`];
  const out: string[] = [];
  const legs = item.legs ?? [];
  if (legs.length !== want.legTools.length) {
    out.push(`${id}: ${legs.length || 1} leg(s) completed, expected ${want.legTools.length}${item.error ? ` — leg 2 failed in the fresh process: ${firstLine(item.error)}` : ""}`);
  } else if (item.error) {
    out.push(`${id}: error after the restart: ${firstLine(item.error)}`);
  }
  if (legs[0] && !legs[0].suspended) out.push(`${id}: leg 1 did not suspend`);
  want.legTools.forEach((tools, i) => {
    const leg = legs[i];
    if (leg && !eq(leg.tool_calls, tools)) out.push(`${id}: leg ${i + 1} tools ${show(leg.tool_calls)}, expected ${show(tools)}${i > 0 ? " (resumed, not restarted)" : ""}`);
  });
  if (!item.error && !item.output_text.includes(want.answer)) out.push(`${id}: answer ${JSON.stringify(item.output_text.slice(0, 120))} does not contain ${want.answer}`);
  return out;
}

export function durableViolations(run: Pick<WireRun, "record" | "requestTags">, wants: readonly DurableExpectation[]): string[] {
  const adapterRecord = run.record;
  if (!adapterRecord.available) return [`unavailable (${adapterRecord.unavailable_kind}): ${adapterRecord.reason}`];
  const out = wants.flatMap((w) => durableItemViolations(adapterRecord.items.find((i) => i.item_id === w.itemId), w));
  // On the wire: a one-item run whose legs all reached the gateway came from as many worker tags as legs.
  if (wants.length === 1 && out.length === 0) {
    const tags = new Set(run.requestTags);
    if (tags.size < wants[0]!.legTools.length) out.push(`every request came from ${tags.size} worker(s): the resume did not run in a fresh process`);
  }
  return out;
}
