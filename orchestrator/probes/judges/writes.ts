/**
 * Checkpoint writes stay inside the harness-owned directory (probes.md §14), judged from what the
 * run itself records, as in a bench: a sealed worker's write outside its item's folder and private
 * TMPDIR lands in a throwaway layer and is recorded on the item (`sandbox-write`; a write to the
 * read-only root still fails, and the item with it), and watched workers' writes outside them are
 * recorded on the lane (orchestrator/supervisor/sandbox/). An adapter that declares an
 * on-disk checkpointer must also have written something inside checkpoint_dir, and one that
 * declares stateless resume nothing.
 */
import { SANDBOX_WRITE_RULE } from "../../run/item.ts";
import type { FileEntry, WireRun } from "../wire-types.ts";

/** A watched worker's write outside its folders, as the watcher words it (`<worker>: created <rel> in <area> (<abs>)`). */
const WATCHED_WRITE = /^[^:]+: (created|modified) .+ in .+ \((.+)\)$/;
/** A write the sandbox refused, in an item's error. */
const REFUSED = /\b(EROFS|EACCES|EPERM)\b[^\n]*/;

/** Absolute paths of watched writes outside the worker's folders. */
export function watchedWrites(run: Pick<WireRun, "record">): string[] {
  return (run.record.isolation?.violations ?? []).flatMap((v) => {
    const m = WATCHED_WRITE.exec(v);
    return m ? [m[2]!] : [];
  });
}

/** `store`: what the adapter is declared to keep on disk (`any`: no declaration to hold it to). */
export function writesViolations(run: Pick<WireRun, "record" | "checkpointFiles">, store: "disk" | "state" | "any" | undefined): string[] {
  const adapterRecord = run.record;
  if (!adapterRecord.available) return [`unavailable (${adapterRecord.unavailable_kind}): ${adapterRecord.reason}`];
  const out: string[] = [];
  for (const v of adapterRecord.isolation?.violations ?? []) if (WATCHED_WRITE.test(v)) out.push(`wrote outside checkpoint_dir: ${v}`);
  for (const item of adapterRecord.items) {
    for (const v of item.violations ?? []) if (v.rule === SANDBOX_WRITE_RULE) out.push(`${item.item_id}: a write outside checkpoint_dir was caught by the sandbox (${v.detail})`);
    const refused = REFUSED.exec(item.error ?? "");
    if (refused) out.push(`${item.item_id}: a write outside checkpoint_dir was refused by the sandbox (${refused[0].trim()})`);
    else if (!item.passed) out.push(`${item.item_id}: did not pass${item.error ? ` (${item.error.split("\n")[0]!.slice(0, 160)})` : ""}`);
  }
  if (adapterRecord.items.length === 0) out.push("no items ran");
  out.push(...storeViolations(run.checkpointFiles, store));
  return out;
}

function storeViolations(files: readonly FileEntry[], store: "disk" | "state" | "any" | undefined): string[] {
  if (store === undefined) return ["no checkpoint-store declaration (CHECKPOINT_STORES): declare disk or state"];
  if (store === "disk" && files.length === 0) return ["declares an on-disk checkpointer but wrote nothing inside checkpoint_dir"];
  if (store === "state" && files.length > 0) return [`declares stateless resume but wrote ${files.map((f) => f.path).join(", ")} in checkpoint_dir (stale declaration)`];
  return [];
}
