/**
 * The thresholds a live run is judged by (`--thresholds FILE`, `--min-pass-rate P`): a minimum
 * pass rate per arena × framework. A live model is not deterministic, so a live run cannot be held
 * to a list of the items that fail (the expectations file pins the mock's wiring); it is held to
 * how often each framework passes instead.
 *
 * ```toml
 * # Every arena × framework no entry below names (optional).
 * min_pass_rate = 0.5
 *
 * [[threshold]]
 * arena = "tool_use"          # every framework on tool_use …
 * min_pass_rate = 0.8
 *
 * [[threshold]]
 * arena = "tool_use"
 * framework = "vanilla"       # … except vanilla, held to more
 * min_pass_rate = 0.9
 * ```
 *
 * Rates are fractions from 0 to 1. For a lane the most specific applies: its arena × framework
 * entry, then its arena's entry, then `--min-pass-rate`, then the file's top-level
 * `min_pass_rate`. A lane none of them covers is not judged. Every mistake is a
 * `ThresholdsError` whose message is `<file>:<line>: <field>: <problem>`, found before anything runs.
 */
import { displayPath } from "../arena/diagnostics.ts";
import { readArenaText } from "../arena/text.ts";
import { parseToml, tomlTypeName, type TomlTable } from "../arena/toml.ts";
import { LocatedError } from "../files/located-error.ts";
import { Layout } from "./layout.ts";

export interface ThresholdEntry {
  readonly arena: string;
  /** Absent: every framework on the arena. */
  readonly framework?: string;
  readonly min_pass_rate: number;
  /** Where the entry's header is, for a warning about an entry that matches nothing. */
  readonly line: number;
  /** `threshold[2]`. */
  readonly field: string;
}

export interface Thresholds {
  /** The file as shown in messages; absent when only `--min-pass-rate` was given. */
  readonly file?: string;
  /** The file's top-level `min_pass_rate`. */
  readonly fileDefault?: number;
  /** `--min-pass-rate`. */
  readonly flag?: number;
  readonly entries: readonly ThresholdEntry[];
}

export type ThresholdsProblemKind = "unreadable" | "missing_file" | "syntax" | "unknown_key" | "wrong_type" | "missing" | "empty" | "bad_value" | "duplicate";

/** A mistake in the thresholds file: bad input, printed as its message, never a stack. */
export class ThresholdsError extends LocatedError<ThresholdsProblemKind> {
  override readonly name = "ThresholdsError";
}

const TOP_KEYS = ["min_pass_rate", "threshold"] as const;
const ENTRY_KEYS = ["arena", "framework", "min_pass_rate"] as const;

/** A rate from the file: a TOML integer (0, 1) or float, from 0 to 1; otherwise why not. */
function rateProblem(v: unknown): string | undefined {
  if (typeof v !== "number" && typeof v !== "bigint") return `must be a number from 0 to 1, got ${tomlTypeName(v)}`;
  const n = Number(v);
  if (!Number.isFinite(n) || n < 0 || n > 1) return `must be a number from 0 to 1 (a fraction: 0.8 is 80%), got ${String(v)}`;
  return undefined;
}

/**
 * Reads a thresholds file. `flag` is `--min-pass-rate`, already parsed; `file` absent means the
 * flag alone. A missing file is an error: it was asked for by name.
 */
export function loadThresholds(file: string | undefined, flag: number | undefined, options: { cwd?: string } = {}): Thresholds {
  if (file === undefined) return { ...(flag !== undefined ? { flag } : {}), entries: [] };
  const shown = displayPath(file, options.cwd ?? process.cwd());
  const fail = (kind: ThresholdsProblemKind, line: number, field: string, problem: string): never => {
    throw new ThresholdsError(kind, shown, line, field, problem);
  };
  const read = readArenaText(file);
  if (read.kind === "missing") return fail("missing_file", 1, "", "no such file (--thresholds names a file that must exist)");
  if (read.kind === "invalid") return fail("unreadable", read.line, "", read.reason);
  const parsed = parseToml(read.text);
  if (!parsed.ok) return fail("syntax", parsed.line, "", `invalid TOML (${parsed.reason})`);
  const layout = new Layout(read.text, "threshold");
  const table = parsed.table;
  for (const key of Object.keys(table)) {
    if (!(TOP_KEYS as readonly string[]).includes(key)) fail("unknown_key", layout.topLevel(key), key, `unknown key (known: ${TOP_KEYS.join(", ")})`);
  }
  let fileDefault: number | undefined;
  if (table["min_pass_rate"] !== undefined) {
    const problem = rateProblem(table["min_pass_rate"]);
    if (problem) fail(typeof table["min_pass_rate"] === "number" || typeof table["min_pass_rate"] === "bigint" ? "bad_value" : "wrong_type", layout.topLevel("min_pass_rate"), "min_pass_rate", problem);
    fileDefault = Number(table["min_pass_rate"]);
  }
  const raw = table["threshold"] ?? [];
  if (!Array.isArray(raw)) return fail("wrong_type", layout.topLevel("threshold"), "threshold", `must be [[threshold]] tables, got ${tomlTypeName(raw)}`);
  const seen = new Map<string, number>();
  const entries = raw.map((t: unknown, index): ThresholdEntry => {
    const where = layout.entry(index, raw.length);
    const name = `threshold[${index}]`;
    if (tomlTypeName(t) !== "dict") return fail("wrong_type", where.header, name, `must be a table, got ${tomlTypeName(t)}`);
    const entry = t as TomlTable;
    for (const key of Object.keys(entry)) {
      if (!(ENTRY_KEYS as readonly string[]).includes(key)) fail("unknown_key", where.key(key), `${name}.${key}`, `unknown key (known: ${ENTRY_KEYS.join(", ")})`);
    }
    const str = (key: string, required: boolean): string | undefined => {
      const v = entry[key];
      if (v === undefined) return required ? fail("missing", where.header, `${name}.${key}`, "missing (the arena id)") : undefined;
      if (typeof v !== "string") return fail("wrong_type", where.key(key), `${name}.${key}`, `must be a string, got ${tomlTypeName(v)}`);
      if (v.trim() === "") return fail("empty", where.key(key), `${name}.${key}`, "is empty");
      return v;
    };
    const arena = str("arena", true)!;
    const framework = str("framework", false);
    const rate = entry["min_pass_rate"];
    if (rate === undefined) fail("missing", where.header, `${name}.min_pass_rate`, "missing (a number from 0 to 1)");
    const problem = rateProblem(rate);
    if (problem) fail(typeof rate === "number" || typeof rate === "bigint" ? "bad_value" : "wrong_type", where.key("min_pass_rate"), `${name}.min_pass_rate`, problem);
    const key = JSON.stringify([arena, framework ?? null]);
    const first = seen.get(key);
    if (first !== undefined) fail("duplicate", where.header, name, `${arena}${framework ? ` × ${framework}` : ""} already has a threshold (line ${first})`);
    seen.set(key, where.header);
    return { arena, ...(framework !== undefined ? { framework } : {}), min_pass_rate: Number(rate), line: where.header, field: name };
  });
  return { file: shown, ...(fileDefault !== undefined ? { fileDefault } : {}), ...(flag !== undefined ? { flag } : {}), entries };
}

/** Where a lane's threshold came from, for the line that reports it. */
export interface AppliedThreshold {
  readonly min: number;
  readonly source: string;
}

/** The threshold of one lane by the precedence above, or undefined: the lane is not judged. */
export function thresholdFor(t: Thresholds, arena: string, framework: string): AppliedThreshold | undefined {
  const exact = t.entries.find((e) => e.arena === arena && e.framework === framework);
  const arenaWide = t.entries.find((e) => e.arena === arena && e.framework === undefined);
  const entry = exact ?? arenaWide;
  if (entry) return { min: entry.min_pass_rate, source: `${t.file}:${entry.line}` };
  if (t.flag !== undefined) return { min: t.flag, source: "--min-pass-rate" };
  if (t.fileDefault !== undefined) return { min: t.fileDefault, source: `${t.file} min_pass_rate` };
  return undefined;
}
