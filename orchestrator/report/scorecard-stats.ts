/**
 * The scorecard's statistics section: a Wilson 95% interval on every pass rate, an exact McNemar
 * test of each framework against the baseline on the same items × repeats, and with repeats,
 * pass@k and pass^k (orchestrator/stats computes them; this only says them). A pass rate on a few
 * items means little without its interval, and two frameworks on the same items are compared
 * pairwise, not by their totals. Only cells the provider served count (report/not-served.ts).
 */
import { formatFixed } from "@agentic-arena/py-semantics";
import { meanPassAtK, meanPassHatK, pairedMcNemar, wilsonInterval } from "../stats/index.ts";
import { servedItems, servedPairs } from "./not-served.ts";
import type { AdapterRecord, RunRecord } from "./record.ts";

const BASELINE = "vanilla";

const pct = (x: number) => `${formatFixed(x * 100, 1)}%`;

function wilsonText(adapterRecord: AdapterRecord): string {
  const served = servedItems(adapterRecord.items);
  const ci = wilsonInterval(served.filter((i) => i.passed).length, served.length);
  return ci ? `${pct(ci.low)}–${pct(ci.high)}` : "n/a";
}

/** `runOf`: a published scorecard's lane → run; lanes of two runs are not paired. */
export type RunOf = (framework: string) => string | undefined;

function againstBaseline(adapterRecord: AdapterRecord, baseline: AdapterRecord | undefined, runOf: RunOf | undefined): string {
  if (!baseline || adapterRecord.framework === BASELINE) return "—";
  if (runOf && runOf(adapterRecord.framework) !== runOf(baseline.framework)) return "n/a (published from different runs)";
  // A pair either side of which the provider failed says nothing about either framework.
  const { first, second, dropped } = servedPairs(adapterRecord.items, baseline.items);
  const t = pairedMcNemar(first, second);
  const droppedText = dropped > 0 ? `; ${dropped} pair(s) dropped: not served by the provider` : "";
  if (t.paired === 0) return `n/a (no shared items${droppedText})`;
  return `${t.b} better, ${t.c} worse of ${t.paired}; p = ${formatFixed(t.pValue, 3)}${droppedText}`;
}

function passAtKText(adapterRecord: AdapterRecord, k: number): string {
  const byItem = new Map<string, { n: number; c: number }>();
  for (const i of servedItems(adapterRecord.items)) {
    const counts = byItem.get(i.item_id) ?? { n: 0, c: 0 };
    byItem.set(i.item_id, { n: counts.n + 1, c: counts.c + (i.passed ? 1 : 0) });
  }
  const items = [...byItem.values()];
  const at = meanPassAtK(items, k);
  const hat = meanPassHatK(items, k);
  return `${at === undefined ? "n/a" : pct(at)} | ${hat === undefined ? "n/a" : pct(hat)}`;
}

export function statisticsSection(record: RunRecord, runOf?: RunOf): string[] {
  const available = record.frameworks.filter((f) => f.available && servedItems(f.items).length > 0);
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
    const cells = [`\`${adapterRecord.framework}\``, wilsonText(adapterRecord), againstBaseline(adapterRecord, baseline, runOf)];
    lines.push(`| ${cells.join(" | ")}${k > 1 ? ` | ${passAtKText(adapterRecord, k)}` : ""} |`);
  }
  return lines;
}
