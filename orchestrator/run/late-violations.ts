/**
 * A cell whose worker answered it twice (or late) broke the protocol, even though the first
 * answer was scored: once every worker is gone, it becomes a `protocol` error, and the journal
 * gets the corrected line.
 */
import type { ItemRecord, RunRecord } from "../report/record.ts";
import { ADAPTER_ERROR_DETAIL } from "../scoring/score.ts";
import { itemKey } from "../store/journal.ts";
import type { LateViolation } from "./context.ts";

export function applyLateViolations(
  records: readonly RunRecord[],
  late: readonly LateViolation[],
  onItem?: (arena: string, adapter: string, record: ItemRecord) => void,
): void {
  for (const v of late) {
    const adapterRecord = records.find((r) => r.arena === v.arena)?.frameworks.find((f) => f.framework === v.framework);
    const index = adapterRecord?.items.findIndex((i) => itemKey(i.repeat, i.item_id) === v.cell) ?? -1;
    if (!adapterRecord || index === -1) continue;
    const before = adapterRecord.items[index]!;
    if (before.error_class === "protocol") continue;
    const after: ItemRecord = {
      ...before,
      passed: false,
      // What the scorer gives any errored item (score.ts): every check fails, skipped.
      checks: before.checks.map((c) => ({ ...c, ok: false, detail: ADAPTER_ERROR_DETAIL })),
      error: `WorkerFailure: ${v.message}`,
      error_class: "protocol",
    };
    adapterRecord.items[index] = after;
    onItem?.(v.arena, v.framework, after);
  }
}
