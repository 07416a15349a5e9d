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
import type { RunRecord } from "../report/record.ts";
import { LocatedError } from "../files/located-error.ts";
import { Layout } from "./layout.ts";
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
export class ExpectationsError extends LocatedError<ExpectationsProblemKind> {
  override readonly name = "ExpectationsError";
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
    const adapter = str("framework", "the adapter name");
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
      const key = itemKey(mode as Mode, arena, adapter, item, rule);
      const first = listedAt.get(key);
      if (first !== undefined) {
        fail("duplicate", line, field, `'${item}' is already listed for ${mode} × ${arena} × ${adapter}${rule ? ` × rule ${rule}` : ""} (line ${first})`);
      }
      listedAt.set(key, line);
    });
    const reason = str("reason", "say why these items fail");
    entries.push({ mode: mode as Mode, arena, framework: adapter, ...(rule ? { rule } : {}), items: items as string[], reason, comments: where.comments });
  });
  return { file, exists: true, preamble: layout.preamble, entries };
}

/** The lookup key of one listed item, for failing or for a rule (JSON, so no id can run into the next field). */
export function itemKey(mode: Mode, arena: string, adapter: string, item: string, rule?: string): string {
  return JSON.stringify([mode, arena, adapter, item, rule ?? null]);
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
