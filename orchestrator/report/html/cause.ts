/**
 * Why a cell is not a plain pass, in the one line the item table prints under the answer. It is
 * the scorecard's failure cause (report/failure-reason.ts), so the two never word a failure
 * differently, plus what the scorecard lists apart: a cell the provider did not serve says what
 * the provider did, and a failure with several failing checks says how many more there are.
 */
import { clipOneLine } from "../clip.ts";
import { failureCause } from "../failure-reason.ts";
import { isServed, providerFaultCause } from "../not-served.ts";
import type { ItemRecord } from "../record.ts";

const ERROR_CHARS = 120;

type CauseInput = Pick<ItemRecord, "passed" | "error" | "error_class" | "checks"> & Partial<Pick<ItemRecord, "provider_faults">>;

/** `""` for a pass; otherwise one line: the error, the failing check, or the provider's fault. */
export function cellCause(item: CauseInput): string {
  if (!isServed(item)) {
    const fault = providerFaultCause(item);
    const what = fault === "other" ? "the provider failed" : `the provider failed (${fault})`;
    return `not served: ${what}${item.error ? ` — ${clipOneLine(item.error, ERROR_CHARS)}` : ""}`;
  }
  if (item.passed) return "";
  const cause = failureCause(item);
  if (item.error) return cause;
  const failing = item.checks.filter((c) => !c.ok).length;
  return failing > 1 ? `${cause} (+${failing - 1} more failing check${failing > 2 ? "s" : ""})` : cause;
}

export interface GroupedViolation {
  readonly rule: string;
  readonly leg: number;
  /** Every request of the leg the witness saw it on (1-based); empty when it named none. */
  readonly requests: number[];
  readonly detail: string;
}

/**
 * One entry per distinct broken rule. The witness checks every request's whole history, so a bad
 * tool message that stays in the history is flagged again on each later request of its leg: the
 * same rule, leg and detail, another request number. Those are one violation, seen several times.
 */
export function groupViolations(violations: readonly { rule: string; leg: number; request?: number; detail: string }[]): GroupedViolation[] {
  const groups = new Map<string, { rule: string; leg: number; requests: number[]; detail: string }>();
  for (const v of violations) {
    const key = JSON.stringify([v.rule, v.leg, v.detail]);
    let group = groups.get(key);
    if (!group) {
      group = { rule: v.rule, leg: v.leg, requests: [], detail: v.detail };
      groups.set(key, group);
    }
    if (v.request !== undefined && !group.requests.includes(v.request)) group.requests.push(v.request);
  }
  return [...groups.values()];
}
