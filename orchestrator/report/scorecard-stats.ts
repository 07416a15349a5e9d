/**
 * The scorecard's statistics section: a 95% interval on every pass rate, a paired test of each
 * framework against the baseline, and with repeats, pass@k and pass^k (orchestrator/stats
 * computes them; this only says them). A pass rate on a few items means little without its
 * interval, and two frameworks on the same items are compared pairwise, not by their totals.
 * Both the interval and the test are over items, each item's repeats folded into its pass
 * fraction first: the repeats of one item are not independent evidence, so `--repeat 10` on a
 * deterministic provider states what `--repeat 1` does. Only cells the provider served count
 * (report/not-served.ts).
 */
import { formatFixed } from "@agentic-arena/py-semantics";
import { clusteredPassInterval, itemOutcomes, meanPassAtK, meanPassHatK, pairedItemTest } from "../stats/index.ts";
import { servedItems, servedPairs } from "./not-served.ts";
import type { AdapterRecord, RunRecord } from "./record.ts";

const BASELINE = "vanilla";

const pct = (x: number) => `${formatFixed(x * 100, 1)}%`;

/** The method, said once above the table: what the interval and the test are over. */
export const STATISTICS_METHOD =
  "_Over items: each item's repeats are folded into its pass fraction first. Pass rates with a Wilson 95% interval on the number of items; each framework against `vanilla` by an exact paired sign-flip test on the per-item differences (with one repeat, the exact McNemar test)._";

function intervalText(adapterRecord: AdapterRecord): string {
  const ci = clusteredPassInterval(itemOutcomes(servedItems(adapterRecord.items)));
  return ci ? `${pct(ci.low)}–${pct(ci.high)}` : "n/a";
}

/** `runOf`: a published scorecard's lane → run; lanes of two runs are not paired. */
export type RunOf = (framework: string) => string | undefined;

function againstBaseline(adapterRecord: AdapterRecord, baseline: AdapterRecord | undefined, runOf: RunOf | undefined): string {
  if (!baseline || adapterRecord.framework === BASELINE) return "—";
  if (runOf && runOf(adapterRecord.framework) !== runOf(baseline.framework)) return "n/a (published from different runs)";
  // A pair either side of which the provider failed says nothing about either framework.
  const { first, second, dropped } = servedPairs(adapterRecord.items, baseline.items);
  const t = pairedItemTest(itemOutcomes(first), itemOutcomes(second));
  const droppedText = dropped > 0 ? `; ${dropped} cell pair(s) dropped: not served by the provider` : "";
  if (t.paired === 0) return `n/a (no shared items${droppedText})`;
  return `${t.better} better, ${t.worse} worse of ${t.paired} ${t.paired === 1 ? "item" : "items"}; p = ${formatFixed(t.pValue, 3)}${droppedText}`;
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
    ...(record.mode === "mock" ? ["_Mock mode: only resilience and prompt size compare frameworks; every other figure here is wiring._", ""] : []),
    STATISTICS_METHOD,
    "",
    k > 1 ? `| Framework | Pass rate 95% CI (items) | vs \`${BASELINE}\` (paired items) | pass@${k} | pass^${k} |` : `| Framework | Pass rate 95% CI (items) | vs \`${BASELINE}\` (paired items) |`,
    k > 1 ? "|---|--:|--:|--:|--:|" : "|---|--:|--:|",
  ];
  for (const adapterRecord of available) {
    const cells = [`\`${adapterRecord.framework}\``, intervalText(adapterRecord), againstBaseline(adapterRecord, baseline, runOf)];
    lines.push(`| ${cells.join(" | ")}${k > 1 ? ` | ${passAtKText(adapterRecord, k)}` : ""} |`);
  }
  return lines;
}
