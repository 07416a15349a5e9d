/**
 * Parser state shared by the grammar rules: token access that records how far the parser looked
 * (CPython reports a generic syntax error at the furthest token it fetched), memoisation, the
 * parser's stack limit, and error raising.
 */
import type { Expr } from "../ast.ts";
import { KEYWORDS, type Token, type TokenizerFailure } from "../tokens.ts";

/** A SyntaxError as `str()` prints it: `reason (<unknown>, line N)`. */
export class CalcSyntaxError {
  readonly reason: string;
  readonly line: number;
  /** Raised by the tokenizer: final, never replaced by another error. */
  readonly fromTokenizer: boolean;
  constructor(reason: string, line: number, fromTokenizer: boolean) {
    this.reason = reason;
    this.line = line;
    this.fromTokenizer = fromTokenizer;
  }
  get message(): string {
    return `${this.reason} (<unknown>, line ${this.line})`;
  }
}

/** CPython's parser stack limit is reported as a MemoryError without a message. */
export class ParserOverflow {
  readonly message = "";
}

/** CPython's MAXSTACK. */
const MAX_STACK = 6000;
/**
 * Rule levels CPython's generated parser spends that these hand-written rules do not count, so
 * that deep unary, power and `not` chains hit the limit at the same length as in CPython.
 */
const UNCOUNTED_LEVELS = 19;

export const RULE = {
  expression: 0,
  disjunction: 1,
  bitwiseOr: 2,
  factor: 3,
  starExpression: 4,
  strings: 5,
  arguments: 6,
  starTarget: 7,
  targetWithStarAtom: 8,
  tPrimary: 9,
  invalidNamedExpression: 10,
} as const;
const RULE_COUNT = 11;

export type Rule = (typeof RULE)[keyof typeof RULE];

const MISS: unique symbol = Symbol("miss");
type Miss = typeof MISS;

export class Parser {
  readonly tokens: readonly Token[];
  readonly failure: TokenizerFailure | null;
  /** Prepended to parser-raised messages (`f-string: ` inside an f-string field). */
  readonly prefix: string;
  /** Second pass: the `invalid_*` rules that produce CPython's specific messages are active. */
  callInvalidRules: boolean;
  /** Parses an f-string field's expression (set by the driver). */
  readonly subparse: (text: string, line: number) => Expr;
  pos = 0;
  /** How many tokens the parser has fetched: CPython's `p->fill`. */
  fill: number;
  level = UNCOUNTED_LEVELS;
  private readonly memo = new Map<number, { readonly value: unknown; readonly end: number }>();

  constructor(options: {
    tokens: readonly Token[];
    failure: TokenizerFailure | null;
    prefix: string;
    callInvalidRules: boolean;
    fill: number;
    subparse: (text: string, line: number) => Expr;
  }) {
    this.tokens = options.tokens;
    this.failure = options.failure;
    this.prefix = options.prefix;
    this.callInvalidRules = options.callInvalidRules;
    this.fill = options.fill;
    this.subparse = options.subparse;
  }

  // --- tokens ---

  peek(): Token {
    return this.tokenAt(this.pos);
  }

  tokenAt(index: number): Token {
    if (index >= this.tokens.length) {
      if (this.failure) throw this.tokenizerError();
      index = this.tokens.length - 1;
    }
    if (index >= this.fill) this.fill = index + 1;
    return this.tokens[index]!;
  }

  tokenizerError(): CalcSyntaxError {
    const f = this.failure!;
    // A tokenizer *state* (EOF, bad continuation) is turned into an error by the parser, so it
    // carries the parser's prefix; a raised tokenizer error does not.
    return new CalcSyntaxError(f.kind === "state" ? this.prefix + f.message : f.message, f.line, true);
  }

  isOp(text: string): boolean {
    const t = this.peek();
    return t.type === "OP" && t.text === text;
  }

  expectOp(text: string): Token | null {
    const t = this.peek();
    if (t.type !== "OP" || t.text !== text) return null;
    this.pos++;
    return t;
  }

  isKeyword(word: string): boolean {
    const t = this.peek();
    return t.type === "NAME" && t.text === word;
  }

  expectKeyword(word: string): Token | null {
    const t = this.peek();
    if (t.type !== "NAME" || t.text !== word) return null;
    this.pos++;
    return t;
  }

  /** A NAME token that is not a keyword. */
  isName(): boolean {
    const t = this.peek();
    return t.type === "NAME" && !KEYWORDS.has(t.text);
  }

  expectName(): Token | null {
    if (!this.isName()) return null;
    return this.tokens[this.pos++]!;
  }

  /** The token just before the current position (CPython's `p->tokens[p->mark-1]`). */
  previous(): Token {
    return this.tokens[this.pos - 1]!;
  }

  // --- memo ---

  memoGet<T>(rule: Rule): T | null | Miss {
    const hit = this.memo.get(this.pos * RULE_COUNT + rule);
    if (!hit) return MISS;
    this.pos = hit.end;
    return hit.value as T | null;
  }

  memoSet<T>(rule: Rule, start: number, value: T | null): T | null {
    this.memo.set(start * RULE_COUNT + rule, { value, end: this.pos });
    return value;
  }

  isMiss(value: unknown): value is Miss {
    return value === MISS;
  }

  // --- stack limit ---

  enter(extra = 1): void {
    this.level += extra;
    if (this.level > MAX_STACK) throw new ParserOverflow();
  }

  leave(extra = 1): void {
    this.level -= extra;
  }

  // --- errors ---

  raiseAt(line: number, message: string): never {
    throw new CalcSyntaxError(this.prefix + message, line, false);
  }

  /** CPython's RAISE_SYNTAX_ERROR: located at the last token fetched. */
  raiseHere(message: string): never {
    throw new CalcSyntaxError(this.prefix + message, this.lastFetched().line, false);
  }

  lastFetched(): Token {
    return this.tokens[Math.min(this.fill, this.tokens.length) - 1]!;
  }

  /** Run `fn` with the invalid rules off (CPython's `*_without_invalid` rules). */
  withoutInvalid<T>(fn: () => T): T {
    const saved = this.callInvalidRules;
    this.callInvalidRules = false;
    try {
      return fn();
    } finally {
      this.callInvalidRules = saved;
    }
  }
}

/**
 * `item (',' item)*`: a comma that is not followed by another item is left unconsumed (a trailing
 * comma is each rule's own business). Null when not even the first item parses; a caller that
 * already parsed the first item passes it in.
 */
export function commaSeparated<T>(p: Parser, item: (p: Parser) => T | null, first: T | null = item(p)): T[] | null {
  if (!first) return null;
  const items = [first];
  for (;;) {
    const mark = p.pos;
    if (!p.expectOp(",")) break;
    const next = item(p);
    if (!next) {
      p.pos = mark;
      break;
    }
    items.push(next);
  }
  return items;
}
