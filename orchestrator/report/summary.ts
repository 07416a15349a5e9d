/**
 * The cross-arena summary (harness.md §12), built from the latest non-partial run record per
 * arena for one mode. Only two mock-mode tables compare frameworks (resilience and prompt size);
 * the grid is a wiring check, and the summary says so. Every figure counts only the cells the
 * provider served; the others are listed apart, with their cause.
 */
import { formatFixed } from "@agentic-arena/py-semantics";
import { servedItems, unservedItems, unservedText } from "./not-served.ts";
import type { AdapterRecord, RunRecord } from "./record.ts";

const PAUSE_ARENAS = ["human_in_the_loop", "durable_state"];

function cell(adapterRecord: AdapterRecord | undefined): string {
  if (!adapterRecord) return "—";
  if (!adapterRecord.available) {
    switch (adapterRecord.unavailable_kind) {
      case "unsupported":
        return "n/s";
      case "stub":
        return "stub";
      case "not_installed":
        return "·";
      default:
        return "err";
    }
  }
  const passed = adapterRecord.items.filter((i) => i.passed).length;
  return passed === adapterRecord.items.length && passed > 0 ? "✅" : `${passed}/${adapterRecord.items.length}`;
}

/** The record with each lane cut to the cells the provider served: what every figure is computed from. */
function servedOnly(record: RunRecord): RunRecord {
  return { ...record, frameworks: record.frameworks.map((f) => ({ ...f, items: servedItems(f.items) })) };
}

function unservedSection(records: readonly RunRecord[]): string[] {
  const lines: string[] = [];
  for (const r of records) {
    for (const f of r.frameworks) if (unservedItems(f.items).length > 0) lines.push(`| \`${r.arena}\` | \`${f.framework}\` | ${unservedText(f.items)} |`);
  }
  if (lines.length === 0) return [];
  return ["## Not served by the provider (in no figure above)", "", "| Arena | Framework | Cells |", "|---|---|---|", ...lines, ""];
}

function meanPrompt(adapterRecord: AdapterRecord): number {
  return adapterRecord.items.reduce((a, i) => a + i.prompt_tokens, 0) / (adapterRecord.items.length || 1);
}

/** Which run a summary cell comes from: a cross-run summary mixes runs, and says so. */
export interface CellSource {
  readonly arena: string;
  readonly framework: string;
  readonly runId: string;
  readonly startedAt: string;
}

export function renderSummary(records: readonly RunRecord[], sources: readonly CellSource[] = []): string {
  const all = [...records].sort((a, b) => a.arena.localeCompare(b.arena));
  const sorted = all.map(servedOnly);
  const mode = sorted[0]?.mode ?? "mock";
  const adapterNames: string[] = [];
  const variants = new Set<string>();
  for (const r of sorted) {
    for (const adapterRecord of r.frameworks) {
      if (!adapterNames.includes(adapterRecord.framework)) adapterNames.push(adapterRecord.framework);
      if (adapterRecord.variant) variants.add(adapterRecord.framework);
    }
  }
  const find = (r: RunRecord, name: string) => r.frameworks.find((f) => f.framework === name);
  const lines = [`# Summary — ${mode} mode`, ""];
  if (mode === "mock") {
    lines.push(
      "> ⚠️ Mock mode: the grid below is a wiring check, not a leaderboard. Only the resilience and",
      "> prompt-size tables compare frameworks in mock mode (the scripted turns are identical for everyone).",
      "",
    );
  }
  lines.push("## Coverage", "", `| Framework | ${sorted.map((r) => `\`${r.arena}\``).join(" | ")} |`);
  lines.push(`|---|${sorted.map(() => "---").join("|")}|`);
  for (const name of adapterNames) {
    lines.push(`| \`${name}\` | ${sorted.map((r) => cell(find(r, name))).join(" | ")} |`);
  }
  lines.push("", "`✅` every item passed · `n/m` partial · `n/s` unsupported (not a failure) · `stub` · `·` not installed · `err` unavailable; counts are over the cells the provider served", "");
  lines.push(...unservedSection(all));

  const resilience = sorted.find((r) => r.arena === "resilience");
  if (resilience) {
    lines.push("## Resilience (comparable in mock mode)", "", "| Framework | Recovered | Failed items |", "|---|--:|---|");
    for (const adapterRecord of resilience.frameworks.filter((f) => f.available)) {
      const failed = adapterRecord.items.filter((i) => !i.passed).map((i) => `\`${i.item_id}\``);
      lines.push(`| \`${adapterRecord.framework}\` | ${adapterRecord.items.filter((i) => i.passed).length}/${adapterRecord.items.length} | ${failed.join(", ") || "—"} |`);
    }
    lines.push("");
  }

  lines.push("## Rule violations (items on which the witness saw a rule broken)", "");
  lines.push(`| Framework | ${sorted.map((r) => `\`${r.arena}\``).join(" | ")} |`, `|---|${sorted.map(() => "--:").join("|")}|`);
  for (const name of adapterNames) {
    const cells = sorted.map((r) => {
      const adapterRecord = find(r, name);
      if (!adapterRecord?.available) return "—";
      const rules = [...new Set(adapterRecord.items.flatMap((i) => (i.violations ?? []).map((v) => v.rule)))].sort();
      const n = adapterRecord.items.filter((i) => (i.violations?.length ?? 0) > 0).length;
      return n === 0 ? "0" : `**${n}** (${rules.join(", ")})`;
    });
    lines.push(`| \`${name}\` | ${cells.join(" | ")} |`);
  }
  lines.push("", "Expected ones (a framework's own property) are listed with their reason in the expectations file; any other fails the run.", "");

  lines.push("## Prompt size (mean prompt tokens per item; comparable in mock mode)", "");
  lines.push(`| Framework | ${sorted.map((r) => `\`${r.arena}\``).join(" | ")} | vs \`vanilla\` |`);
  lines.push(`|---|${sorted.map(() => "--:").join("|")}|--:|`);
  for (const name of adapterNames) {
    let own = 0;
    let base = 0;
    const cells = sorted.map((r) => {
      const adapterRecord = find(r, name);
      if (!adapterRecord?.available || adapterRecord.items.length === 0) return "—";
      const baseline = find(r, "vanilla");
      if (baseline?.available && baseline.items.length > 0) {
        own += meanPrompt(adapterRecord);
        base += meanPrompt(baseline);
      }
      return formatFixed(meanPrompt(adapterRecord), 1);
    });
    const ratio = base > 0 ? `${formatFixed(own / base, 2)}×` : "—";
    lines.push(`| \`${name}\`${variants.has(name) ? " †" : ""} | ${cells.join(" | ")} | ${ratio} |`);
  }
  lines.push(
    "",
    "Ratio = Σ framework means / Σ baseline means over the arenas both ran. † a variant entry (a different structure, not a heavier serialisation).",
    "",
  );

  const pause = sorted.filter((r) => PAUSE_ARENAS.includes(r.arena));
  lines.push("## Pausing for a human", "", `| Framework | ${PAUSE_ARENAS.map((a) => `\`${a}\``).join(" | ")} |`, "|---|---|---|");
  for (const name of adapterNames) {
    const cells = PAUSE_ARENAS.map((arena) => {
      const r = pause.find((p) => p.arena === arena);
      const adapterRecord = r && find(r, name);
      if (!adapterRecord) return "—";
      if (!adapterRecord.available) return adapterRecord.unavailable_kind === "unsupported" ? "no" : "—";
      const n = adapterRecord.items.length;
      const paused = adapterRecord.items.filter((i) => (i.suspends ?? 0) > 0).length;
      const good = adapterRecord.items.filter((i) => (i.suspends ?? 0) > 0 && i.passed).length;
      return good === n && n > 0 ? `yes (${n}/${n})` : `**${paused}/${n} paused**`;
    });
    lines.push(`| \`${name}\` | ${cells.join(" | ")} |`);
  }
  lines.push(...sourceLines(sources, adapterNames));
  lines.push("", "_Generated from the newest complete, non-partial result per arena × framework; do not edit by hand._", "");
  return lines.join("\n");
}

/**
 * Each run a summary draws on, once: a row per run (one sentence when there is one), with the
 * cells it supplies grouped by arena — a row per cell named the same run dozens of times.
 */
function sourceLines(sources: readonly CellSource[], adapterNames: readonly string[]): string[] {
  if (sources.length === 0) return [];
  const runs = new Map<string, { startedAt: string; byArena: Map<string, string[]> }>();
  for (const s of sources) {
    const run = runs.get(s.runId) ?? { startedAt: s.startedAt, byArena: new Map<string, string[]>() };
    runs.set(s.runId, run);
    if (s.startedAt < run.startedAt) run.startedAt = s.startedAt;
    run.byArena.set(s.arena, [...(run.byArena.get(s.arena) ?? []), s.framework]);
  }
  const ordered = [...runs.entries()].sort(([a, x], [b, y]) => x.startedAt.localeCompare(y.startedAt) || a.localeCompare(b));
  if (ordered.length === 1) {
    const [runId, run] = ordered[0]!;
    return ["", "## Sources", "", `Every cell comes from run \`${runId}\`, started ${run.startedAt}.`];
  }
  const rank = (name: string) => {
    const i = adapterNames.indexOf(name);
    return i === -1 ? adapterNames.length : i;
  };
  const lines = ["", "## Sources", "", "| Run | Started | Cells |", "|---|---|---|"];
  for (const [runId, run] of ordered) {
    const cells = [...run.byArena.entries()]
      .sort(([a], [b]) => a.localeCompare(b))
      .map(([arena, names]) => `\`${arena}\`: ${[...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b)).map((n) => `\`${n}\``).join(", ")}`);
    lines.push(`| \`${runId}\` | ${run.startedAt} | ${cells.join("; ")} |`);
  }
  return lines;
}
