/**
 * Problems found in arena files, as data. Every message carries a `<path>:<line>: ` prefix
 * (arena-format.md §7, port format) so editors and CI logs can jump straight to the value.
 */
import path from "node:path";

/** One validator finding. `text` is the message without its location prefix. */
export interface Diagnostic {
  /** The file as shown in messages (relative to the working directory). */
  readonly file: string;
  /** 1-based line where the offending value starts. */
  readonly line: number;
  readonly text: string;
  /** `<file>:<line>: <text>`. */
  readonly message: string;
}

export function diagnostic(file: string, line: number, text: string): Diagnostic {
  return { file, line, text, message: `${file}:${line}: ${text}` };
}

/** How a file is named in messages: relative to `cwd` when possible, as the examples in the spec show. */
export function displayPath(file: string, cwd: string): string {
  const rel = path.relative(cwd, file);
  return rel === "" ? "." : path.isAbsolute(rel) ? file : rel;
}

/**
 * The loader's failure. Bad arena data is an expected condition, so callers (the CLI) print
 * `message` and never a stack trace.
 */
export class ArenaLoadError extends Error {
  override readonly name = "ArenaLoadError";
  /** The file as shown in the message (relative to the working directory). */
  readonly file: string;
  readonly line: number;
  /** Item / check / scenario locator (`d-04.checks[1]`, `scenarios[2].turns[0]`), or `""`. */
  readonly field: string;
  /** The message without location. */
  readonly reason: string;
  constructor(file: string, line: number, field: string, reason: string) {
    super(`${file}:${line}: ${field === "" ? "" : `${field}: `}${reason}`);
    this.file = file;
    this.line = line;
    this.field = field;
    this.reason = reason;
  }
}

/** `--arena` / `--arenas-dir` named something that is not there: a usage problem, not bad data. */
export class ArenaLookupError extends Error {
  override readonly name = "ArenaLookupError";
}
