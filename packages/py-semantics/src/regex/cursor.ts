/** Reading a pattern by code point (Python reports error positions in code points). */
import { PyRegexError } from "./ast.ts";

export class Cursor {
  readonly pattern: string;
  readonly cps: readonly string[];
  pos = 0;

  constructor(pattern: string) {
    this.pattern = pattern;
    this.cps = Array.from(pattern);
  }

  error(message: string, at: number = this.pos): PyRegexError {
    return new PyRegexError(message, this.pattern, at);
  }

  peek(offset = 0): string | undefined {
    return this.cps[this.pos + offset];
  }

  next(): string | undefined {
    return this.cps[this.pos++];
  }

  match(ch: string): boolean {
    if (this.cps[this.pos] !== ch) return false;
    this.pos++;
    return true;
  }
}
