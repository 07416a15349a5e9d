/** The scorer's public surface (arena-format.md §5, §6). */
export { CHECK_FIELDS, CHECK_TYPES, isCheckType, type CheckFields, type CheckType } from "./catalogue.ts";
export { ADAPTER_ERROR_DETAIL, scoreItem } from "./score.ts";
export { compilePyRegex, pySearch, PyRegexError, translatePyRegex } from "@agentic-arena/py-semantics/regex";
export { createScoringPool, deadlineDetail, type ScoreOffLoopOptions, type ScoringPool, type ScoringPoolOptions } from "./regex-threads.ts";
export type { CheckRecord, ItemScore, ScoreInput } from "./types.ts";
