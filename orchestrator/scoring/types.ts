/** The scorer's inputs and outputs (arena-format.md §5 "Inputs", §6). */
import type { Check } from "../arena/schemas.ts";

export interface ScoreInput {
  /** The merged result's `output_text` (`""` when it was null). */
  readonly outputText: string;
  /** Every tool call name of every leg, in order. */
  readonly toolNames: readonly string[];
  /** Tool call names of the first leg only (what ran before the first pause). */
  readonly beforeSuspend: readonly string[];
  /** Number of legs that ended suspended. */
  readonly suspends: number;
  /** The merged result's error; a non-empty string skips every check. */
  readonly error: string | null;
}

export interface CheckRecord {
  readonly type: string;
  readonly ok: boolean;
  readonly detail: string;
  /** The check object as plain JSON (`toJs`). */
  readonly spec: unknown;
}

export interface ItemScore {
  readonly passed: boolean;
  readonly checks: CheckRecord[];
}

export interface CheckOutcome {
  readonly ok: boolean;
  readonly detail: string;
}

/** One check type's rule. Field problems are reported by throwing {@link FieldError}. */
export type CheckFn = (check: Check, input: ScoreInput) => CheckOutcome;
