/**
 * The pause is observed by the harness (probes.md §12): on human_in_the_loop every item suspends
 * exactly once (the harness saw `suspended`, not the agent's prose), the pause tool never shows up
 * among executed tool calls, and `book_room` runs exactly on the approved items (`resume_with`
 * approve) and only after the pause. An adapter without `resume` is reported unavailable as
 * `unsupported` — never as failing items.
 */
import type { Arena } from "../../arena/schemas.ts";
import type { AdapterRecord } from "../../report/record.ts";
import { SUSPEND_TOOLS } from "../../../contract/tools/registry.ts";
import { UNSUPPORTED_REASON } from "../declarations.ts";

/** How an adapter without resume must be reported. */
export function unsupportedViolations(adapterRecord: AdapterRecord): string[] {
  const out: string[] = [];
  if (adapterRecord.available) out.push(`reported available with ${adapterRecord.items.length} items (expected unsupported)`);
  if (adapterRecord.unavailable_kind !== "unsupported") out.push(`unavailable_kind ${adapterRecord.unavailable_kind} (expected unsupported)`);
  if (adapterRecord.reason !== UNSUPPORTED_REASON) out.push(`reason ${JSON.stringify(adapterRecord.reason)}`);
  if (adapterRecord.items.length > 0) out.push(`${adapterRecord.items.length} items scored for an unsupported adapter`);
  return out;
}

const count = (xs: readonly string[], name: string) => xs.filter((x) => x === name).length;

export function pauseViolations(adapterRecord: AdapterRecord, arena: Arena): string[] {
  if (!adapterRecord.available) return [`unavailable (${adapterRecord.unavailable_kind}): ${adapterRecord.reason}`];
  const out: string[] = [];
  const ran = new Map(adapterRecord.items.map((i) => [i.item_id, i]));
  const passed = adapterRecord.items.filter((i) => i.passed).length;
  if (passed !== arena.items.length) out.push(`${passed}/${arena.items.length} items passed`);
  for (const spec of arena.items) {
    const item = ran.get(spec.id);
    if (!item) {
      out.push(`${spec.id}: not run`);
      continue;
    }
    const id = spec.id;
    const suspends = item.suspends ?? 0;
    if (suspends !== 1) out.push(`${id}: suspended ${suspends} times (expected exactly once)${item.error ? `; error: ${item.error.slice(0, 100)}` : ""}`);
    const before = item.tool_calls_before_suspend ?? [];
    for (const tool of SUSPEND_TOOLS) {
      // The record's calls are the served ones, which never list a pause tool; the adapter's own report may.
      const reported = item.reported?.tool_calls ?? [];
      if (item.tool_calls.includes(tool) || before.includes(tool) || reported.includes(tool)) out.push(`${id}: ${tool} appears in tool_calls (a pause tool is not an executed tool)`);
    }
    const bookings = count(item.tool_calls, "book_room");
    const approve = spec.resume_with === "approve";
    if (approve && bookings !== 1) out.push(`${id}: approved, but book_room called ${bookings} times (expected once)`);
    if (!approve && bookings !== 0) out.push(`${id}: denied, but book_room called ${bookings} times`);
    if (before.includes("book_room")) out.push(`${id}: book_room called before the pause`);
    if (suspends === 1 && item.legs && item.legs[0] && !item.legs[0].suspended) out.push(`${id}: the first leg did not end suspended`);
  }
  return out;
}
