/**
 * A parser for Python `re` syntax (the `sre_parse` grammar of CPython 3.11+). It accepts what
 * Python accepts and rejects what Python rejects, so the validator can refuse a dataset pattern
 * up front instead of the scorer failing on it later. Constructs JS cannot reproduce
 * (conditionals, atomic groups, possessive quantifiers, `\N{…}`) are rejected too.
 */
import { reprString } from "../index.ts";
import { PyRegexError, type CaseMode, type Node } from "./ast.ts";
import { Cursor } from "./cursor.ts";
import { ASCII_LETTER, charNode, commonEscape, DIGIT, OCTAL, octalEscape, parseSet, shorthandOf } from "./escapes.ts";
import { width } from "./width.ts";

interface Flags {
  readonly ignoreCase: boolean;
  readonly dotAll: boolean;
  readonly multiline: boolean;
  readonly verbose: boolean;
  readonly ascii: boolean;
}

/** `_sre.MAXREPEAT`: larger repeat counts are an OverflowError in Python. */
const MAXREPEAT = 4294967295;
/** What `re.VERBOSE` skips (Python's own set, not `str.isspace`). */
const VERBOSE_WS = new Set([" ", "\t", "\n", "\r", "\v", "\f"]);
const FLAG_LETTERS = "aiLmsux";
const SCOPED_OFF_LETTERS = "imsx";
const IDENTIFIER = /^[\p{ID_Start}_][\p{ID_Continue}]*$/u;

interface GroupName {
  readonly text: string;
  /** Where the name starts in the pattern. */
  readonly at: number;
}

class Parser extends Cursor {
  private flags: Flags = { ignoreCase: true, dotAll: false, multiline: false, verbose: false, ascii: false };
  private groupCount = 0;
  private readonly openGroups = new Set<number>();
  private readonly names = new Map<string, number>();
  private lookbehindDepth = 0;
  /** The flags after the leading global flag groups (what the whole pattern starts with). */
  private globalFlags: Flags = this.flags;
  private readonly globalLetters = new Set<string>();

  parse(): ParsedPattern {
    const node = this.alternation(0);
    if (this.pos < this.cps.length) throw this.error("unbalanced parenthesis", this.pos);
    return { node, caseMode: caseMode(this.globalFlags) };
  }

  private alternation(depth: number): Node {
    const branches = [this.sequence(depth, depth === 0)];
    while (this.match("|")) branches.push(this.sequence(depth, false));
    return branches.length === 1 ? branches[0]! : { kind: "alt", branches };
  }

  private sequence(depth: number, firstBranch: boolean): Node {
    const items: Node[] = [];
    for (;;) {
      if (this.flags.verbose) this.skipVerbose();
      const c = this.peek();
      if (c === undefined || c === "|" || c === ")") break;
      const start = this.pos++;
      switch (c) {
        case "(": {
          const group = this.group(depth, firstBranch && items.length === 0, start);
          if (group !== null) items.push(group);
          break;
        }
        case "[":
          items.push(parseSet(this, this.flags.ascii, start));
          break;
        case ".":
          items.push({ kind: "any", dotAll: this.flags.dotAll });
          break;
        case "^":
          items.push({ kind: "assert", at: "start", multiline: this.flags.multiline });
          break;
        case "$":
          items.push({ kind: "assert", at: "end", multiline: this.flags.multiline });
          break;
        case "\\":
          items.push(this.escape(start));
          break;
        case "*":
          this.repeat(items, 0, Number.POSITIVE_INFINITY, start);
          break;
        case "+":
          this.repeat(items, 1, Number.POSITIVE_INFINITY, start);
          break;
        case "?":
          this.repeat(items, 0, 1, start);
          break;
        case "{": {
          const bounds = this.braces(start);
          if (bounds === null) items.push(charNode("{"));
          else this.repeat(items, bounds.min, bounds.max, start);
          break;
        }
        default:
          items.push(charNode(c));
      }
    }
    return items.length === 1 ? items[0]! : { kind: "seq", items };
  }

  private skipVerbose(): void {
    for (;;) {
      const c = this.peek();
      if (c !== undefined && VERBOSE_WS.has(c)) this.pos++;
      else if (c === "#") {
        while (this.peek() !== undefined && this.peek() !== "\n") this.pos++;
      } else return;
    }
  }

  /** `{m,n}` after `{`; null (nothing consumed) when it is not a quantifier and `{` is a literal. */
  private braces(start: number): { min: number; max: number } | null {
    if (this.peek() === "}") return null;
    const save = this.pos;
    const lo = this.digits();
    const comma = this.match(",");
    const hi = comma ? this.digits() : lo;
    if (!this.match("}")) {
      this.pos = save;
      return null;
    }
    const min = lo === "" ? 0 : Number(lo);
    const max = hi === "" ? Number.POSITIVE_INFINITY : Number(hi);
    if (min >= MAXREPEAT || (Number.isFinite(max) && max >= MAXREPEAT)) {
      throw this.error("the repetition number is too large", start);
    }
    if (max < min) throw this.error("min repeat greater than max repeat", start);
    return { min, max };
  }

  private digits(): string {
    let out = "";
    while (DIGIT.test(this.peek() ?? "")) out += this.next();
    return out;
  }

  private repeat(items: Node[], min: number, max: number, start: number): void {
    const last = items.at(-1);
    if (last === undefined || last.kind === "assert") throw this.error("nothing to repeat", start);
    if (last.kind === "repeat") throw this.error("multiple repeat", start);
    const lazy = this.match("?");
    if (!lazy && this.peek() === "+") throw this.error("possessive quantifiers are not supported", this.pos);
    items[items.length - 1] = { kind: "repeat", body: last, min, max, lazy };
  }

  private closeGroup(start: number): void {
    if (!this.match(")")) throw this.error("missing ), unterminated subpattern", start);
  }

  /** After `(`. Returns null for comments and global flags, which add nothing to the pattern. */
  private group(depth: number, atStart: boolean, start: number): Node | null {
    if (!this.match("?")) return this.capture(null, depth, start);
    const c = this.next();
    switch (c) {
      case ":": {
        const body = this.alternation(depth + 1);
        this.closeGroup(start);
        return { kind: "group", index: null, name: null, caseMode: null, body };
      }
      case "P":
        if (this.match("<")) return this.capture(this.groupName(">"), depth, start);
        if (this.match("=")) return this.namedBackref(this.groupName(")"), start);
        throw this.error(`unknown extension ?P${this.peek() ?? ""}`, start + 1);
      case "=":
      case "!":
        return this.look(false, c === "!", depth, start);
      case "<":
        if (this.match("=")) return this.look(true, false, depth, start);
        if (this.match("!")) return this.look(true, true, depth, start);
        throw this.error(`unknown extension ?<${this.peek() ?? ""}`, start + 1);
      case "#":
        while (this.peek() !== undefined && this.peek() !== ")") this.pos++;
        if (!this.match(")")) throw this.error("missing ), unterminated comment", start);
        return null;
      case "(":
        throw this.error("conditional groups are not supported", start);
      case ">":
        throw this.error("atomic groups are not supported", start);
      case undefined:
        throw this.error("unexpected end of pattern", this.pos);
    }
    if (FLAG_LETTERS.includes(c) || c === "-") return this.flagGroup(c, depth, atStart, start);
    throw this.error(`unknown extension ?${c}`, start + 1);
  }

  private capture(name: GroupName | null, depth: number, start: number): Node {
    const index = ++this.groupCount;
    if (name !== null) {
      const previous = this.names.get(name.text);
      if (previous !== undefined) {
        throw this.error(`redefinition of group name ${reprString(name.text)} as group ${index}; was group ${previous}`, name.at);
      }
      this.names.set(name.text, index);
    }
    this.openGroups.add(index);
    const body = this.alternation(depth + 1);
    this.closeGroup(start);
    this.openGroups.delete(index);
    return { kind: "group", index, name: name?.text ?? null, caseMode: null, body };
  }

  private groupName(terminator: string): GroupName {
    const start = this.pos;
    let name = "";
    for (;;) {
      const c = this.next();
      if (c === undefined) throw this.error(`missing ${terminator}, unterminated name`, start);
      if (c === terminator) break;
      name += c;
    }
    if (name === "") throw this.error("missing group name", start);
    if (!IDENTIFIER.test(name)) throw this.error(`bad character in group name ${reprString(name)}`, start);
    return { text: name, at: start };
  }

  private namedBackref(name: GroupName, start: number): Node {
    const index = this.names.get(name.text);
    if (index === undefined) throw this.error(`unknown group name ${reprString(name.text)}`, name.at);
    return this.backref(index, name.text, start, name.at);
  }

  /** `start` is where the reference begins, `numberAt` where its number or name does (Python's error positions). */
  private backref(index: number, name: string | null, start: number, numberAt: number): Node {
    if (index > this.groupCount) throw this.error(`invalid group reference ${index}`, numberAt);
    if (this.openGroups.has(index)) throw this.error("cannot refer to an open group", start);
    // JS look-behinds match right to left, so a reference inside one would see different text.
    if (this.lookbehindDepth > 0) throw this.error("group references inside a look-behind are not supported", start);
    return { kind: "backref", index, name };
  }

  private look(behind: boolean, negative: boolean, depth: number, start: number): Node {
    if (behind) this.lookbehindDepth++;
    const body = this.alternation(depth + 1);
    if (behind) this.lookbehindDepth--;
    this.closeGroup(start);
    if (behind) {
      const [lo, hi] = width(body);
      if (lo !== hi) throw new PyRegexError("look-behind requires fixed-width pattern", this.pattern);
    }
    return { kind: "look", behind, negative, body };
  }

  /** `(?aiLmsux)` (global, only at the very start) or `(?aiLmsux-imsx:…)` (scoped). */
  private flagGroup(first: string, depth: number, atStart: boolean, start: number): Node | null {
    const on = new Set<string>();
    const off = new Set<string>();
    let c: string | undefined = first;
    while (c !== undefined && FLAG_LETTERS.includes(c)) {
      on.add(c);
      c = this.next();
    }
    if (on.has("L")) throw this.error("bad inline flags: cannot use 'L' flag with a str pattern", start);
    if (on.has("a") && on.has("u")) throw this.error("bad inline flag: flags 'a', 'u' and 'L' are incompatible", start);
    if (c === ")") {
      if (!atStart) throw this.error("global flags not at the start of the expression", start);
      for (const f of on) this.globalLetters.add(f);
      if (this.globalLetters.has("a") && this.globalLetters.has("u")) {
        throw this.error("ASCII and UNICODE flags are incompatible", start);
      }
      this.flags = withFlags(this.flags, on, off);
      this.globalFlags = this.flags;
      return null;
    }
    if (c === "-") {
      c = this.next();
      if (c === undefined || !SCOPED_OFF_LETTERS.includes(c)) {
        if (c !== undefined && "aLu".includes(c)) {
          throw this.error("bad inline flag: cannot turn off flags 'a', 'u' and 'L'", start);
        }
        throw this.error("missing flag", this.pos);
      }
      while (c !== undefined && SCOPED_OFF_LETTERS.includes(c)) {
        off.add(c);
        c = this.next();
      }
    }
    if (c !== ":") throw this.error(c === undefined ? "missing -, : or )" : "missing :", this.pos);
    if ([...on].some((f) => off.has(f))) throw this.error("bad inline flag: flag turned on and off", start);
    const outer = this.flags;
    this.flags = withFlags(outer, on, off);
    const body = this.alternation(depth + 1);
    const inner = this.flags;
    this.flags = outer;
    this.closeGroup(start);
    return { kind: "group", index: null, name: null, caseMode: caseMode(inner), body };
  }

  /** After `\` outside a set. */
  private escape(start: number): Node {
    const c = this.next();
    if (c === undefined) throw this.error("bad escape (end of pattern)", start);
    const shorthand = shorthandOf(c, this.flags.ascii);
    if (shorthand !== undefined) return { kind: "shorthand", shorthand };
    switch (c) {
      case "A":
        return { kind: "assert", at: "string-start" };
      case "Z":
        return { kind: "assert", at: "string-end" };
      case "b":
        return { kind: "assert", at: "boundary", ascii: this.flags.ascii };
      case "B":
        return { kind: "assert", at: "non-boundary", ascii: this.flags.ascii };
    }
    const simple = commonEscape(this, c, start);
    if (simple !== undefined) return { kind: "char", cp: simple };
    if (c === "0") return { kind: "char", cp: octalEscape(this, "0", 2, start) };
    if (DIGIT.test(c)) return this.numericEscape(c, start);
    if (ASCII_LETTER.test(c)) throw this.error(`bad escape \\${c}`, start);
    return charNode(c);
  }

  /** `\1`–`\99` are group references, except a three-digit octal escape such as `\101`. */
  private numericEscape(c: string, start: number): Node {
    const d1 = this.peek();
    if (d1 !== undefined && DIGIT.test(d1)) {
      const d2 = this.peek(1);
      if (OCTAL.test(c) && OCTAL.test(d1) && d2 !== undefined && OCTAL.test(d2)) {
        return { kind: "char", cp: octalEscape(this, c, 2, start) };
      }
      this.pos++;
      return this.backref(Number(c + d1), null, start, start + 1);
    }
    return this.backref(Number(c), null, start, start + 1);
  }
}

function withFlags(flags: Flags, on: ReadonlySet<string>, off: ReadonlySet<string>): Flags {
  const pick = (letter: string, current: boolean): boolean => (on.has(letter) ? true : off.has(letter) ? false : current);
  return {
    ignoreCase: pick("i", flags.ignoreCase),
    dotAll: pick("s", flags.dotAll),
    multiline: pick("m", flags.multiline),
    verbose: pick("x", flags.verbose),
    ascii: on.has("a") ? true : on.has("u") ? false : flags.ascii,
  };
}

function caseMode(flags: Flags): CaseMode {
  return { ignoreCase: flags.ignoreCase, ascii: flags.ascii };
}

export interface ParsedPattern {
  readonly node: Node;
  /** The case mode at the start of the pattern (after any global flags). */
  readonly caseMode: CaseMode;
}

/** Parse a Python `re` pattern compiled with `re.IGNORECASE`. Throws `PyRegexError`. */
export function parsePyRegex(pattern: string): ParsedPattern {
  return new Parser(pattern).parse();
}
