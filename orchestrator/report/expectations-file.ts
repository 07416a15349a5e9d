/**
 * The expectations file (`<arenas dir>/expectations.toml`): which items are expected to fail, per
 * mode × arena × framework, and why. In mock mode a framework failing an item is a finding about
 * that framework, not a broken run; listing it here is what lets CI exit 0 on a run that matches
 * the known findings and 1 on anything new.
 *
 * ```toml
 * [[expected]]
 * mode = "mock"
 * arena = "resilience"
 * framework = "openai_agents"
 * items = [ "res-02" ]
 * reason = "…"
 * ```
 *
 * One item may be listed once per mode × arena × framework. Several entries for the same triple
 * are allowed as long as their items differ, so two failures with different causes each keep
 * their own reason (and `--update-expected` can add a new failure without putting it under an old
 * reason).
 *
 * Every mistake is an `ExpectationsError` whose message is `<file>:<line>: <field>: <problem>`.
 * Line numbers come from the arena loader's TOML key scanner (arena/toml.ts), applied to each
 * `[[expected]]` table in turn.
 */
import { stringify } from "smol-toml";
import { displayPath } from "../arena/diagnostics.ts";
import { readArenaText } from "../arena/text.ts";
import { lineAt, parseToml, TomlLines, tomlTypeName, topLevelKeyOffsets, type TomlTable } from "../arena/toml.ts";
import type { RunRecord } from "./record.ts";
import { RULE_IDS } from "../witness/rules.ts";
import { LANE_RULES } from "../witness/witness.ts";

const KNOWN_RULES: readonly string[] = [...RULE_IDS, ...LANE_RULES.map((r) => r.id)];

export type Mode = RunRecord["mode"];
const MODES: readonly Mode[] = ["mock", "live"];

export interface ExpectedEntry {
  readonly mode: Mode;
  readonly arena: string;
  readonly framework: string;
  /** Set: the items are expected to break this witness rule (a framework's own property), not to fail. */
  readonly rule?: string;
  readonly items: readonly string[];
  readonly reason: string;
  /** Comment lines directly above the entry's `[[expected]]` line (no blank line between): they move with the entry on update. */
  readonly comments: readonly string[];
}

export interface Expectations {
  /** The path as given to loadExpectations. */
  readonly file: string;
  /** False when there was no file: then nothing is expected to fail. */
  readonly exists: boolean;
  /** Everything before the first entry and its own comments (comments and blank lines), kept as is on update. */
  readonly preamble: string;
  readonly entries: readonly ExpectedEntry[];
}

/** What a rewrite starts from when there is no file yet. */
export const DEFAULT_PREAMBLE = `# Items expected to fail, per mode × arena × framework, each with the reason.
#
# In mock mode the scripted model gives every framework the same turns, so a failure listed here is
# the framework's own behaviour (a finding: docs/findings.md), not a broken run. \`arena run\` and
# \`arena bench\` exit 0 when the failures match this file and 1 on any difference.
# \`--update-expected\` rewrites the entries to match a run; it keeps these comments, the comments
# directly above an entry and every reason. Write the reason of each entry it adds before committing.
`;

/** The reason `--update-expected` gives a new entry; committing it unchanged is a review failure. */
export const REASON_PLACEHOLDER = "TODO: say why this fails (recorded by --update-expected)";

export type ExpectationsProblemKind = "unreadable" | "syntax" | "unknown_key" | "wrong_type" | "missing" | "empty" | "bad_value" | "duplicate";

/** A mistake in the expectations file. Bad input, not a crash: print `message`, never the stack. */
export class ExpectationsError extends Error {
  override readonly name = "ExpectationsError";
  readonly kind: ExpectationsProblemKind;
  /** The file as shown in the message (relative to the working directory). */
  readonly file: string;
  readonly line: number;
  /** `expected[1].items[0]`, a top-level key, or `""` for the whole file (unreadable, bad TOML). */
  readonly field: string;
  /** The message without location and field. */
  readonly problem: string;
  constructor(kind: ExpectationsProblemKind, file: string, line: number, field: string, problem: string) {
    super(`${file}:${line}: ${field === "" ? "" : `${field}: `}${problem}`);
    this.kind = kind;
    this.file = file;
    this.line = line;
    this.field = field;
    this.problem = problem;
  }
}

const ENTRY_KEYS = ["mode", "arena", "framework", "rule", "items", "reason"] as const;

/** A missing file is an empty set of expectations (an arenas dir need not carry one). */
export function loadExpectations(file: string, options: { cwd?: string } = {}): Expectations {
  const shown = displayPath(file, options.cwd ?? process.cwd());
  const read = readArenaText(file);
  if (read.kind === "missing") return { file, exists: false, preamble: "", entries: [] };
  if (read.kind === "invalid") throw new ExpectationsError("unreadable", shown, read.line, "", read.reason);
  const { text } = read;
  const parsed = parseToml(text);
  if (!parsed.ok) throw new ExpectationsError("syntax", shown, parsed.line, "", `invalid TOML (${parsed.reason})`);
  const layout = new Layout(text);
  const fail = (kind: ExpectationsProblemKind, line: number, field: string, problem: string): never => {
    throw new ExpectationsError(kind, shown, line, field, problem);
  };

  for (const key of Object.keys(parsed.table)) {
    if (key !== "expected") fail("unknown_key", layout.topLevel(key), key, "unknown key (the file holds only [[expected]] entries)");
  }
  const raw = parsed.table["expected"] ?? [];
  if (!Array.isArray(raw)) fail("wrong_type", layout.topLevel("expected"), "expected", `must be [[expected]] tables, got ${tomlTypeName(raw)}`);
  const tables = raw as unknown[];
  const listedAt = new Map<string, number>();
  const entries: ExpectedEntry[] = [];
  tables.forEach((t, index) => {
    const where = layout.entry(index, tables.length);
    const name = `expected[${index}]`;
    if (tomlTypeName(t) !== "dict") fail("wrong_type", where.header, name, `must be a table, got ${tomlTypeName(t)}`);
    const table = t as TomlTable;
    for (const key of Object.keys(table)) {
      if (!(ENTRY_KEYS as readonly string[]).includes(key)) {
        fail("unknown_key", where.key(key), `${name}.${key}`, `unknown key (known: ${ENTRY_KEYS.join(", ")})`);
      }
    }
    const str = (key: string, why: string): string => {
      const v = table[key];
      if (v === undefined) return fail("missing", where.header, `${name}.${key}`, `missing (${why})`);
      if (typeof v !== "string") return fail("wrong_type", where.key(key), `${name}.${key}`, `must be a string, got ${tomlTypeName(v)}`);
      if (v.trim() === "") return fail("empty", where.key(key), `${name}.${key}`, `is empty (${why})`);
      return v;
    };
    const mode = str("mode", "mock or live");
    if (!(MODES as readonly string[]).includes(mode)) fail("bad_value", where.key("mode"), `${name}.mode`, `must be mock or live, got '${mode}'`);
    const arena = str("arena", "the arena id");
    const framework = str("framework", "the adapter name");
    // With `rule`, the items are expected to show that witness rule's violation instead of failing.
    const rule = table["rule"] === undefined ? undefined : str("rule", "a witness rule id");
    if (rule !== undefined && !KNOWN_RULES.includes(rule)) {
      fail("bad_value", where.key("rule"), `${name}.rule`, `unknown rule '${rule}' (known: ${KNOWN_RULES.join(", ")})`);
    }
    const items = table["items"];
    if (items === undefined) fail("missing", where.header, `${name}.items`, "missing (the ids of the items expected to fail)");
    if (!Array.isArray(items)) return fail("wrong_type", where.key("items"), `${name}.items`, `must be a list of item ids, got ${tomlTypeName(items)}`);
    if (items.length === 0) fail("empty", where.key("items"), `${name}.items`, "is empty (list the items expected to fail, or remove the entry)");
    items.forEach((item: unknown, i) => {
      const field = `${name}.items[${i}]`;
      if (typeof item !== "string") return fail("wrong_type", where.key("items"), field, `must be a string, got ${tomlTypeName(item)}`);
      if (item.trim() === "") return fail("empty", where.key("items"), field, "is empty");
      const line = where.element("items", item);
      const key = itemKey(mode as Mode, arena, framework, item, rule);
      const first = listedAt.get(key);
      if (first !== undefined) {
        fail("duplicate", line, field, `'${item}' is already listed for ${mode} × ${arena} × ${framework}${rule ? ` × rule ${rule}` : ""} (line ${first})`);
      }
      listedAt.set(key, line);
    });
    const reason = str("reason", "say why these items fail");
    entries.push({ mode: mode as Mode, arena, framework, ...(rule ? { rule } : {}), items: items as string[], reason, comments: where.comments });
  });
  return { file, exists: true, preamble: layout.preamble, entries };
}

/** The lookup key of one listed item, for failing or for a rule (JSON, so no id can run into the next field). */
export function itemKey(mode: Mode, arena: string, framework: string, item: string, rule?: string): string {
  return JSON.stringify([mode, arena, framework, item, rule ?? null]);
}

/** The entries `--update-expected` added whose reason nobody has written yet. */
export function unwrittenReasons(expectations: Expectations): ExpectedEntry[] {
  return expectations.entries.filter((e) => e.reason === REASON_PLACEHOLDER);
}

/** The file's text: the preamble, then one block per entry, in order. */
export function serializeExpectations(preamble: string, entries: readonly ExpectedEntry[]): string {
  const blocks = entries.map((e) => {
    // smol-toml writes the strings, so a reason with quotes, newlines or control characters stays valid TOML.
    const table = stringify({
      expected: [{ mode: e.mode, arena: e.arena, framework: e.framework, ...(e.rule ? { rule: e.rule } : {}), items: [...e.items], reason: e.reason }],
    });
    return [...e.comments, table.trimEnd()].join("\n");
  });
  const head = preamble.trimEnd();
  return [...(head === "" ? [] : [head]), ...blocks].join("\n\n") + "\n";
}

/** Where each `[[expected]]` table sits, so messages can name the line of a key inside it. */
class Layout {
  readonly preamble: string;
  private readonly text: string;
  private readonly top: TomlLines;
  private readonly topKeys: Map<string, number>;
  /** Start offsets of the real table-header lines (`[[expected]]` and any other table). */
  private readonly headers: number[];
  /** The subset that are `[[expected]]`, in order: header n opens entry n. */
  private readonly entryHeaders: number[];

  constructor(text: string) {
    this.text = text;
    this.top = new TomlLines(text);
    this.topKeys = topLevelKeyOffsets(text);
    this.headers = tableHeaderOffsets(text);
    this.entryHeaders = this.headers.filter((at) => isEntryHeader(text, at));
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
      const line = this.topLevel("expected");
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

function isEntryHeader(text: string, at: number): boolean {
  return /^[ \t]*\[\[[ \t]*(?:expected|"expected"|'expected')[ \t]*\]\]/.test(text.slice(at, lineEnd(text, at)));
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
