/** Token and tokenizer-failure shapes shared by the tokenizer and the parser. */

export type TokenType = "NAME" | "NUMBER" | "STRING" | "OP" | "NEWLINE" | "INDENT" | "DEDENT" | "ENDMARKER";

export interface Token {
  readonly type: TokenType;
  readonly text: string;
  /** 1-based line where the token starts (CPython's `lineno`). */
  readonly line: number;
  /** Bracket nesting after the token, as CPython records it (a closing bracket already counts as closed). */
  readonly level: number;
  /**
   * Whether producing this token made the tokenizer read past the end of the input. Once it has,
   * CPython no longer tokenizes the rest of the source to look for an error that would outrank
   * one the parser raised.
   */
  readonly atEnd: boolean;
}

export interface OpenBracket {
  readonly char: string;
  readonly line: number;
}

/**
 * Where CPython's tokenizer stops. `raised` errors set a Python exception inside the tokenizer and
 * win over any parser error, even one found earlier in the text; `state` errors (EOF inside a
 * bracket or after a line continuation, a bad continuation) are only reported when the parser
 * actually reaches them.
 */
export interface TokenizerFailure {
  readonly kind: "raised" | "state";
  readonly message: string;
  readonly line: number;
  /** The innermost bracket still open when the tokenizer stopped. */
  readonly openBracket: OpenBracket | null;
}

export interface Tokenized {
  readonly tokens: readonly Token[];
  /** The tokens end with ENDMARKER exactly when this is null. */
  readonly failure: TokenizerFailure | null;
}

/** Hard keywords: a NAME token with one of these texts is not a name. */
export const KEYWORDS: ReadonlySet<string> = new Set([
  "False", "None", "True", "and", "as", "assert", "async", "await", "break", "class", "continue", "def",
  "del", "elif", "else", "except", "finally", "for", "from", "global", "if", "import", "in", "is",
  "lambda", "nonlocal", "not", "or", "pass", "raise", "return", "try", "while", "with", "yield",
]);

export const SOFT_KEYWORDS: ReadonlySet<string> = new Set(["_", "case", "match"]);
