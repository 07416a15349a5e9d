/**
 * What an item expects, in words, drawn from its checks as the arena declared them (each check
 * record keeps its `spec`, the check object from dataset.jsonl). The item table shows this next to
 * the question, so a reader sees `number 405 · tool_used calculator` without opening anything.
 *
 * The text is written from the spec, not from the check's `detail`: the detail of an errored item
 * is "skipped: adapter error", which says nothing about what the item wanted.
 */
import { clipOneLine } from "../clip.ts";

type Spec = Record<string, unknown>;

/** Short enough for one table cell; the item view shows the same text in full. */
const VALUE_CHARS = 60;

function quoted(value: unknown): string {
  return JSON.stringify(clipOneLine(typeof value === "string" ? value : JSON.stringify(value) ?? String(value), VALUE_CHARS));
}

function plain(value: unknown): string {
  return typeof value === "string" ? value : (JSON.stringify(value) ?? String(value));
}

/** `405`, or `8611 ± 1` when the check allows a tolerance. */
function withTolerance(value: unknown, tol: unknown): string {
  return typeof tol === "number" && tol > 0 ? `${plain(value)} ± ${tol}` : plain(value);
}

function sentences(spec: Spec): string {
  const { min, max } = spec;
  if (min !== undefined && max !== undefined) return `${plain(min)}–${plain(max)} sentences`;
  if (min !== undefined) return `≥ ${plain(min)} sentences`;
  if (max !== undefined) return `≤ ${plain(max)} sentences`;
  return "sentences counted";
}

function counts(value: unknown): string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return `call counts ${plain(value)}`;
  return `calls ${Object.entries(value).map(([name, n]) => `${name} ×${plain(n)}`).join(", ")}`;
}

function schema(value: unknown): string {
  const required = typeof value === "object" && value !== null && Array.isArray((value as Spec).required) ? ((value as Spec).required as unknown[]) : [];
  return required.length > 0 ? `JSON with ${required.map(plain).join(", ")}` : "JSON matching the schema";
}

const TEXT: Record<string, (spec: Spec) => string> = {
  contains: (s) => `contains ${quoted(s.value)}`,
  icontains: (s) => `contains ${quoted(s.value)} (any case)`,
  not_contains: (s) => `does not contain ${quoted(s.value)}`,
  iregex: (s) => `matches /${clipOneLine(plain(s.value), VALUE_CHARS)}/i`,
  numeric_equals: (s) => `number ${withTolerance(s.value, s.tol)}`,
  tool_used: (s) => `tool_used ${plain(s.name)}`,
  tool_not_used: (s) => `tool_not_used ${plain(s.name)}`,
  no_tool: () => "no tool calls",
  min_tool_calls: (s) => `≥ ${plain(s.value)} tool calls`,
  max_tool_calls: (s) => `≤ ${plain(s.value)} tool calls`,
  suspended: (s) => (s.value === undefined ? "pauses for a decision" : `pauses ≥ ${plain(s.value)}×`),
  no_tool_before_suspend: (s) => `no ${plain(s.name)} before the pause`,
  call_counts: (s) => counts(s.counts),
  sentence_count: sentences,
  json_valid: () => "valid JSON",
  json_schema: (s) => schema(s.schema),
  json_path_equals: (s) => `${plain(s.path)} = ${withTolerance(s.value, s.tol)}`,
};

/** One check's expectation; an unknown type (a newer arena) is shown as its type and fields. */
export function checkExpectation(type: string, spec: unknown): string {
  const fields: Spec = typeof spec === "object" && spec !== null && !Array.isArray(spec) ? (spec as Spec) : {};
  const text = Object.hasOwn(TEXT, type) ? TEXT[type]! : undefined;
  if (text) return text(fields);
  const { type: _type, ...rest } = fields;
  return Object.keys(rest).length > 0 ? `${type} ${clipOneLine(JSON.stringify(rest), VALUE_CHARS)}` : type;
}

/** Every check's expectation, in the arena's order: `number 405 · tool_used calculator`. */
export function expectedText(checks: readonly { readonly type: string; readonly spec?: unknown }[]): string {
  return checks.map((c) => checkExpectation(c.type, c.spec)).join(" · ");
}
