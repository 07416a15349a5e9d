/**
 * Scorecards (harness.md §11): one row per framework, in md / csv / json. Rounding is Python's
 * (exact binary value, ties to even) so the numbers match the reference byte for byte.
 */
import { formatFixed, pyRound } from "@agentic-arena/py-semantics";
import { failureReason } from "./failure-reason.ts";
import { costUsd } from "./pricing.ts";
import { causesText, servedItems, unservedCauses, unservedText } from "./not-served.ts";
import { statisticsSection } from "./scorecard-stats.ts";
import type { AdapterRecord, RunRecord } from "./record.ts";
import { ERROR_CLASSES, type ErrorClass } from "../run/error-class.ts";

import type { AvailableRow, PublishedSource, ScorecardRow, UnavailableRow } from "./scorecard-schema.ts";

export type { AvailableRow, ScorecardRow, UnavailableRow } from "./scorecard-schema.ts";

function rowFor(adapterRecord: AdapterRecord, pricing: RunRecord["pricing"]): ScorecardRow {
  if (!adapterRecord.available) return { framework: adapterRecord.framework, available: false, reason: adapterRecord.reason ?? "" };
  // Every figure of the row is over the cells the provider served; the rest are counted beside them.
  const items = servedItems(adapterRecord.items);
  const n = items.length;
  const div = n || 1;
  const passed = items.filter((i) => i.passed).length;
  const prompt = items.reduce((a, i) => a + i.prompt_tokens, 0);
  const completion = items.reduce((a, i) => a + i.completion_tokens, 0);
  const repeats = [...new Set(items.map((i) => i.repeat))].sort((a, b) => a - b);
  const rates = repeats.map((r) => {
    const these = items.filter((i) => i.repeat === r);
    return these.filter((i) => i.passed).length / (these.length || 1);
  });
  let stddev: number | null = null;
  if (rates.length >= 2) {
    const mean = rates.reduce((a, b) => a + b, 0) / rates.length;
    stddev = pyRound(Math.sqrt(rates.reduce((a, r) => a + (r - mean) ** 2, 0) / rates.length), 4);
  }
  const verdicts = new Map<string, Set<boolean>>();
  for (const i of items) verdicts.set(i.item_id, (verdicts.get(i.item_id) ?? new Set()).add(i.passed));
  const unstable = [...verdicts].filter(([, v]) => v.size > 1).map(([id]) => id).sort();
  return {
    framework: adapterRecord.framework,
    available: true,
    lib_version: adapterRecord.lib_version,
    items: n,
    pass_rate: pyRound(passed / div, 3),
    passed,
    errors: items.filter((i) => i.error).length,
    errors_by_class: errorsByClass(items),
    not_served: adapterRecord.items.length - n,
    not_served_by_cause: unservedCauses(adapterRecord.items),
    violations: items.filter((i) => (i.violations?.length ?? 0) > 0).length,
    violations_by_rule: violationsByRule(items),
    mean_latency_s: pyRound(items.reduce((a, i) => a + i.latency_s, 0) / div, 3),
    total_tokens: prompt + completion,
    mean_tokens: pyRound((prompt + completion) / div, 1),
    mean_llm_calls: pyRound(items.reduce((a, i) => a + i.llm_calls, 0) / div, 2),
    est_cost_usd: pyRound(costUsd(prompt, completion, pricing), 6),
    repeats: repeats.length,
    pass_rate_by_repeat: rates.map((r) => pyRound(r, 3)),
    pass_rate_stddev: stddev,
    unstable_items: unstable.length,
    unstable_item_ids: unstable,
  };
}

function errorsByClass(items: AdapterRecord["items"]): Partial<Record<ErrorClass, number>> {
  const counts: Partial<Record<ErrorClass, number>> = {};
  for (const i of items) {
    if (!i.error) continue;
    // Records written before classes existed count as the framework's own errors.
    const c = i.error_class ?? "adapter";
    counts[c] = (counts[c] ?? 0) + 1;
  }
  return counts;
}

function violationsByRule(items: AdapterRecord["items"]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const i of items) for (const rule of new Set((i.violations ?? []).map((v) => v.rule))) counts[rule] = (counts[rule] ?? 0) + 1;
  return counts;
}

/** `tool-output 5, model 1`: items per rule, most first. */
export function formatRuleCounts(counts: Record<string, number>): string {
  return Object.entries(counts)
    .sort(([a, x], [b, y]) => y - x || (a < b ? -1 : 1))
    .map(([rule, n]) => `${rule} ${n}`)
    .join(", ");
}

/** `adapter 1, timeout 2` in class order; empty when there were none. */
export function formatErrorClasses(counts: Partial<Record<ErrorClass, number>>): string {
  return ERROR_CLASSES.filter((c) => counts[c]).map((c) => `${c} ${counts[c]}`).join(", ");
}

/** Available rows first, then pass rate descending; ties keep framework order. */
export function scorecardRows(record: RunRecord): ScorecardRow[] {
  const rows = record.frameworks.map((adapterRecord) => rowFor(adapterRecord, record.pricing));
  const key = (r: ScorecardRow) => (r.available ? -r.pass_rate : 1);
  return rows.map((r, i) => ({ r, i })).sort((a, b) => key(a.r) - key(b.r) || a.i - b.i).map(({ r }) => r);
}

/** Python `'{:.0%}'`-style percentage. */
export function percent(x: number, decimals: number): string {
  return `${formatFixed(x * 100, decimals)}%`;
}

/** `sources`: a published scorecard's (results/), whose rows may come from different runs. */
export function renderMarkdown(record: RunRecord, rows: readonly ScorecardRow[], sources?: readonly PublishedSource[]): string {
  const lines = [
    `# Scorecard — \`${record.arena}\``,
    "",
    `> ${record.arena_description}`,
    "",
    `- **Mode:** ${record.mode}${record.mode === "mock" ? "  ⚠️ plumbing only — not a quality signal" : ""}`,
    `- **Model:** ${record.model}`,
    `- **Dataset:** ${record.dataset_size} items × ${record.repeat} repeat(s)`,
    `- **Run at:** ${record.started_at} (${record.duration_s}s)`,
    `- **Run:** \`${record.run_id}\`${record.status === "interrupted" ? " ⚠️ interrupted: only the items that finished" : ""}`,
    `- **Harness:** v${record.harness_version} · node ${record.node}`,
    `- **Prices:** est. cost at $${record.pricing.input_per_m} / $${record.pricing.output_per_m} per 1M prompt / completion tokens` +
      ` (ARENA_PRICE_INPUT_PER_M / ARENA_PRICE_OUTPUT_PER_M)${record.mode === "mock" ? "; mock token counts are scripted, so mock cost is wiring too" : ""}`,
    "",
    "| Framework | Ver | Pass rate | Errors | Not served by the provider | Rule violations | Mean latency | Mean tokens | Mean LLM calls | Est. cost |",
    "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|",
  ];
  for (const r of rows) {
    if (!r.available) {
      lines.push(`| \`${r.framework}\` | — | _not available_ | — | — | — | — | — | — |`);
      continue;
    }
    const rate = `${percent(r.pass_rate, 0)} (${r.passed}/${r.items})${r.pass_rate_stddev !== null ? ` ±${percent(r.pass_rate_stddev, 1)}` : ""}`;
    const classes = formatErrorClasses(r.errors_by_class);
    const rules = formatRuleCounts(r.violations_by_rule);
    const causes = causesText(r.not_served_by_cause);
    lines.push(
      `| \`${r.framework}\` | ${r.lib_version} | ${rate} | ${r.errors}${classes ? ` (${classes})` : ""} | ${r.not_served}${causes ? ` (${causes})` : ""} | ${r.violations}${rules ? ` (${rules})` : ""} | ${formatFixed(r.mean_latency_s, 3)}s | ${formatFixed(r.mean_tokens, 0)} | ${formatFixed(r.mean_llm_calls, 2)} | $${formatFixed(r.est_cost_usd, 4)} |`,
    );
  }
  lines.push(...statisticsSection(record, sources && ((framework) => sources.find((s) => s.framework === framework)?.run_id)));
  if (record.repeat > 1) {
    lines.push("", `± is the population standard deviation of the per-repeat pass rate across ${record.repeat} repeats.`, "");
    const unstable = rows.filter((r): r is AvailableRow => r.available && r.unstable_items > 0);
    if (unstable.length === 0) lines.push("Every item gave the same verdict on every repeat.");
    else {
      lines.push("**Unstable items**", "");
      for (const r of unstable) {
        lines.push(`- \`${r.framework}\` — ${r.unstable_items} item(s): ${r.unstable_item_ids.map((id) => `\`${id}\``).join(", ")}`);
      }
    }
  }
  lines.push(...failedItems(record));
  const unavailable = rows.filter((r): r is UnavailableRow => !r.available);
  if (unavailable.length > 0) {
    lines.push("", "**Not available this run:**", "");
    for (const r of unavailable) lines.push(`- \`${r.framework}\` — ${r.reason}`);
  }
  if (sources) lines.push(...sourcesSection(sources));
  lines.push("", "_Generated by `arena run` from the raw run record; do not edit by hand._", "");
  return lines.join("\n");
}

/**
 * Each failed item with why (the failing check's detail or the error and its class, and the
 * answer); then, apart, the cells the provider did not serve, which no figure above counts.
 */
function failedItems(record: RunRecord): string[] {
  const failed = record.frameworks.flatMap((adapterRecord) => servedItems(adapterRecord.items).filter((i) => !i.passed).map((i) => ({ adapter: adapterRecord.framework, i })));
  const repeatOf = (r: number) => (record.repeat > 1 ? ` (repeat ${r + 1})` : "");
  const lines: string[] = [];
  if (failed.length > 0) lines.push("", "**Failed items**", "");
  for (const { adapter, i } of failed) lines.push(`- \`${adapter}\` \`${i.item_id}\`${repeatOf(i.repeat)} — ${failureReason(i).replaceAll("|", "\\|")}`);
  const unserved = record.frameworks.map((f) => ({ framework: f.framework, text: unservedText(f.items) })).filter((f) => f.text !== "");
  if (unserved.length > 0) lines.push("", "**Not served by the provider** (left out of every figure above)", "");
  for (const f of unserved) lines.push(`- \`${f.framework}\` — ${f.text}`);
  return lines;
}

/** Each published row's run; a row kept over a later run says which run and why. */
function sourcesSection(sources: readonly PublishedSource[]): string[] {
  const lines = ["", "**Published from**", "", "| Framework | Run | Started | Note |", "|---|---|---|---|"];
  for (const s of sources) {
    const note = s.kept_over ? `kept: run \`${s.kept_over.run_id}\` was not published over it (${s.kept_over.reason})` : "—";
    lines.push(`| \`${s.framework}\` | \`${s.run_id}\` | ${s.started_at} | ${note} |`);
  }
  return lines;
}

const CSV_COLUMNS = [
  "framework",
  "available",
  "lib_version",
  "items",
  "pass_rate",
  "errors",
  "mean_latency_s",
  "total_tokens",
  "mean_tokens",
  "mean_llm_calls",
  "est_cost_usd",
  "repeats",
  "pass_rate_stddev",
  "unstable_items",
  "reason",
  "error_classes",
  "rule_violations",
  "not_served",
  "not_served_causes",
] as const;

function csvCell(v: unknown): string {
  if (v === null || v === undefined) return "";
  // CSV for other programs: JSON's spelling, not Python's `True`.
  if (typeof v === "boolean") return v ? "true" : "false";
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
}

export function renderCsv(rows: readonly ScorecardRow[]): string {
  const out = [CSV_COLUMNS.join(",")];
  for (const r of rows) {
    const cells: Record<string, unknown> = {
      ...r,
      ...(r.available
        ? {
            error_classes: formatErrorClasses(r.errors_by_class),
            rule_violations: formatRuleCounts(r.violations_by_rule),
            not_served_causes: causesText(r.not_served_by_cause),
          }
        : {}),
    };
    out.push(CSV_COLUMNS.map((c) => csvCell(cells[c])).join(","));
  }
  return out.join("\r\n") + "\r\n";
}

export function renderJson(record: RunRecord, rows: readonly ScorecardRow[], sources?: readonly PublishedSource[]): string {
  const { frameworks: _frameworks, ...meta } = record;
  return JSON.stringify({ meta, rows, ...(sources ? { sources } : {}) }, null, 2) + "\n";
}
