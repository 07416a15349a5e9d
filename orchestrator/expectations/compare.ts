/**
 * Run results against the expectations file (file.ts): what CI's exit code is made
 * of. A run "matches" when every item that failed is listed as expected to fail and every listed
 * item that ran still fails; anything else is a Difference, printed with the command that accepts
 * the run as the new expectation (`--update-expected`, as `vitest -u` does for snapshots).
 */
import {
  DEFAULT_PREAMBLE,
  itemKey,
  loadExpectations,
  REASON_PLACEHOLDER,
  type ExpectedEntry,
  type Expectations,
  type Mode,
} from "./file.ts";
import type { AdapterRecord, ItemRecord } from "../report/record.ts";
import type { ErrorClass } from "../run/error-class.ts";

/** The parts of an item record compared; an ItemRecord is one. */
export type ComparedItem = Pick<ItemRecord, "item_id" | "repeat" | "passed" | "error" | "violations"> & {
  readonly error_class?: ErrorClass | undefined;
};

/** The parts of an adapter row compared; an AdapterRecord is one. */
export type ComparedAdapter = Pick<AdapterRecord, "framework" | "available" | "unavailable_kind" | "reason" | "isolation"> & {
  readonly items: readonly ComparedItem[];
};

/** The parts of a run record compared; a RunRecord is one. */
export interface ComparedRecord {
  readonly arena: string;
  readonly mode: Mode;
  readonly frameworks: readonly ComparedAdapter[];
}

export interface ItemDifference {
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
export function byItem(items: readonly ComparedItem[]): ItemOutcome[] {
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
export function brokenRules(repeats: readonly ComparedItem[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of repeats) for (const v of r.violations ?? []) if (!out.has(v.rule)) out.set(v.rule, `leg ${v.leg}${v.request ? ` request ${v.request}` : ""}: ${v.detail}`);
  return out;
}

export function assertMode(records: readonly ComparedRecord[], mode: Mode): void {
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
    for (const adapterRecord of record.frameworks) {
      const where = { arena: record.arena, framework: adapterRecord.framework };
      if (!adapterRecord.available) {
        if (adapterRecord.unavailable_kind !== undefined && DECLARED_UNAVAILABLE.has(adapterRecord.unavailable_kind)) continue;
        const kind = adapterRecord.unavailable_kind === "build_failed" || adapterRecord.unavailable_kind === "load_failed" ? { unavailable_kind: adapterRecord.unavailable_kind } : {};
        out.push({ kind: "lane_error", ...where, ...kind, reason: adapterRecord.reason ?? "" });
        continue;
      }
      if (adapterRecord.isolation?.violations?.length) out.push({ kind: "isolation_violation", ...where, violations: adapterRecord.isolation.violations });
      for (const { item_id, repeats } of byItem(adapterRecord.items)) {
        const broken = brokenRules(repeats);
        const listed = rulesListed.get(itemKey(mode, record.arena, adapterRecord.framework, item_id)) ?? [];
        for (const [rule, detail] of broken) if (!listed.includes(rule)) out.push({ kind: "violation", ...where, item_id, rule, detail });
        for (const rule of listed) {
          if (!broken.has(rule)) out.push({ kind: "violation_gone", ...where, item_id, rule, reason: reasons.get(itemKey(mode, record.arena, adapterRecord.framework, item_id, rule)) ?? "" });
        }
        const reason = reasons.get(itemKey(mode, record.arena, adapterRecord.framework, item_id));
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
