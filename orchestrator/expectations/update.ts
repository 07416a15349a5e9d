/** `--update-expected`: rewrite the expectations file to list exactly what fails now. */
import { writeFileAtomic } from "../files/atomic.ts";
import { assertMode, brokenRules, byItem, type ComparedRecord } from "./compare.ts";
import { DEFAULT_PREAMBLE, itemKey, loadExpectations, REASON_PLACEHOLDER, type ExpectedEntry, type Mode } from "./file.ts";
import { serializeExpectations } from "./file.ts";

/** One listed item, as updateExpectations reports it. */
export interface ExpectedItem {
  readonly mode: Mode;
  readonly arena: string;
  readonly framework: string;
  readonly item_id: string;
}

export interface UpdateResult {
  /** Failing items that were not listed; they got an entry with REASON_PLACEHOLDER as its reason. */
  readonly added: ExpectedItem[];
  /** Listed items that ran and passed every repeat. */
  readonly removed: ExpectedItem[];
  /** Listed items still listed: still failing, or not run this time. */
  readonly kept: ExpectedItem[];
  /** False when nothing changed: the file is then left exactly as it was (or absent). */
  readonly written: boolean;
}

const triple = (mode: Mode, arena: string, adapter: string): string => JSON.stringify([mode, arena, adapter]);

/**
 * Rewrites `file` so that it lists exactly the items failing in `records` (on any repeat), for
 * what ran: listed items that did not run — other modes, arenas, frameworks, or items a partial
 * run left out — stay as they are. Reasons, the comments at the top of the file and those directly
 * above an entry are kept; an item with no entry yet gets a new one (placed after the entries of
 * its mode × arena × framework) whose reason is REASON_PLACEHOLDER. A broken file is an
 * ExpectationsError and is not overwritten.
 */
export function updateExpectations(file: string, records: readonly ComparedRecord[], mode: Mode, options: { cwd?: string } = {}): UpdateResult {
  assertMode(records, mode);
  const current = loadExpectations(file, options);
  // What ran, per item: whether any repeat failed. Unavailable rows ran nothing.
  // For a rule entry, "failed" means: broke that rule on some repeat.
  const ran = new Map<string, boolean>();
  const ranItems = new Set<string>();
  const failing: { arena: string; framework: string; item_id: string; rule?: string }[] = [];
  for (const record of records) {
    for (const adapterRecord of record.frameworks) {
      if (!adapterRecord.available) continue;
      for (const { item_id, repeats } of byItem(adapterRecord.items)) {
        const failed = repeats.some((r) => !r.passed);
        ranItems.add(itemKey(mode, record.arena, adapterRecord.framework, item_id));
        ran.set(itemKey(mode, record.arena, adapterRecord.framework, item_id), failed);
        if (failed) failing.push({ arena: record.arena, framework: adapterRecord.framework, item_id });
        for (const rule of brokenRules(repeats).keys()) {
          ran.set(itemKey(mode, record.arena, adapterRecord.framework, item_id, rule), true);
          failing.push({ arena: record.arena, framework: adapterRecord.framework, item_id, rule });
        }
      }
    }
  }

  const added: ExpectedItem[] = [];
  const removed: ExpectedItem[] = [];
  const kept: ExpectedItem[] = [];
  const listed = new Set<string>();
  const entries: ExpectedEntry[] = [];
  for (const entry of current.entries) {
    const items = entry.items.filter((item_id) => {
      const key = itemKey(entry.mode, entry.arena, entry.framework, item_id, entry.rule);
      listed.add(key);
      const ref = { mode: entry.mode, arena: entry.arena, framework: entry.framework, item_id };
      const didRun = ranItems.has(itemKey(entry.mode, entry.arena, entry.framework, item_id));
      const stays = !didRun || ran.get(key) === true;
      (stays ? kept : removed).push(ref);
      return stays;
    });
    if (items.length > 0) entries.push(items.length === entry.items.length ? entry : { ...entry, items });
  }

  const fresh = new Map<string, ExpectedEntry>();
  for (const f of failing) {
    const key = itemKey(mode, f.arena, f.framework, f.item_id, f.rule);
    if (listed.has(key)) continue;
    listed.add(key); // the same item from two records of one arena is one entry
    added.push({ mode, arena: f.arena, framework: f.framework, item_id: f.item_id });
    const t = triple(mode, f.arena, f.framework) + (f.rule ?? "");
    const entry = fresh.get(t) ?? { mode, arena: f.arena, framework: f.framework, ...(f.rule ? { rule: f.rule } : {}), items: [], reason: REASON_PLACEHOLDER, comments: [] };
    fresh.set(t, { ...entry, items: [...entry.items, f.item_id] });
  }
  for (const [t, entry] of fresh) {
    // Beside its own triple's entries when there are any, so a reviewer reads them together.
    const last = entries.findLastIndex((e) => triple(e.mode, e.arena, e.framework) + (e.rule ?? "") === t);
    entries.splice(last === -1 ? entries.length : last + 1, 0, entry);
  }

  const written = added.length > 0 || removed.length > 0;
  if (written) writeFileAtomic(file, serializeExpectations(current.exists ? current.preamble : DEFAULT_PREAMBLE, entries));
  return { added, removed, kept, written };
}
