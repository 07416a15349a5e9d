/** The item pass rule and check records (arena-format.md §6). Pure; never throws on bad data. */
import { pyRepr, pyStr, toJs, type PyValue } from "@agentic-arena/py-semantics";
import type { Check } from "../arena/schemas.ts";
import { CHECK_FIELDS, isCheckType } from "./catalogue.ts";
import { CHECKS } from "./checks/index.ts";
import { FieldError } from "./fields.ts";
import type { CheckOutcome, CheckRecord, ItemScore, ScoreInput } from "./types.ts";

export const ADAPTER_ERROR_DETAIL = "skipped: adapter error";

/** The record's `type`: the field as given, or its Python `str()` when it is missing or not a string. */
function typeName(check: Check): string {
  const t: PyValue = check.get("type") ?? null;
  return typeof t === "string" ? t : pyStr(t);
}

function runCheck(check: Check, input: ScoreInput): CheckOutcome {
  const type = check.get("type");
  if (!isCheckType(type)) return { ok: false, detail: `unknown check type ${pyRepr(type ?? null)}` };
  const missing = CHECK_FIELDS[type].required.filter((f) => !check.has(f));
  if (missing.length > 0) {
    return { ok: false, detail: missing.map((f) => `${pyRepr(type)} requires ${pyRepr(f)}`).join("; ") };
  }
  try {
    return CHECKS[type](check, input);
  } catch (e) {
    if (e instanceof FieldError) return { ok: false, detail: e.message };
    // A bug here must cost one check, not the run (and not the scoring worker).
    return { ok: false, detail: `internal scoring error (${e instanceof Error ? e.message : String(e)})` };
  }
}

function record(check: Check, outcome: CheckOutcome): CheckRecord {
  return { type: typeName(check), ok: outcome.ok, detail: outcome.detail, spec: toJs(check) };
}

/** Every check failed with one detail (adapter error, scoring deadline). */
export function failAll(checks: readonly Check[], detail: string): ItemScore {
  return { passed: false, checks: checks.map((c) => record(c, { ok: false, detail })) };
}

export function scoreItem(checks: readonly Check[], input: ScoreInput): ItemScore {
  // Python truthiness: an empty error string is no error.
  if (input.error !== null && input.error !== "") return failAll(checks, ADAPTER_ERROR_DETAIL);
  const records = checks.map((c) => record(c, runCheck(c, input)));
  return { passed: records.every((r) => r.ok), checks: records };
}
