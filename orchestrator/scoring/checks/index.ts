/** The rule of each check type, keyed by the catalogue's type names so none can be missing. */
import type { CheckType } from "../catalogue.ts";
import { jsonPathEquals, jsonSchema, jsonValid } from "./json.ts";
import { contains, icontains, iregex, notContains, numericEquals, sentenceCount } from "./text.ts";
import {
  callCounts,
  maxToolCalls,
  minToolCalls,
  noTool,
  noToolBeforeSuspend,
  suspended,
  toolNotUsed,
  toolUsed,
} from "./tools.ts";
import type { CheckFn } from "../types.ts";

export const CHECKS: { readonly [T in CheckType]: CheckFn } = {
  contains,
  icontains,
  not_contains: notContains,
  iregex,
  numeric_equals: numericEquals,
  tool_used: toolUsed,
  tool_not_used: toolNotUsed,
  no_tool: noTool,
  min_tool_calls: minToolCalls,
  max_tool_calls: maxToolCalls,
  suspended,
  no_tool_before_suspend: noToolBeforeSuspend,
  call_counts: callCounts,
  sentence_count: sentenceCount,
  json_valid: jsonValid,
  json_schema: jsonSchema,
  json_path_equals: jsonPathEquals,
};
