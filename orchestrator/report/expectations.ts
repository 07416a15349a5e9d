/**
 * Run results against the expectations file (expectations-file.ts): what CI's exit code is made
 * of. A run "matches" when every item that failed is listed as expected to fail and every listed
 * item that ran still fails; anything else is a Difference, printed with the command that accepts
 * the run as the new expectation (`--update-expected`, as `vitest -u` does for snapshots).
 */
import { writeFileAtomic } from "../files/atomic.ts";
import {
  DEFAULT_PREAMBLE,
  itemKey,
  loadExpectations,
  REASON_PLACEHOLDER,
  serializeExpectations,
  type ExpectedEntry,
  type Expectations,
  type Mode,
} from "./expectations-file.ts";
import type { FrameworkRecord, ItemRecord } from "./record.ts";

export * from "./expectations-file.ts";
import type { ErrorClass } from "../run/error-class.ts";

/**
 * The class of an item error, as the runner records it next to `error`. Spelled out here until
 * orchestrator/run/error-class.ts (ERROR_CLASSES) is committed; the two must stay equal.
 */
export type { ErrorClass };

/** The parts of an item record compared; an ItemRecord is one. */
export type ComparedItem = Pick<ItemRecord, "item_id" | "repeat" | "passed" | "error" | "violations"> & {
  readonly error_class?: ErrorClass | undefined;
};

/** The parts of a framework row compared; a FrameworkRecord is one. */
export type ComparedFramework = Pick<FrameworkRecord, "framework" | "available" | "unavailable_kind" | "reason" | "isolation"> & {
  readonly items: readonly ComparedItem[];
};

/** The parts of a run record compared; a RunRecord is one. */
export interface ComparedRecord {
  readonly arena: string;
  readonly mode: Mode;
  readonly frameworks: readonly ComparedFramework[];
}

interface ItemDifference {
  readonly arena: string;
  readonly framework: string;
  readonly item_id: string;
  /** How many repeats of the item ran in this run. */
  readonly repeats: number;
  /** The repeats (0-based) that did not pass, errors included. */
  readonly failed_repeats: readonly number[];
  /** Set under `strict` when the item is listed as expected to fail: the listed reason. */
  readonly expected_reason?: string;
}

/**
 * One way a run differs from the expectations.
 *
 * - `new_failure`: the item failed its checks on some repeat and is not listed.
 * - `error`: the item ended with an error (`error` set) on some repeat and is not listed. Takes the
 *   place of `new_failure` when both happened: the error says more.
 * - `now_passes`: the item is listed, and every repeat of it that ran passed. An item that failed
 *   on some repeats and passed on others is not `now_passes`: it did fail.
 * - `lane_error`: the framework could not run the arena at all because its build or load failed.
 *   `unsupported`, `stub` and `not_installed` rows are declared states, not differences.
 */
export type Difference =
  | ({ readonly kind: "new_failure" } & ItemDifference)
  | ({
      readonly kind: "error";
      /** Absent on records written before errors were classified. */
      readonly error_class?: ErrorClass;
      /** The first error among the repeats. */
      readonly error: string;
    } & ItemDifference)
  | {
      readonly kind: "now_passes";
      readonly arena: string;
      readonly framework: string;
      readonly item_id: string;
      readonly repeats: number;
      readonly reason: string;
    }
  | {
      /** The witness saw the item break a rule no entry lists for it. */
      readonly kind: "violation";
      readonly arena: string;
      readonly framework: string;
      readonly item_id: string;
      readonly rule: string;
      /** The first violation's evidence. */
      readonly detail: string;
    }
  | {
      /** Listed as breaking a rule, and no repeat of it did. */
      readonly kind: "violation_gone";
      readonly arena: string;
      readonly framework: string;
      readonly item_id: string;
      readonly rule: string;
      readonly reason: string;
    }
  | {
      /**
       * A watched worker (no sandbox) wrote outside its folders or left a process behind. Never
       * accepted by an update: under the sandbox it could not have happened at all.
       */
      readonly kind: "isolation_violation";
      readonly arena: string;
      readonly framework: string;
      readonly violations: readonly string[];
    }
  | {
      readonly kind: "lane_error";
      readonly arena: string;
      readonly framework: string;
      /** Absent when the record does not say why the row is unavailable (treated as a failure too). */
      readonly unavailable_kind?: "build_failed" | "load_failed";
      readonly reason: string;
    };

export interface CompareOptions {
  /** Count every failed item, listed or not (`--strict`): for checking that a framework is clean. */
  readonly strict?: boolean;
}

/** Unavailable kinds that describe the matrix, not a failure: the framework never claimed to run this. */
const DECLARED_UNAVAILABLE = new Set<string>(["unsupported", "stub", "not_installed"]);

interface ItemOutcome {
  readonly item_id: string;
  readonly repeats: ComparedItem[];
}

/** The item rows of one framework, grouped by item id in the order they first appear. */
function byItem(items: readonly ComparedItem[]): ItemOutcome[] {
  const groups = new Map<string, ComparedItem[]>();
  for (const item of items) {
    const group = groups.get(item.item_id) ?? [];
    group.push(item);
    groups.set(item.item_id, group);
  }
  return [...groups].map(([item_id, repeats]) => ({ item_id, repeats: repeats.sort((a, b) => a.repeat - b.repeat) }));
}

function listedReasons(expectations: Expectations): Map<string, string> {
  const reasons = new Map<string, string>();
  for (const e of expectations.entries) for (const item of e.items) reasons.set(itemKey(e.mode, e.arena, e.framework, item, e.rule), e.reason);
  return reasons;
}

/** The rules listed for each item (mode × arena × framework × item). */
function listedRules(expectations: Expectations): Map<string, string[]> {
  const rules = new Map<string, string[]>();
  for (const e of expectations.entries) {
    if (!e.rule) continue;
    for (const item of e.items) {
      const key = itemKey(e.mode, e.arena, e.framework, item);
      rules.set(key, [...(rules.get(key) ?? []), e.rule]);
    }
  }
  return rules;
}

/** Each rule an item broke on any repeat, with its first evidence. */
function brokenRules(repeats: readonly ComparedItem[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of repeats) for (const v of r.violations ?? []) if (!out.has(v.rule)) out.set(v.rule, `leg ${v.leg}${v.request ? ` request ${v.request}` : ""}: ${v.detail}`);
  return out;
}

function assertMode(records: readonly ComparedRecord[], mode: Mode): void {
  const other = records.find((r) => r.mode !== mode);
  // Comparing a live record against mock expectations would report every finding as new: a caller bug.
  if (other) throw new Error(`record of arena '${other.arena}' is a ${other.mode} run, compared as ${mode}`);
}

/**
 * The differences between a run and the expectations for `mode`, in record order. Only what ran
 * is compared: a listed item that is not in the records (a partial run with `--item`, a framework
 * left out with `--framework`) is neither passing nor failing.
 */
export function compareWithExpectations(
  records: readonly ComparedRecord[],
  expectations: Expectations,
  mode: Mode,
  options: CompareOptions = {},
): Difference[] {
  assertMode(records, mode);
  const reasons = listedReasons(expectations);
  const rulesListed = listedRules(expectations);
  const out: Difference[] = [];
  for (const record of records) {
    for (const fw of record.frameworks) {
      const where = { arena: record.arena, framework: fw.framework };
      if (!fw.available) {
        if (fw.unavailable_kind !== undefined && DECLARED_UNAVAILABLE.has(fw.unavailable_kind)) continue;
        const kind = fw.unavailable_kind === "build_failed" || fw.unavailable_kind === "load_failed" ? { unavailable_kind: fw.unavailable_kind } : {};
        out.push({ kind: "lane_error", ...where, ...kind, reason: fw.reason ?? "" });
        continue;
      }
      if (fw.isolation?.violations?.length) out.push({ kind: "isolation_violation", ...where, violations: fw.isolation.violations });
      for (const { item_id, repeats } of byItem(fw.items)) {
        const broken = brokenRules(repeats);
        const listed = rulesListed.get(itemKey(mode, record.arena, fw.framework, item_id)) ?? [];
        for (const [rule, detail] of broken) if (!listed.includes(rule)) out.push({ kind: "violation", ...where, item_id, rule, detail });
        for (const rule of listed) {
          if (!broken.has(rule)) out.push({ kind: "violation_gone", ...where, item_id, rule, reason: reasons.get(itemKey(mode, record.arena, fw.framework, item_id, rule)) ?? "" });
        }
        const reason = reasons.get(itemKey(mode, record.arena, fw.framework, item_id));
        const failed = repeats.filter((r) => !r.passed);
        if (reason !== undefined && failed.length === 0) {
          out.push({ kind: "now_passes", ...where, item_id, repeats: repeats.length, reason });
          continue;
        }
        if (failed.length === 0 || (reason !== undefined && !options.strict)) continue;
        const base = {
          ...where,
          item_id,
          repeats: repeats.length,
          failed_repeats: failed.map((r) => r.repeat),
          ...(reason !== undefined ? { expected_reason: reason } : {}),
        };
        const errored = repeats.find((r) => r.error !== null);
        if (errored) {
          out.push({ kind: "error", ...base, ...(errored.error_class ? { error_class: errored.error_class } : {}), error: errored.error ?? "" });
        } else {
          out.push({ kind: "new_failure", ...base });
        }
      }
    }
  }
  return out;
}

export interface RenderOptions {
  /** The command that accepts this run, e.g. `pnpm bench --update-expected`. */
  readonly updateCommand: string;
}

const EXCERPT_CHARS = 160;

/** The first line of a message, cut to a terminal line. */
export function excerpt(text: string, max: number = EXCERPT_CHARS): string {
  const first = (text.trim().split("\n")[0] ?? "").replace(/\s+/g, " ").trim();
  return first.length > max ? `${first.slice(0, max - 1)}…` : first;
}

function repeatsNote(d: ItemDifference): string {
  return d.repeats > 1 ? ` (${d.failed_repeats.length} of ${d.repeats} repeats)` : "";
}

function strictNote(d: ItemDifference): string {
  return d.expected_reason === undefined ? ", not expected to" : " (listed as expected; --strict counts it)";
}

/** One line for a difference: `<arena>/<framework>/<item>: <what changed>`. */
export function renderDifference(d: Difference): string {
  switch (d.kind) {
    case "new_failure":
      return `${d.arena}/${d.framework}/${d.item_id}: fails${repeatsNote(d)}${strictNote(d)}`;
    case "error": {
      const cls = d.error_class ? `${d.error_class} ` : "";
      return `${d.arena}/${d.framework}/${d.item_id}: ${cls}error${repeatsNote(d)}${strictNote(d)}: ${excerpt(d.error)}`;
    }
    case "now_passes": {
      const all = d.repeats > 1 ? `passes all ${d.repeats} repeats` : "passes";
      return `${d.arena}/${d.framework}/${d.item_id}: ${all}, but is listed as expected to fail (${excerpt(d.reason, 80)})`;
    }
    case "violation":
      return `${d.arena}/${d.framework}/${d.item_id}: breaks rule ${d.rule}, not expected to: ${excerpt(d.detail)}`;
    case "violation_gone":
      return `${d.arena}/${d.framework}/${d.item_id}: no longer breaks rule ${d.rule}, but is listed as breaking it (${excerpt(d.reason, 80)})`;
    case "isolation_violation":
      return `${d.arena}/${d.framework}: its watched worker broke isolation (${d.violations.length}): ${excerpt(d.violations[0] ?? "")}`;
    case "lane_error":
      return `${d.arena}/${d.framework}: did not run (${d.unavailable_kind ?? "unavailable"}): ${excerpt(d.reason)}`;
  }
}

/**
 * Whether `--update-expected` makes this difference go away. A lane error cannot be expected
 * (the framework must build), and under `--strict` a listed failure stays a difference.
 */
export function acceptable(d: Difference): boolean {
  if (d.kind === "lane_error" || d.kind === "isolation_violation") return false;
  if (d.kind === "now_passes" || d.kind === "violation" || d.kind === "violation_gone") return true;
  return d.expected_reason === undefined;
}

/**
 * The lines to print for a set of differences (none for none). The update command is offered only
 * when it would change the outcome, so a lane error alone never suggests "accepting" it.
 */
export function renderDiff(differences: readonly Difference[], options: RenderOptions): string[] {
  const lines = differences.map(renderDifference);
  if (differences.some(acceptable)) lines.push(`to accept these results as expected: ${options.updateCommand}`);
  return lines;
}

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

const triple = (mode: Mode, arena: string, framework: string): string => JSON.stringify([mode, arena, framework]);

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
    for (const fw of record.frameworks) {
      if (!fw.available) continue;
      for (const { item_id, repeats } of byItem(fw.items)) {
        const failed = repeats.some((r) => !r.passed);
        ranItems.add(itemKey(mode, record.arena, fw.framework, item_id));
        ran.set(itemKey(mode, record.arena, fw.framework, item_id), failed);
        if (failed) failing.push({ arena: record.arena, framework: fw.framework, item_id });
        for (const rule of brokenRules(repeats).keys()) {
          ran.set(itemKey(mode, record.arena, fw.framework, item_id, rule), true);
          failing.push({ arena: record.arena, framework: fw.framework, item_id, rule });
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
