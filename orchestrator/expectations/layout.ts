/**
 * Where each `[[expected]]` entry sits in the file text: its header's line, its keys' lines and
 * the comments directly above it, for line-numbered errors and for rewriting the file without
 * losing comments.
 */
import { lineAt, parseToml, TomlLines, tomlTypeName, topLevelKeyOffsets, type TomlTable } from "../arena/toml.ts";


/**
 * Where each `[[expected]]` table sits, so messages can name the line of a key inside it. The
 * thresholds file (thresholds.ts) has the same shape under another name: `entryName`.
 */
export class Layout {
  readonly preamble: string;
  private readonly text: string;
  private readonly top: TomlLines;
  private readonly topKeys: Map<string, number>;
  /** Start offsets of the real table-header lines (`[[expected]]` and any other table). */
  private readonly headers: number[];
  /** The subset that are `[[expected]]`, in order: header n opens entry n. */
  private readonly entryHeaders: number[];

  private readonly entryName: string;

  constructor(text: string, entryName = "expected") {
    this.text = text;
    this.entryName = entryName;
    this.top = new TomlLines(text);
    this.topKeys = topLevelKeyOffsets(text);
    this.headers = tableHeaderOffsets(text);
    this.entryHeaders = this.headers.filter((at) => isEntryHeader(text, at, entryName));
    const firstKey = Math.min(...this.topKeys.values(), text.length);
    const first = this.headers[0];
    // The first entry's own comments (directly above it) are not part of the preamble.
    const preambleEnd = first === undefined ? text.length : commentsAbove(text, first).start;
    this.preamble = text.slice(0, Math.min(preambleEnd, firstKey));
  }

  /** Line of a top-level key, or of the `[key]` / `[[key]]` header that defines it. */
  topLevel(key: string): number {
    if (this.topKeys.has(key)) return this.top.key(key);
    const header = this.headers.find((at) => headerName(this.text, at) === key);
    return header === undefined ? 1 : lineAt(this.text, header);
  }

  /**
   * Lines inside entry `index`. When the tables were not written as `[[expected]]` headers (an
   * inline `expected = [{…}]`), everything points at the `expected` key.
   */
  entry(index: number, count: number): EntryLines {
    const at = this.entryHeaders[index];
    if (this.entryHeaders.length !== count || at === undefined) {
      const line = this.topLevel(this.entryName);
      return { header: line, key: () => line, element: () => line, comments: [] };
    }
    const header = lineAt(this.text, at);
    const bodyStart = lineEnd(this.text, at);
    const next = this.headers.find((h) => h > at) ?? this.text.length;
    // The segment after a header parses like a document of its own: its keys are "top-level" to
    // the scanner, which stops at the next header. Line n of the segment is line header + n.
    const lines = new TomlLines(this.text.slice(bodyStart, next));
    const keys = topLevelKeyOffsets(this.text.slice(bodyStart, next));
    return {
      header,
      key: (k) => (keys.has(k) ? header + lines.key(k) : header),
      element: (k, v) => (keys.has(k) ? header + lines.element(k, v) : header),
      comments: commentsAbove(this.text, at).lines,
    };
  }
}

interface EntryLines {
  readonly header: number;
  key(key: string): number;
  element(key: string, value: string): number;
  readonly comments: string[];
}

const PROBE = "__expectations_probe__";

/**
 * Offsets of the lines that really are table headers. A line starting with `[` may also sit inside
 * a multi-line string or array; the arena scanner already knows strings and brackets, so each
 * candidate is confirmed by asking it whether a key placed on that line would be a top-level key
 * of the text since the previous header (it stops at headers, and skips strings and arrays).
 */
function tableHeaderOffsets(text: string): number[] {
  const found: number[] = [];
  let from = 0;
  for (let at = 0; at < text.length; at = lineEnd(text, at)) {
    if (!/^[ \t]*\[/.test(text.slice(at, at + 200))) continue;
    if (topLevelKeyOffsets(`${text.slice(from, at)}\n${PROBE} = 0\n`).has(PROBE)) {
      found.push(at);
      from = lineEnd(text, at);
    }
  }
  return found;
}

/** The offset just past the line starting at `at` (its newline included). */
function lineEnd(text: string, at: number): number {
  const nl = text.indexOf("\n", at);
  return nl === -1 ? text.length : nl + 1;
}

/** `expected` for `[[expected]]`, `a` for `[a.b]` (enough to name an unknown table). */
function headerName(text: string, at: number): string {
  const m = /^[ \t]*\[\[?[ \t]*(?:"([^"]*)"|'([^']*)'|([A-Za-z0-9_-]+))/.exec(text.slice(at, lineEnd(text, at)));
  return m ? (m[1] ?? m[2] ?? m[3] ?? "") : "";
}

/** `entryName` is a bare key (letters, `_`): used in the pattern as it is. */
function isEntryHeader(text: string, at: number, entryName: string): boolean {
  return new RegExp(`^[ \\t]*\\[\\[[ \\t]*(?:${entryName}|"${entryName}"|'${entryName}')[ \\t]*\\]\\]`).test(text.slice(at, lineEnd(text, at)));
}

/** The run of `#` lines ending right above the line at `at` (a blank line ends it), and where it starts. */
function commentsAbove(text: string, at: number): { lines: string[]; start: number } {
  const lines: string[] = [];
  let start = at;
  while (start > 0) {
    const prev = text.lastIndexOf("\n", start - 2) + 1;
    const line = text.slice(prev, start - 1);
    if (!/^[ \t]*#/.test(line)) break;
    lines.unshift(line.trimEnd());
    start = prev;
  }
  return { lines, start };
}
