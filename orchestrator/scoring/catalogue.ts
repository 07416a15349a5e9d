/**
 * The 17 check types and the fields each accepts (arena-format.md §5). One table serves the
 * scorer (dispatch, and which thread may run it) and the validator (required/unknown-field
 * diagnostics), so they cannot drift.
 */
export interface CheckFields {
  readonly required: readonly string[];
  readonly optional: readonly string[];
  /**
   * The check compiles a pattern from the data file and runs it on model output, so its time has
   * no bound a caller can know in advance (catastrophic backtracking): it must be scored off-loop.
   */
  readonly dataRegex?: true;
}

export const CHECK_FIELDS = {
  contains: { required: ["value"], optional: [] },
  icontains: { required: ["value"], optional: [] },
  not_contains: { required: ["value"], optional: [] },
  iregex: { required: ["value"], optional: [], dataRegex: true },
  numeric_equals: { required: ["value"], optional: ["tol"] },
  tool_used: { required: ["name"], optional: [] },
  tool_not_used: { required: ["name"], optional: [] },
  no_tool: { required: [], optional: [] },
  min_tool_calls: { required: ["value"], optional: [] },
  max_tool_calls: { required: ["value"], optional: [] },
  suspended: { required: [], optional: ["value"] },
  no_tool_before_suspend: { required: ["name"], optional: [] },
  call_counts: { required: ["counts"], optional: [] },
  sentence_count: { required: [], optional: ["min", "max"] },
  json_valid: { required: [], optional: [] },
  json_schema: { required: ["schema"], optional: [] },
  json_path_equals: { required: ["path", "value"], optional: ["tol"] },
} as const satisfies Record<string, CheckFields>;

export type CheckType = keyof typeof CHECK_FIELDS;

/** Sorted, as the validator lists them in `unknown check type` messages. */
export const CHECK_TYPES: readonly CheckType[] = (Object.keys(CHECK_FIELDS) as CheckType[]).sort();

export function isCheckType(t: unknown): t is CheckType {
  return typeof t === "string" && Object.hasOwn(CHECK_FIELDS, t);
}

/** Whether a check of this `type` runs a data-supplied pattern; false for unknown types (they run nothing). */
export function runsDataRegex(type: unknown): boolean {
  return isCheckType(type) && (CHECK_FIELDS[type] as CheckFields).dataRegex === true;
}
