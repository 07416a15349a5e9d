/**
 * CPython 3.11's tokenizer, for the parts an expression can reach: the calculator must reject text
 * with the same reason CPython gives (number-literal errors, bracket errors, stray characters,
 * unterminated strings, indentation), because that reason is what the model reads.
 *
 * It works on code points (CPython reads UTF-8, but every rule here is about whole characters)
 * and tokenizes eagerly up to the first failure; the parser decides when that failure surfaces.
 */
import {
  type OpenBracket,
  type Token,
  type TokenType,
  type Tokenized,
  type TokenizerFailure,
} from "./tokens.ts";

/** CPython's MAXLEVEL: deeper bracket nesting is an error of its own. */
const MAX_BRACKET_LEVEL = 200;
const TAB_SIZE = 8;
const MAX_INDENT = 100;

const TWO_CHAR_OPS = new Set([
  "!=", "%=", "&=", "**", "*=", "+=", "-=", "->", "//", "/=", ":=", "<<", "<=", "<>", "==", ">=", ">>", "@=", "^=", "|=",
]);
const THREE_CHAR_OPS = new Set(["**=", "//=", "<<=", ">>="]);
const CLOSER_OF: Record<string, string> = { "(": ")", "[": "]", "{": "}" };

// Made at the first use (a non-ASCII name, a non-printable character), not at import: building
// these Unicode property classes cost every worker start ~1.5 ms.
const unicodeClasses: { nonPrintable?: RegExp; xidStart?: RegExp; xidContinue?: RegExp } = {};
// Categories CPython's str.isprintable() rejects (Zs other than the ASCII space included).
const NON_PRINTABLE = (): RegExp => (unicodeClasses.nonPrintable ??= /^(?:[\p{Cc}\p{Cf}\p{Cs}\p{Co}\p{Cn}\p{Zl}\p{Zp}]|(?! )\p{Zs})$/u);
const XID_START = (): RegExp => (unicodeClasses.xidStart ??= /^[\p{XID_Start}_]$/u);
// CPython 3.11 uses Unicode 14; Unicode 15.1 made these four identifier characters.
const XID_CONTINUE = (): RegExp => (unicodeClasses.xidContinue ??= /^(?![\u200c\u200d\u30fb\uff65])\p{XID_Continue}$/u);

const code = (c: string): number => (c.length === 1 ? c.charCodeAt(0) : -1);
const isDigit = (c: string): boolean => {
  const k = code(c);
  return k >= 48 && k <= 57;
};
const isHexDigit = (c: string): boolean => {
  const k = code(c) | 0x20;
  return isDigit(c) || (k >= 97 && k <= 102);
};
const isAsciiLetter = (c: string): boolean => {
  const k = code(c) | 0x20;
  return k >= 97 && k <= 122;
};
const isNonAscii = (c: string): boolean => c !== "" && c.codePointAt(0)! >= 0x80;
const isIdentifierStart = (c: string): boolean => isAsciiLetter(c) || c === "_" || isNonAscii(c);
const isIdentifierChar = (c: string): boolean => isIdentifierStart(c) || isDigit(c);

export function isPrintable(ch: string): boolean {
  const k = code(ch);
  if (k >= 0x20 && k < 0x7f) return true;
  return !NON_PRINTABLE().test(ch);
}

function hex4(cp: number): string {
  return cp.toString(16).toUpperCase().padStart(4, "0");
}

class Stop {
  readonly failure: TokenizerFailure;
  constructor(failure: TokenizerFailure) {
    this.failure = failure;
  }
}

class Tokenizer {
  private readonly cs: readonly string[];
  /** Line of each character; `lineCount` is CPython's line number once the input is exhausted. */
  private readonly lineOf: Int32Array;
  private readonly lineCount: number;
  private i = 0;
  private level = 0;
  private readonly brackets: OpenBracket[] = [];
  private readonly indents: { col: number; altCol: number }[] = [{ col: 0, altCol: 0 }];
  private atLineStart = true;
  /** CPython's tokenizer marks itself done (E_EOF) the first time it reads past the input. */
  private readPastEnd = false;
  private readonly out: Token[] = [];

  constructor(source: string, firstLine: number) {
    // CPython's string tokenizer reads "\r\n" and a lone "\r" as "\n".
    this.cs = Array.from(source.replace(/\r\n?/g, "\n"));
    this.lineOf = new Int32Array(this.cs.length);
    let line = firstLine;
    for (let k = 0; k < this.cs.length; k++) {
      this.lineOf[k] = line;
      if (this.cs[k] === "\n") line++;
    }
    const n = this.cs.length;
    this.lineCount = n === 0 ? firstLine - 1 : this.cs[n - 1] === "\n" ? line - 1 : line;
  }

  run(): Tokenized {
    try {
      for (;;) {
        const type = this.next();
        if (type === "ENDMARKER") return { tokens: this.out, failure: null };
      }
    } catch (err) {
      if (err instanceof Stop) return { tokens: this.out, failure: err.failure };
      throw err;
    }
  }

  // --- character access (EOF is the empty string; reading it does not advance) ---

  private nextc(): string {
    const c = this.peekc(0);
    if (c !== "") this.i++;
    return c;
  }

  /** Read `ahead` characters past the cursor without consuming (a read CPython does and backs up). */
  private peekc(ahead: number): string {
    const c = this.cs[this.i + ahead] ?? "";
    if (c === "") this.readPastEnd = true;
    return c;
  }

  private backup(c: string): void {
    if (c !== "") this.i--;
  }

  /** The rest of a keyword follows, and the keyword ends there. */
  private keywordFollows(rest: string): boolean {
    for (let k = 0; k < rest.length; k++) if (this.peekc(k) !== rest[k]) return false;
    return !isIdentifierChar(this.peekc(rest.length));
  }

  /** CPython's `tok->lineno`: the line of the last character read. */
  private currentLine(): number {
    if (this.cs.length === 0) return this.lineCount;
    return this.lineOf[Math.max(this.i - 1, 0)]!;
  }

  private lineAt(index: number): number {
    return index < this.cs.length ? this.lineOf[index]! : this.lineCount;
  }

  private raise(message: string, line = this.currentLine()): never {
    throw new Stop({ kind: "raised", message, line, openBracket: this.innermost() });
  }

  private stopState(message: string, line = this.currentLine()): never {
    throw new Stop({ kind: "state", message, line, openBracket: this.innermost() });
  }

  /** EOF where the grammar needs more: inside a bracket this is the "was never closed" error. */
  private stopAtEof(): never {
    const open = this.innermost();
    if (open) this.stopState(`'${open.char}' was never closed`, open.line);
    this.stopState("unexpected EOF while parsing");
  }

  private innermost(): OpenBracket | null {
    return this.brackets[this.brackets.length - 1] ?? null;
  }

  private emit(type: TokenType, start: number, end = this.i): TokenType {
    this.out.push({
      type,
      text: this.cs.slice(start, end).join(""),
      line: this.lineAt(start),
      level: this.level,
      atEnd: this.readPastEnd,
    });
    return type;
  }

  // --- tokens ---

  private next(): TokenType {
    let blankLine = false;
    for (;;) {
      if (this.atLineStart) blankLine = this.indentation();
      let c = this.nextc();
      while (c === " " || c === "\t" || c === "\f") c = this.nextc();
      const tokenStart = c === "" ? this.i : this.i - 1;
      if (c === "#") {
        while (c !== "" && c !== "\n") c = this.nextc();
      }
      if (c === "") {
        if (this.level > 0) this.stopAtEof();
        return this.emit("ENDMARKER", this.i);
      }
      if (isIdentifierStart(c)) return this.nameOrString(tokenStart, c);
      if (c === "\n") {
        this.atLineStart = true;
        if (blankLine || this.level > 0) continue;
        return this.emit("NEWLINE", tokenStart, this.i - 1);
      }
      if (c === ".") {
        const d = this.nextc();
        if (isDigit(d)) return this.fraction(tokenStart, d);
        if (d === "." && this.peekc(0) === ".") {
          this.i++;
          return this.emit("OP", tokenStart);
        }
        this.backup(d);
        return this.emit("OP", tokenStart);
      }
      if (isDigit(c)) return this.number(tokenStart, c);
      if (c === "'" || c === '"') return this.string(tokenStart, c);
      if (c === "\\") {
        this.continuation();
        continue;
      }
      return this.operator(tokenStart, c);
    }
  }

  /**
   * Measure the indentation of a new line. Returns whether the line is blank (only whitespace or a
   * comment), which CPython skips entirely. Indentation is measured twice, with tabs to the next
   * multiple of 8 and as one column, and the two must agree (CPython's TabError check).
   */
  private indentation(): boolean {
    this.atLineStart = false;
    let col = 0;
    let altCol = 0;
    let continuedCol = 0;
    let c: string;
    for (;;) {
      c = this.nextc();
      if (c === " ") {
        col++;
        altCol++;
      } else if (c === "\t") {
        col = (Math.floor(col / TAB_SIZE) + 1) * TAB_SIZE;
        altCol++;
      } else if (c === "\f") col = altCol = 0;
      else if (c === "\\") {
        // The first backslash-continued indentation decides the level (CPython 3.11).
        continuedCol = continuedCol || col;
        this.continuation();
      } else break;
    }
    this.backup(c);
    const blank = c === "#" || c === "\n";
    if (!blank && this.level === 0) this.indent(continuedCol || col, continuedCol || altCol);
    return blank;
  }

  private indent(col: number, altCol: number): void {
    const tabError = "inconsistent use of tabs and spaces in indentation";
    const top = this.indents[this.indents.length - 1]!;
    if (col === top.col) {
      if (altCol !== top.altCol) this.stopState(tabError);
    } else if (col > top.col) {
      if (this.indents.length >= MAX_INDENT) this.stopState("too many levels of indentation");
      if (altCol <= top.altCol) this.stopState(tabError);
      this.indents.push({ col, altCol });
      this.emit("INDENT", this.i, this.i);
    } else {
      while (this.indents.length > 1 && col < this.indents[this.indents.length - 1]!.col) {
        this.indents.pop();
        this.emit("DEDENT", this.i, this.i);
      }
      const now = this.indents[this.indents.length - 1]!;
      if (col !== now.col) this.stopState("unindent does not match any outer indentation level");
      if (altCol !== now.altCol) this.stopState(tabError);
    }
  }

  /** A backslash must end its line, and something must follow. */
  private continuation(): void {
    const c = this.nextc();
    if (c !== "\n") this.stopState("unexpected character after line continuation character");
    const d = this.nextc();
    if (d === "") this.stopAtEof();
    this.backup(d);
  }

  private nameOrString(start: number, first: string): TokenType {
    let c = first;
    let sawB = false;
    let sawR = false;
    let sawU = false;
    let sawF = false;
    for (;;) {
      if (!(sawB || sawU || sawF) && (c === "b" || c === "B")) sawB = true;
      else if (!(sawB || sawU || sawR || sawF) && (c === "u" || c === "U")) sawU = true;
      else if (!(sawR || sawU) && (c === "r" || c === "R")) sawR = true;
      else if (!(sawF || sawB || sawU) && (c === "f" || c === "F")) sawF = true;
      else break;
      c = this.nextc();
      if (c === "'" || c === '"') return this.string(start, c);
    }
    let nonAscii = false;
    while (isIdentifierChar(c)) {
      if (isNonAscii(c)) nonAscii = true;
      c = this.nextc();
    }
    this.backup(c);
    if (nonAscii) this.verifyIdentifier(start);
    return this.emit("NAME", start);
  }

  private verifyIdentifier(start: number): void {
    for (let k = start; k < this.i; k++) {
      const ch = this.cs[k]!;
      const ok = k === start ? XID_START().test(ch) : XID_CONTINUE().test(ch);
      if (ok) continue;
      const cp = ch.codePointAt(0)!;
      if (isPrintable(ch)) this.raise(`invalid character '${ch}' (U+${hex4(cp)})`);
      this.raise(`invalid non-printable character U+${hex4(cp)}`);
    }
  }

  private string(start: number, quote: string): TokenType {
    const firstLine = this.currentLine();
    let size = 1;
    let closing = 0;
    let c = this.nextc();
    if (c === quote) {
      c = this.nextc();
      if (c === quote) size = 3;
      else closing = 1;
    }
    if (c !== quote) this.backup(c);
    while (closing !== size) {
      c = this.nextc();
      if (c === "" || (size === 1 && c === "\n")) {
        const detected = this.currentLine();
        if (size === 3) this.raise(`unterminated triple-quoted string literal (detected at line ${detected})`, firstLine);
        this.raise(`unterminated string literal (detected at line ${detected})`, firstLine);
      }
      if (c === quote) closing++;
      else {
        closing = 0;
        if (c === "\\") this.nextc();
      }
    }
    return this.emit("STRING", start);
  }

  private operator(start: number, c: string): TokenType {
    const two = c + this.peekc(0);
    if (TWO_CHAR_OPS.has(two)) {
      this.i++;
      if (THREE_CHAR_OPS.has(two + this.peekc(0))) this.i++;
      return this.emit("OP", start);
    }
    if (c === "(" || c === "[" || c === "{") {
      if (this.level >= MAX_BRACKET_LEVEL) this.raise("too many nested parentheses");
      this.brackets.push({ char: c, line: this.currentLine() });
      this.level++;
    } else if (c === ")" || c === "]" || c === "}") {
      if (this.level === 0) this.raise(`unmatched '${c}'`);
      this.level--;
      const open = this.brackets.pop()!;
      if (CLOSER_OF[open.char] !== c) {
        const where = open.line !== this.currentLine() ? ` on line ${open.line}` : "";
        this.raise(`closing parenthesis '${c}' does not match opening parenthesis '${open.char}'${where}`);
      }
    }
    if (!isPrintable(c)) this.raise(`invalid non-printable character U+${hex4(c.codePointAt(0)!)}`);
    return this.emit("OP", start);
  }

  // --- numbers (CPython's exact acceptance and error order) ---

  /**
   * CPython warns (rather than fails) when a number runs straight into a keyword that can follow
   * it in valid code (`1if x else y`); any other identifier character right after it is an error.
   */
  private verifyEndOfNumber(c: string, kind: string): void {
    let keywordFollows = false;
    if (c === "a") keywordFollows = this.keywordFollows("nd");
    else if (c === "e") keywordFollows = this.keywordFollows("lse");
    else if (c === "f") keywordFollows = this.keywordFollows("or");
    else if (c === "i") {
      // Only the second letter is checked for `if`, `in` and `is`.
      const d = this.peekc(0);
      keywordFollows = d === "f" || d === "n" || d === "s";
    } else if (c === "o") keywordFollows = this.keywordFollows("r");
    else if (c === "n") keywordFollows = this.keywordFollows("ot");
    if (keywordFollows) return;
    // Only ASCII counts here: a non-ASCII character after a number starts a token of its own.
    if (!isNonAscii(c) && isIdentifierChar(c)) {
      this.backup(c);
      this.raise(`invalid ${kind} literal`);
    }
  }

  /** Digits with single underscores between them; returns the first character after them. */
  private decimalTail(): string {
    for (;;) {
      let c: string;
      do c = this.nextc();
      while (isDigit(c));
      if (c !== "_") return c;
      c = this.nextc();
      if (!isDigit(c)) {
        this.backup(c);
        this.raise("invalid decimal literal");
      }
    }
  }

  private finishNumber(start: number, c: string): TokenType {
    this.backup(c);
    return this.emit("NUMBER", start);
  }

  private number(start: number, first: string): TokenType {
    if (first !== "0") return this.afterInteger(start, this.decimalTail(), false);
    let c = this.nextc();
    if (c === "x" || c === "X") return this.radix(start, "hexadecimal", isHexDigit);
    if (c === "o" || c === "O") return this.radix(start, "octal", (d) => d >= "0" && d <= "7" && d.length === 1);
    if (c === "b" || c === "B") return this.radix(start, "binary", (d) => d === "0" || d === "1");
    for (;;) {
      if (c === "_") {
        c = this.nextc();
        if (!isDigit(c)) {
          this.backup(c);
          this.raise("invalid decimal literal");
        }
      }
      if (c !== "0") break;
      c = this.nextc();
    }
    let nonZero = false;
    if (isDigit(c)) {
      nonZero = true;
      c = this.decimalTail();
    }
    return this.afterInteger(start, c, nonZero);
  }

  private afterInteger(start: number, c: string, leadingZeros: boolean): TokenType {
    if (c === ".") return this.fraction(start, this.nextc());
    if (c === "e" || c === "E") return this.exponent(start, c);
    if (c === "j" || c === "J") return this.imaginary(start);
    if (leadingZeros) {
      this.backup(c);
      this.raise(
        "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers",
      );
    }
    this.verifyEndOfNumber(c, "decimal");
    return this.finishNumber(start, c);
  }

  private fraction(start: number, first: string): TokenType {
    let c = first;
    if (isDigit(c)) c = this.decimalTail();
    if (c === "e" || c === "E") return this.exponent(start, c);
    if (c === "j" || c === "J") return this.imaginary(start);
    this.verifyEndOfNumber(c, "decimal");
    return this.finishNumber(start, c);
  }

  private exponent(start: number, e: string): TokenType {
    let c = this.nextc();
    if (c === "+" || c === "-") {
      c = this.nextc();
      if (!isDigit(c)) {
        this.backup(c);
        this.raise("invalid decimal literal");
      }
    } else if (!isDigit(c)) {
      // `1else`: the "e" starts a keyword, so the number ends before it.
      this.backup(c);
      this.verifyEndOfNumber(e, "decimal");
      return this.finishNumber(start, e);
    }
    c = this.decimalTail();
    if (c === "j" || c === "J") return this.imaginary(start);
    this.verifyEndOfNumber(c, "decimal");
    return this.finishNumber(start, c);
  }

  private imaginary(start: number): TokenType {
    const c = this.nextc();
    this.verifyEndOfNumber(c, "imaginary");
    return this.finishNumber(start, c);
  }

  private radix(start: number, kind: string, isRadixDigit: (c: string) => boolean): TokenType {
    let c = this.nextc();
    do {
      if (c === "_") c = this.nextc();
      if (!isRadixDigit(c)) {
        if (kind !== "hexadecimal" && isDigit(c)) this.raise(`invalid digit '${c}' in ${kind} literal`);
        this.backup(c);
        this.raise(`invalid ${kind} literal`);
      }
      do c = this.nextc();
      while (isRadixDigit(c));
    } while (c === "_");
    if (kind !== "hexadecimal" && isDigit(c)) this.raise(`invalid digit '${c}' in ${kind} literal`);
    this.verifyEndOfNumber(c, kind);
    return this.finishNumber(start, c);
  }
}

/** Tokenize `source`; line numbers start at `firstLine` (an f-string's expression starts mid-file). */
export function tokenize(source: string, firstLine = 1): Tokenized {
  return new Tokenizer(source, firstLine).run();
}
