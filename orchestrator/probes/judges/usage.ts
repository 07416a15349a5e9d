/**
 * Usage accounting (probes.md §10): what an adapter reports must equal what the gateway served,
 * per item and per leg — the harness sums legs, so a leg counted twice doubles an item's bill and
 * a leg dropped vanishes from it. Served usage is attributed through each worker's own tagged
 * base URL, so an item with nothing served is an adapter that did not use the configured base_url.
 */
import type { AdapterRecord } from "../../report/record.ts";
import type { WireRun } from "../wire-types.ts";

export type Triple = readonly [number, number, number];

function triple(u: { prompt_tokens: number; completion_tokens: number; llm_calls: number }): Triple {
  return [u.prompt_tokens, u.completion_tokens, u.llm_calls];
}
const show = (t: Triple) => `(${t.join(", ")})`;
const same = (a: Triple, b: Triple) => a.every((x, i) => x === b[i]);

/** Reported (prompt, completion, calls) vs served, per leg, per item, and for the whole gateway; `legs` every item must have had. */
export function usageViolations(run: Pick<WireRun, "record" | "servedUsage">, legs?: number): string[] {
  const adapterRecord: AdapterRecord = run.record;
  if (!adapterRecord.available) return [`${adapterRecord.framework} unavailable (${adapterRecord.unavailable_kind}): ${adapterRecord.reason}`];
  if (adapterRecord.items.length === 0) return ["no items ran"];
  const out: string[] = [];
  const attributed = [0, 0, 0];
  for (const item of adapterRecord.items) {
    const id = item.item_id;
    if (!item.served) {
      out.push(`${id}: the gateway's served usage could not be attributed to the item`);
      continue;
    }
    const served = triple(item.served);
    served.forEach((x, i) => (attributed[i]! += x));
    if (served[2] === 0) out.push(`${id}: the gateway served no request (base_url not used?)`);
    const recorded = item.legs ?? [];
    const n = recorded.length || 1; // the record lists legs only for a paused item
    // A pause arena run that never paused proves nothing per leg.
    if (legs !== undefined && n !== legs) out.push(`${id}: expected ${legs} leg(s), got ${n}${item.error ? ` (error: ${item.error.split("\n")[0]})` : ""}`);
    recorded.forEach((leg, i) => {
      if (!leg.served) {
        out.push(`${id}: leg ${i + 1}: served usage not recorded`);
        return;
      }
      const reported = triple(leg);
      if (!same(reported, triple(leg.served))) out.push(`${id}: leg ${i + 1} reported ${show(reported)} but the gateway served ${show(triple(leg.served))} during it`);
    });
    // The record's figures are the witness's (the gateway's); the adapter's own claim is kept in `reported` when it differs.
    const reported = triple(item.reported ?? item);
    if (!same(reported, served)) out.push(`${id}: reported ${show(reported)} in total but the gateway served ${show(served)}`);
  }
  const total = triple(run.servedUsage);
  if (!same(attributed as unknown as Triple, total)) {
    out.push(`the gateway served ${show(total)} but only ${show(attributed as unknown as Triple)} was attributed to items`);
  }
  return out;
}

/** The baseline's exact numbers (a drifting control moves every comparison). */
export function pinViolations(run: Pick<WireRun, "record">, itemId: string, expected: { total: Triple; legs?: readonly Triple[] }): string[] {
  const item = run.record.items.find((i) => i.item_id === itemId);
  if (!item) return [`${itemId}: not run`];
  const out: string[] = [];
  if (!same(triple(item), expected.total)) out.push(`${itemId}: total ${show(triple(item))} ≠ pinned ${show(expected.total)}`);
  (expected.legs ?? []).forEach((want, i) => {
    const leg = item.legs?.[i];
    if (!leg) out.push(`${itemId}: leg ${i + 1} missing`);
    else if (!same(triple(leg), want)) out.push(`${itemId}: leg ${i + 1} ${show(triple(leg))} ≠ pinned ${show(want)}`);
  });
  return out;
}
