/**
 * CPython 3.11's f-string scanner (f-strings are one STRING token there, split into literal parts
 * and `{expression!conversion:spec}` fields after tokenizing). An f-string is never a number, so
 * this exists only to fail exactly where CPython does, with its message.
 */
import type { Expr } from "./ast.ts";
import { decodeStringLiteral } from "./literals.ts";

export interface FstringContext {
  raiseHere(message: string): never;
  /** Parse one field's expression text, which starts on `line`. */
  expression(text: string, line: number): Expr;
}

const MAX_NESTING = 200;

class FstringScanner {
  private readonly s: readonly string[];
  private readonly end: number;
  private readonly raw: boolean;
  private readonly ctx: FstringContext;
  private readonly firstLine: number;
  private i = 0;
  readonly fields: Expr[] = [];

  constructor(body: string, raw: boolean, firstLine: number, ctx: FstringContext) {
    this.s = Array.from(body);
    this.end = this.s.length;
    this.raw = raw;
    this.firstLine = firstLine;
    this.ctx = ctx;
  }

  scan(level: number): void {
    for (;;) {
      if (this.literal(level)) continue;
      if (this.i >= this.end || this.s[this.i] === "}") break;
      this.field(level);
    }
    if (level === 0 && this.i < this.end - 1) this.ctx.raiseHere("f-string: unexpected end of string");
    if (level !== 0 && this.s[this.i] !== "}") this.ctx.raiseHere("f-string: expecting '}'");
  }

  /** A literal run; true when it stopped at a doubled brace and scanning should go on. */
  private literal(level: number): boolean {
    const s = this.s;
    const start = this.i;
    let i = this.i;
    let doubled = false;
    while (i < this.end) {
      let ch = s[i++]!;
      if (!this.raw && ch === "\\" && i < this.end) {
        ch = s[i++]!;
        if (ch === "N") {
          // Skip a `\N{...}` name so its brace is not read as a field.
          if (i < this.end && s[i++] === "{") while (i < this.end && s[i++] !== "}");
          continue;
        }
      }
      if (ch === "{" || ch === "}") {
        if (level === 0) {
          if (i < this.end && s[i] === ch) {
            doubled = true;
            break;
          }
          if (ch === "}") {
            this.i = i - 1;
            this.ctx.raiseHere("f-string: single '}' is not allowed");
          }
        }
        i--;
        break;
      }
    }
    this.i = doubled ? i + 1 : i;
    if (i > start && !this.raw) decodeStringLiteral(s.slice(start, i).join(""), (m) => this.ctx.raiseHere(m));
    return doubled;
  }

  private expectingBrace(): never {
    this.ctx.raiseHere("f-string: expecting '}'");
  }

  private field(level: number): void {
    const s = this.s;
    if (level >= 2) this.ctx.raiseHere("f-string: expressions nested too deeply");
    this.i++;
    const exprStart = this.i;
    let quote = "";
    let tripleQuoted = false;
    const nesting: string[] = [];
    for (; this.i < this.end; this.i++) {
      const ch = s[this.i]!;
      if (ch === "\\") this.ctx.raiseHere("f-string expression part cannot include a backslash");
      if (quote) {
        if (ch === quote) {
          if (!tripleQuoted) quote = "";
          else if (this.i + 2 < this.end && s[this.i + 1] === ch && s[this.i + 2] === ch) {
            this.i += 2;
            quote = "";
          }
        }
        continue;
      }
      if (ch === "'" || ch === '"') {
        tripleQuoted = this.i + 2 < this.end && s[this.i + 1] === ch && s[this.i + 2] === ch;
        if (tripleQuoted) this.i += 2;
        quote = ch;
        continue;
      }
      if (ch === "[" || ch === "{" || ch === "(") {
        if (nesting.length >= MAX_NESTING) this.ctx.raiseHere("f-string: too many nested parenthesis");
        nesting.push(ch);
        continue;
      }
      if (ch === "#") this.ctx.raiseHere("f-string expression part cannot include '#'");
      if (nesting.length === 0 && "!:}=<>".includes(ch)) {
        const next = s[this.i + 1];
        if (this.i + 1 < this.end && next === "=" && "!=<>".includes(ch)) {
          this.i++;
          continue;
        }
        if (ch === "<" || ch === ">") continue;
        break;
      }
      if (ch === "]" || ch === "}" || ch === ")") {
        const opening = nesting.pop();
        if (opening === undefined) this.ctx.raiseHere(`f-string: unmatched '${ch}'`);
        if ({ "(": ")", "[": "]", "{": "}" }[opening] !== ch) {
          this.ctx.raiseHere(`f-string: closing parenthesis '${ch}' does not match opening parenthesis '${opening}'`);
        }
      }
    }
    const exprEnd = this.i;
    if (quote) this.ctx.raiseHere("f-string: unterminated string");
    if (nesting.length > 0) this.ctx.raiseHere(`f-string: unmatched '${nesting[nesting.length - 1]}'`);
    if (this.i >= this.end) this.expectingBrace();
    this.compile(exprStart, exprEnd);
    if (s[this.i] === "=") {
      this.i++;
      while (this.i < this.end && /^[ \t\n\r\f\v]$/.test(s[this.i]!)) this.i++;
      if (this.i >= this.end) this.expectingBrace();
    }
    if (s[this.i] === "!") {
      this.i++;
      if (this.i >= this.end) this.expectingBrace();
      const conversion = s[this.i++]!;
      if (conversion !== "s" && conversion !== "r" && conversion !== "a") {
        this.ctx.raiseHere("f-string: invalid conversion character: expected 's', 'r', or 'a'");
      }
    }
    if (this.i < this.end && s[this.i] === ":") {
      this.i++;
      if (this.i >= this.end) this.expectingBrace();
      this.scan(level + 1);
    }
    if (this.i >= this.end || s[this.i] !== "}") this.expectingBrace();
    this.i++;
  }

  private compile(start: number, end: number): void {
    const text = this.s.slice(start, end).join("");
    if (/^[ \t\n\f]*$/.test(text)) {
      const stop = this.s[end]!;
      if (stop === "!" || stop === ":" || stop === "=") {
        this.ctx.raiseHere(`f-string: expression required before '${stop}'`);
      }
      this.ctx.raiseHere("f-string: empty expression not allowed");
    }
    const linesBefore = this.s.slice(0, start).filter((c) => c === "\n").length;
    this.fields.push(this.ctx.expression(text, this.firstLine + linesBefore));
  }
}

/** Check one f-string body; returns the fields' expressions (only their depth matters). */
export function scanFstring(body: string, raw: boolean, firstLine: number, ctx: FstringContext): Expr[] {
  const scanner = new FstringScanner(body, raw, firstLine, ctx);
  scanner.scan(0);
  return scanner.fields;
}
