/**
 * The scorecard's statistics section: a Wilson 95% interval on every pass rate, an exact McNemar
 * test of each framework against the baseline on the same items × repeats, and with repeats,
 * pass@k and pass^k (orchestrator/stats computes them; this only says them). A pass rate on a few
 * items means little without its interval, and two frameworks on the same items are compared
 * pairwise, not by their totals.
 */
import { formatFixed } from "@agentic-arena/py-semantics";
import { meanPassAtK, meanPassHatK, pairedMcNemar, wilsonInterval } from "../stats/index.ts";
import type { AdapterRecord, RunRecord } from "./record.ts";

const BASELINE = "vanilla";

const pct = (x: number) => `${formatFixed(x * 100, 1)}%`;

function wilsonText(adapterRecord: AdapterRecord): string {
  const n = adapterRecord.items.length;
  const ci = wilsonInterval(adapterRecord.items.filter((i) => i.passed).length, n);
  return ci ? `${pct(ci.low)}–${pct(ci.high)}` : "n/a";
}

function againstBaseline(adapterRecord: AdapterRecord, baseline: AdapterRecord | undefined): string {
  if (!baseline || adapterRecord.framework === BASELINE) return "—";
  const t = pairedMcNemar(adapterRecord.items, baseline.items);
  if (t.paired === 0) return "n/a (no shared items)";
  return `${t.b} better, ${t.c} worse of ${t.paired}; p = ${formatFixed(t.pValue, 3)}`;
}

function passAtKText(adapterRecord: AdapterRecord, k: number): string {
  const byItem = new Map<string, { n: number; c: number }>();
  for (const i of adapterRecord.items) {
    const counts = byItem.get(i.item_id) ?? { n: 0, c: 0 };
    byItem.set(i.item_id, { n: counts.n + 1, c: counts.c + (i.passed ? 1 : 0) });
  }
  const items = [...byItem.values()];
  const at = meanPassAtK(items, k);
  const hat = meanPassHatK(items, k);
  return `${at === undefined ? "n/a" : pct(at)} | ${hat === undefined ? "n/a" : pct(hat)}`;
}

export function statisticsSection(record: RunRecord): string[] {
  const available = record.frameworks.filter((f) => f.available && f.items.length > 0);
  if (available.length === 0) return [];
  const baseline = record.frameworks.find((f) => f.framework === BASELINE && f.available);
  const k = record.repeat;
  const lines = [
    "",
    "**Statistics**",
    "",
    record.mode === "mock"
      ? "_Mock mode: only resilience and prompt size compare frameworks; every other figure here is wiring._"
      : "_Pass rates with Wilson 95% intervals; each framework against `vanilla` by an exact McNemar test on the same items × repeats._",
    "",
    k > 1 ? `| Framework | Pass rate 95% CI | vs \`${BASELINE}\` (exact McNemar) | pass@${k} | pass^${k} |` : `| Framework | Pass rate 95% CI | vs \`${BASELINE}\` (exact McNemar) |`,
    k > 1 ? "|---|--:|--:|--:|--:|" : "|---|--:|--:|",
  ];
  for (const adapterRecord of available) {
    const cells = [`\`${adapterRecord.framework}\``, wilsonText(adapterRecord), againstBaseline(adapterRecord, baseline)];
    lines.push(`| ${cells.join(" | ")}${k > 1 ? ` | ${passAtKText(adapterRecord, k)}` : ""} |`);
  }
  return lines;
}
