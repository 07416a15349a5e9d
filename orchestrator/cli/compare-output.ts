/**
 * `arena compare`'s two renderings of the same lanes: aligned text for a terminal or CI log, and
 * Markdown for a pull-request comment. Both name every fixed and broken item, with its passes over
 * its compared repeats in each run (`tu-01 1/1 → 0/1`), and the deltas of each lane.
 */
import { rateText, type Cell, type LaneDiff } from "../history/compare.ts";
import { scoreText, type ItemChange, type ItemDiff } from "../history/item-diff.ts";
import { deltaText, type DeltaMetric } from "../history/paired-items.ts";
import { renderTable } from "./table.ts";

export const COMPARE_FORMATS = ["text", "markdown"] as const;
export type CompareFormat = (typeof COMPARE_FORMATS)[number];

/** Everything a rendering needs besides the lanes: the runs' ids and modes, and the rule's text. */
export interface CompareHeading {
  readonly a: { readonly runId: string; readonly mode: string };
  readonly b: { readonly runId: string; readonly mode: string };
  readonly rule: string;
}

const DELTA_LABELS: readonly [DeltaMetric, string, number][] = [
  ["promptTokens", "prompt tokens", 1],
  ["completionTokens", "completion tokens", 1],
  ["costUsd", "cost $", 6],
  ["latencyS", "latency s", 3],
];

export function verdict(d: LaneDiff): string {
  if (d.regression) return "REGRESSION";
  if (d.a === undefined) return "only in B";
  if (d.b === undefined) return "only in A";
  return d.changes.broke > 0 ? "broke (within rule)" : d.changes.fixed > 0 ? "improved" : "same";
}

const itemText = (i: ItemDiff) => `${i.itemId} ${scoreText(i.a)} → ${scoreText(i.b)}`;
const named = (d: LaneDiff, change: ItemChange) => d.items.filter((i) => i.change === change);

function deltasText(d: LaneDiff): string {
  return DELTA_LABELS.filter(([m]) => d.paired.deltas[m] !== undefined)
    .map(([m, label, digits]) => `${label} ${deltaText(d.paired.deltas[m], digits)}`)
    .join(", ");
}

/** The per-lane lines under the table: named items, provider faults, unmatched items, deltas. */
function laneLines(d: LaneDiff): string[] {
  const lane = `${d.arena}/${d.framework}`;
  const out: string[] = [];
  const list = (change: ItemChange, label: string, text: (i: ItemDiff) => string) => {
    const items = named(d, change);
    if (items.length > 0) out.push(`  ${label} ${lane}: ${items.map(text).join(", ")}`);
  };
  list("broke", "broke     ", itemText);
  list("fixed", "fixed     ", itemText);
  if (d.notServedA.length + d.notServedB.length > 0) {
    // Which run the provider failed, cell by cell (repeats 1-based, as everywhere): never a regression.
    const repeated = [...d.notServedA, ...d.notServedB].some((c) => c.repeat > 0);
    const which = (cells: readonly Cell[]) => (cells.length > 0 ? cells.map((c) => `${c.item_id}${repeated ? `#${c.repeat + 1}` : ""}`).join(", ") : "none");
    out.push(`  not served by the provider ${lane} (not compared): A ${which(d.notServedA)}; B ${which(d.notServedB)}`);
  }
  if (d.a && d.b) {
    list("only-a", "only in A ", (i) => i.itemId);
    list("only-b", "only in B ", (i) => i.itemId);
  }
  const deltas = deltasText(d);
  if (deltas) out.push(`  B − A     ${lane}: ${deltas}`);
  return out;
}

export function compareText(diffs: readonly LaneDiff[], heading: CompareHeading): string {
  const rows = [["arena", "framework", "A", "B", "fixed", "broke", "unchanged", "p", "verdict"]];
  for (const d of diffs) {
    const c = d.changes;
    rows.push([d.arena, d.framework, rateText(d.a, d.intervals.a), rateText(d.b, d.intervals.b), String(c.fixed), String(c.broke), String(c.unchanged), d.pValue.toFixed(3), verdict(d)]);
  }
  const lines = diffs.flatMap(laneLines);
  return [`A: ${heading.a.runId} (${heading.a.mode})`, `B: ${heading.b.runId} (${heading.b.mode})`, "", renderTable(rows).trimEnd(), ...lines, summaryLine(diffs, heading.rule)].join("\n") + "\n";
}

export function summaryLine(diffs: readonly LaneDiff[], rule: string): string {
  const regressions = diffs.filter((d) => d.regression);
  if (regressions.length === 0) return `no regression (${rule})`;
  return `${regressions.length} regression(s) (${rule}): ${regressions.map((d) => `${d.arena}/${d.framework}`).join(", ")}`;
}

/** A pipe inside a cell would end it; item ids and framework names are the only free text here. */
const cell = (text: string) => text.replace(/\|/g, "\\|");

export function compareMarkdown(diffs: readonly LaneDiff[], heading: CompareHeading): string {
  const head = ["arena", "framework", "A", "B", "fixed", "broke", "unchanged", "only A", "only B", "not served", "p", ...DELTA_LABELS.map(([, l]) => `Δ ${l}`), "verdict"];
  const rows = diffs.map((d) => {
    const c = d.changes;
    const deltas = DELTA_LABELS.map(([m, , digits]) => deltaText(d.paired.deltas[m], digits));
    return [d.arena, d.framework, rateText(d.a, d.intervals.a), rateText(d.b, d.intervals.b), c.fixed, c.broke, c.unchanged, c["only-a"], c["only-b"], c["not-served"], d.pValue.toFixed(3), ...deltas, d.regression ? "**REGRESSION**" : verdict(d)].map((x) => cell(String(x)));
  });
  const out = [
    `## arena compare`,
    "",
    `- **A (baseline):** \`${heading.a.runId}\` (${heading.a.mode})`,
    `- **B (candidate):** \`${heading.b.runId}\` (${heading.b.mode})`,
    "",
    `| ${head.join(" | ")} |`,
    `|${head.map(() => " --- ").join("|")}|`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
    "",
  ];
  for (const d of diffs) {
    const broke = named(d, "broke");
    const fixed = named(d, "fixed");
    if (broke.length + fixed.length === 0) continue;
    out.push(`### ${cell(d.arena)} / ${cell(d.framework)}`, "");
    for (const i of broke) out.push(`- broke: \`${i.itemId}\` ${scoreText(i.a)} → ${scoreText(i.b)}`);
    for (const i of fixed) out.push(`- fixed: \`${i.itemId}\` ${scoreText(i.a)} → ${scoreText(i.b)}`);
    out.push("");
  }
  out.push(`**${summaryLine(diffs, heading.rule)}**`, "");
  return out.join("\n");
}
