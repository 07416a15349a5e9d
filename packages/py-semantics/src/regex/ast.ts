/**
 * A parsed Python `re` pattern. Flags are resolved while parsing (each node records the
 * behaviour it needs), so the emitter never has to track `(?s)`/`(?m)`/`(?a)` scopes.
 */

/** A pattern Python would reject, or one this port cannot reproduce in JS. */
export class PyRegexError extends Error {
  override readonly name = "PyRegexError";
  readonly pattern: string;
  /** Code point offset in the pattern, when known. */
  readonly position: number | undefined;
  constructor(message: string, pattern: string, position?: number) {
    super(position === undefined ? message : `${message} at position ${position}`);
    this.pattern = pattern;
    this.position = position;
  }
}

/** `\d`, `\w`, `\s` (and their complements), Unicode unless the `a` flag was in effect. */
export interface Shorthand {
  readonly letter: "d" | "w" | "s";
  readonly negated: boolean;
  readonly ascii: boolean;
}

/** The flags that decide how letters match; the pattern starts with IGNORECASE on. */
export interface CaseMode {
  readonly ignoreCase: boolean;
  /** `(?a)`: case folds only within ASCII. */
  readonly ascii: boolean;
}

export type SetItem =
  | { readonly kind: "char"; readonly cp: number }
  | { readonly kind: "range"; readonly from: number; readonly to: number }
  | { readonly kind: "shorthand"; readonly shorthand: Shorthand };

export type Assertion =
  | { readonly at: "start" | "end"; readonly multiline: boolean }
  | { readonly at: "string-start" | "string-end" }
  | { readonly at: "boundary" | "non-boundary"; readonly ascii: boolean };

export type Node =
  | { readonly kind: "seq"; readonly items: readonly Node[] }
  | { readonly kind: "alt"; readonly branches: readonly Node[] }
  | { readonly kind: "char"; readonly cp: number }
  | { readonly kind: "any"; readonly dotAll: boolean }
  | { readonly kind: "set"; readonly negated: boolean; readonly items: readonly SetItem[] }
  | { readonly kind: "shorthand"; readonly shorthand: Shorthand }
  | ({ readonly kind: "assert" } & Assertion)
  | {
      readonly kind: "group";
      /** Capture number, or null for `(?:…)` and scoped-flag groups. */
      readonly index: number | null;
      readonly name: string | null;
      /** The case mode inside a scoped-flag group `(?…:…)`; null for other groups. */
      readonly caseMode: CaseMode | null;
      readonly body: Node;
    }
  | { readonly kind: "look"; readonly behind: boolean; readonly negative: boolean; readonly body: Node }
  | { readonly kind: "backref"; readonly index: number; readonly name: string | null }
  | { readonly kind: "repeat"; readonly body: Node; readonly min: number; readonly max: number; readonly lazy: boolean };
