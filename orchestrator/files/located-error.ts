/**
 * A mistake at a place in an input file — `file:line: field: problem` — as typed data: bad input,
 * printed as its message, never a stack. The expectations and thresholds files share it; `kind`
 * is each file's own list of problems, so a caller can tell them apart without parsing the text.
 */
export class LocatedError<Kind extends string> extends Error {
  readonly kind: Kind;
  /** The file as shown in the message (relative to the working directory). */
  readonly file: string;
  readonly line: number;
  /** `expected[1].items[0]`, a top-level key, or `""` for the whole file (unreadable, bad TOML). */
  readonly field: string;
  /** The message without location and field. */
  readonly problem: string;
  constructor(kind: Kind, file: string, line: number, field: string, problem: string) {
    super(`${file}:${line}: ${field === "" ? "" : `${field}: `}${problem}`);
    this.kind = kind;
    this.file = file;
    this.line = line;
    this.field = field;
    this.problem = problem;
  }
}
